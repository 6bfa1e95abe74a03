// math.hpp -- C++ side of the shared GLSL/C++ double-precision math library.
//
// The algorithms live in nxv_math.glsl.h, which is written in the common
// subset of GLSL 4.50 and C++20. This header provides, inside
// namespace nxv::math, the few GLSL types/builtins that file uses, the
// NXV_FUNC / NXV_PRECISE macros, and the literal operator ""lf so that the
// GLSL double-literal suffix (0.5lf) also compiles as C++. Then it includes
// the shared source.
//
// IMPORTANT: translation units using these functions must be compiled with
// -ffp-contract=off (no FMA contraction) -- otherwise the CPU results are not
// bit-identical to the GPU (whose arithmetic is decorated NoContraction).
// SSE2 double arithmetic (x86-64) or any other strict IEEE binary64 is
// assumed (no x87 excess precision).
// Compiler: GCC (tested with g++ 12). clang (14) refuses the reserved literal
// suffix `lf` in user code ("invalid suffix 'lf' on floating constant"), so
// this header does not currently build with clang.
#pragma once

#include <bit>
#include <cmath>
#include <cstdint>

namespace nxv::math {

// ---- GLSL types -------------------------------------------------------------
using uint = std::uint32_t;

struct uvec2 {
  uint x;
  uint y;
  constexpr uvec2(uint x_, uint y_) : x(x_), y(y_) {}
};

// ---- GLSL builtins used by nxv_math.glsl.h -----------------------------------
// unpackDouble2x32: .x = low 32 bits, .y = high 32 bits (sign/exponent).
constexpr uvec2 unpackDouble2x32(double d) {
  const std::uint64_t u = std::bit_cast<std::uint64_t>(d);
  return uvec2(static_cast<uint>(u), static_cast<uint>(u >> 32));
}
constexpr double packDouble2x32(uvec2 v) {
  return std::bit_cast<double>((static_cast<std::uint64_t>(v.y) << 32) | v.x);
}
inline double floor(double x) { return std::floor(x); }
// Round half to even: nearbyint in the default rounding mode, which nothing in nx_vulkan changes.
inline double roundEven(double x) { return std::nearbyint(x); }
inline double sqrt(double x) { return std::sqrt(x); }

// ---- GLSL double literal suffix: 1.5lf ----------------------------------------
// Decimal -> long double -> double. All literals in the shared source have
// >= 17 significant digits of an exactly representable double (or are short
// exact values), so the intermediate long double rounding cannot change the
// result; tests/shared/math_test.cpp checks every constant against the bit
// pattern glslang produces.
#if defined(__clang__)
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wuser-defined-literals"
#elif defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wliteral-suffix"
#endif
constexpr double operator"" lf(long double v) { return static_cast<double>(v); }
#if defined(__clang__)
#pragma clang diagnostic pop
#elif defined(__GNUC__)
#pragma GCC diagnostic pop
#endif

#define NXV_FUNC inline
#define NXV_PRECISE

#include "shared/math.glsl.h"

#undef NXV_FUNC
#undef NXV_PRECISE

}  // namespace nxv::math
