// The 16-bit float element types: nxv::Half (IEEE 754 binary16, DType::f16) and nxv::BFloat16 (bfloat16, the top
// half of an f32, DType::bf16). Each is its 16 bits plus conversions to and from float; the library computes on them
// in f32 and rounds once per result (as PyTorch and JAX do on most hardware), so neither type has arithmetic here.
//
// float -> Half / BFloat16 rounds to nearest, ties to even; values beyond the largest finite one become infinities,
// and NaN stays NaN (the quiet NaN with x's sign: 0x7e00 / 0x7fc0 | sign). Half / BFloat16 -> float is exact.
// Other sources (double, integers) convert through float first, so a double is rounded twice, as in PyTorch and
// Eigen. The shaders' conversions (src/vulkan/kernels/lib/half.glsl) are the same bit operations, so that the
// rounding does not depend on the device (Vulkan leaves the rounding of a float -> float16_t conversion open).
#pragma once
#include <bit>
#include <cstdint>
#include <type_traits>

namespace nxv {

namespace detail {

// IEEE binary16 from the bits of an f32, round to nearest even, in integer arithmetic only.
constexpr std::uint16_t f16_bits_from_f32_bits(std::uint32_t x) {
  const std::uint32_t sign = (x >> 16) & 0x8000u, a = x & 0x7fffffffu;
  if (a > 0x7f800000u) return static_cast<std::uint16_t>(sign | 0x7e00u);   // NaN
  if (a >= 0x477ff000u) return static_cast<std::uint16_t>(sign | 0x7c00u);  // >= 65520 (and inf): infinity
  if (a >= 0x38800000u) {                                                   // >= 2^-14: a normal half
    const std::uint32_t r = a - 0x38000000u;                                // the exponent rebiased from 127 to 15
    return static_cast<std::uint16_t>(sign | ((r + 0xfffu + ((r >> 13) & 1u)) >> 13));
  }
  if (a < 0x33000000u) return static_cast<std::uint16_t>(sign);  // <= 2^-25 (a tie with 0, which is even): zero
  // A subnormal half: the significand with its implicit bit, in units of 2^-24, rounded to even.
  const std::uint32_t shift = 126u - (a >> 23), m = (a & 0x7fffffu) | 0x800000u;
  const std::uint32_t q = m >> shift, rest = m & ((1u << shift) - 1u), half = 1u << (shift - 1u);
  return static_cast<std::uint16_t>(sign | (q + ((rest > half || (rest == half && (q & 1u))) ? 1u : 0u)));
}

// The bits of the f32 equal to IEEE binary16 `h` (exact: every half is an f32, its subnormals normal ones).
constexpr std::uint32_t f32_bits_from_f16_bits(std::uint16_t h) {
  const std::uint32_t sign = static_cast<std::uint32_t>(h & 0x8000u) << 16, e = (h >> 10) & 0x1fu, m = h & 0x3ffu;
  if (e == 0x1fu) return sign | 0x7f800000u | (m << 13);  // inf, NaN (the payload kept)
  if (e != 0u) return sign | ((e + 112u) << 23) | (m << 13);
  if (m == 0u) return sign;
  const int msb = 31 - std::countl_zero(m);  // the subnormal m * 2^-24, normalised: 2^(msb - 24) * 1.f
  return sign | (static_cast<std::uint32_t>(msb + 103) << 23) | ((m << (23 - msb)) & 0x7fffffu);
}

// bfloat16 from the bits of an f32: the top 16 bits, rounded to nearest even.
constexpr std::uint16_t bf16_bits_from_f32_bits(std::uint32_t x) {
  if ((x & 0x7fffffffu) > 0x7f800000u) return static_cast<std::uint16_t>(((x >> 16) & 0x8000u) | 0x7fc0u);  // NaN
  return static_cast<std::uint16_t>((x + 0x7fffu + ((x >> 16) & 1u)) >> 16);
}

}  // namespace detail

// IEEE 754 binary16: 1 sign, 5 exponent and 10 fraction bits (largest finite 65504, smallest normal 2^-14).
struct Half {
  std::uint16_t bits = 0;
  constexpr Half() = default;
  explicit Half(float x) : bits(detail::f16_bits_from_f32_bits(std::bit_cast<std::uint32_t>(x))) {}
  explicit Half(double x) : Half(static_cast<float>(x)) {}
  static constexpr Half from_bits(std::uint16_t b) {
    Half h;
    h.bits = b;
    return h;
  }
  explicit operator float() const { return std::bit_cast<float>(detail::f32_bits_from_f16_bits(bits)); }
  explicit operator double() const { return static_cast<float>(*this); }
};

// bfloat16: 1 sign, 8 exponent and 7 fraction bits (f32's range with 8 significant bits).
struct BFloat16 {
  std::uint16_t bits = 0;
  constexpr BFloat16() = default;
  explicit BFloat16(float x) : bits(detail::bf16_bits_from_f32_bits(std::bit_cast<std::uint32_t>(x))) {}
  explicit BFloat16(double x) : BFloat16(static_cast<float>(x)) {}
  static constexpr BFloat16 from_bits(std::uint16_t b) {
    BFloat16 h;
    h.bits = b;
    return h;
  }
  explicit operator float() const { return std::bit_cast<float>(static_cast<std::uint32_t>(bits) << 16); }
  explicit operator double() const { return static_cast<float>(*this); }
};

// Half or BFloat16: the element types stored in 16 bits and computed in float.
template <class T>
inline constexpr bool is_half_v = std::is_same_v<T, Half> || std::is_same_v<T, BFloat16>;

}  // namespace nxv
