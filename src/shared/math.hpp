// math.hpp -- C++ side of the shared GLSL/C++ double-precision math library.
//
// The algorithms live in shared/math.glsl.h (and the special functions in
// shared/math_special.glsl.h and shared/math_polygamma.glsl.h), written in the
// common subset of GLSL 4.50 and C++20 but for GLSL's double-literal suffix (0.5lf).
// This header provides, inside namespace nxv::math, the few GLSL types/builtins
// that file uses and the NXV_FUNC / NXV_PRECISE macros, then includes the
// shared sources as the build spells them for C++: shared/*.cxx.h, the same
// text with the suffix dropped (cmake/cxx_from_glsl.cmake).
//
// IMPORTANT: translation units using these functions must be compiled with
// -ffp-contract=off (no FMA contraction) -- otherwise the CPU results are not
// bit-identical to the GPU (whose arithmetic is decorated NoContraction).
// SSE2 double arithmetic (x86-64) or any other strict IEEE binary64 is
// assumed (no x87 excess precision).
// Compilers: g++ 12 and clang 14 (the sanitizer and fuzzing builds).
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

#define NXV_FUNC inline
#define NXV_PRECISE

#include "shared/math.cxx.h"  // generated from shared/math.glsl.h
// In this order (each uses the helpers of the ones before it):
#include "shared/math_special.cxx.h"  // generated from shared/math_special.glsl.h (erf_inv, lgamma)

#include "shared/math_polygamma.cxx.h"  // generated from shared/math_polygamma.glsl.h (digamma, trigamma)

#undef NXV_FUNC
#undef NXV_PRECISE

}  // namespace nxv::math
