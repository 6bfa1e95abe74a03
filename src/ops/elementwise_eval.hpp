// C++ side of the elementwise ops: evaluates an op of shared/elementwise.def on compute-type values, with the
// very expressions the shaders use (see shared/elementwise_helpers.glsl.h for why that makes them bit-identical).
// Compute types: std::uint32_t (pred, u8, u16, u32), std::int32_t (s8, s16, s32), std::int64_t, std::uint64_t, float,
// double.
#pragma once
#include <bit>
#include <cmath>
#include <cstdint>
#include <type_traits>

#include "nxv/error.hpp"
#include "ops/op.hpp"
#include "shared/math.hpp"

namespace nxv::math {
using uint = std::uint32_t;
using std::int64_t;
using std::uint64_t;
#define NXV_ISNAN(x) std::isnan(x)
#define NXV_ISINF(x) std::isinf(x)
#define NXV_FABS(x) std::fabs(x)
#define NXV_FLOOR(x) std::floor(x)
#define NXV_CEIL(x) std::ceil(x)
#define NXV_SQRT(x) std::sqrt(x)
#define NXV_SIGNBIT(x) std::signbit(x)
#define NXV_DIVIDE_F32(a, b) float(double(a) / double(b))
#define NXV_SQRT_F32(x) float(std::sqrt(double(x)))
#define NXV_BIT_COUNT(x) std::popcount(x)
#define NXV_FIND_MSB(x) (31 - std::countl_zero(x))
#define NXV_F32_BITS(x) std::bit_cast<std::uint32_t>(x)
#define NXV_F32_FROM_BITS(u) std::bit_cast<float>(static_cast<std::uint32_t>(u))
#define NXV_FUNC inline
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"
#include "shared/elementwise_helpers.glsl.h"
#pragma GCC diagnostic pop
#undef NXV_ISNAN
#undef NXV_ISINF
#undef NXV_FABS
#undef NXV_FLOOR
#undef NXV_CEIL
#undef NXV_SQRT
#undef NXV_SIGNBIT
#undef NXV_DIVIDE_F32
#undef NXV_SQRT_F32
#undef NXV_BIT_COUNT
#undef NXV_FIND_MSB
#undef NXV_FUNC
}  // namespace nxv::math

namespace nxv {

template <class C>
inline constexpr bool is_compute_type_v =
    std::is_same_v<C, std::uint32_t> || std::is_same_v<C, std::int32_t> || std::is_same_v<C, std::int64_t> ||
    std::is_same_v<C, std::uint64_t> || std::is_same_v<C, float> || std::is_same_v<C, double>;

// The classes of elementwise.def, as C++ conditions on the compute type.
#define NXV_EW_CASE_NUM(id, expr) \
  case id:                        \
    return expr;
#define NXV_EW_CASE_FLOAT(id, expr)              \
  case id:                                       \
    if constexpr (std::is_floating_point_v<C>) { \
      return expr;                               \
    } else {                                     \
      break;                                     \
    }
#define NXV_EW_CASE_INT(id, expr)          \
  case id:                                 \
    if constexpr (std::is_integral_v<C>) { \
      return expr;                         \
    } else {                               \
      break;                               \
    }
#define NXV_EW_CASE_TEST(id, expr)
#define NXV_EW_TEST_NUM(id, expr)
#define NXV_EW_TEST_FLOAT(id, expr)
#define NXV_EW_TEST_INT(id, expr)
#define NXV_EW_TEST_TEST(id, expr) \
  case id:                         \
    return expr;

// nxv_bits: the dtype's width in memory (8 x its bytes), which the bit-counting ops need (narrow dtypes compute in 32
// bits).
template <class C>
C eval_unary(UnaryFn fn, C x, [[maybe_unused]] int nxv_bits = 8 * sizeof(C)) {
  using namespace nxv::math;
  switch (static_cast<int>(fn)) {
#define NXV_UNARY(id, name, cls, expr) NXV_EW_CASE_##cls(id, expr)
#define NXV_BINARY(id, name, cls, expr)
#include "shared/elementwise.def"
    default:
      break;
  }
  detail::fail("unary(", fn_name(fn), "): not defined for this compute type");
}

template <class C>
std::uint32_t eval_unary_test(UnaryFn fn, C x) {
  using namespace nxv::math;
  switch (static_cast<int>(fn)) {
#define NXV_UNARY(id, name, cls, expr) NXV_EW_TEST_##cls(id, expr)
#define NXV_BINARY(id, name, cls, expr)
#include "shared/elementwise.def"
    default:
      break;
  }
  detail::fail("unary_test(", fn_name(fn), "): not a test op");
}

template <class C>
C eval_binary(BinaryFn fn, C a, C b) {
  using namespace nxv::math;
  switch (static_cast<int>(fn)) {
#define NXV_UNARY(id, name, cls, expr)
#define NXV_BINARY(id, name, cls, expr) NXV_EW_CASE_##cls(id, expr)
#include "shared/elementwise.def"
    default:
      break;
  }
  detail::fail("binary(", fn_name(fn), "): not defined for this compute type");
}

template <class C>
std::uint32_t eval_binary_test(BinaryFn fn, C a, C b) {
  using namespace nxv::math;
  switch (static_cast<int>(fn)) {
#define NXV_UNARY(id, name, cls, expr)
#define NXV_BINARY(id, name, cls, expr) NXV_EW_TEST_##cls(id, expr)
#include "shared/elementwise.def"
    default:
      break;
  }
  detail::fail("binary_test(", fn_name(fn), "): not a test op");
}

template <class C>
C eval_max(C a, C b) {
  return nxv::math::nxv_max(a, b);
}
template <class C>
C eval_min(C a, C b) {
  return nxv::math::nxv_min(a, b);
}

#undef NXV_EW_CASE_NUM
#undef NXV_EW_CASE_FLOAT
#undef NXV_EW_CASE_INT
#undef NXV_EW_CASE_TEST
#undef NXV_EW_TEST_NUM
#undef NXV_EW_TEST_FLOAT
#undef NXV_EW_TEST_INT
#undef NXV_EW_TEST_TEST

}  // namespace nxv
