// f16 and bf16 in the shaders: both sit in uint16_t buffers and compute in float. These are the bit operations of
// include/nxv/half.hpp (round to nearest even, NaN -> the quiet NaN with its sign), so that a store rounds the same
// way on every device: Vulkan leaves the rounding of a float -> float16_t conversion to the implementation.
// Every value passes through integers only, so devices that flush f32 denormals do not touch the f16 subnormals.
#ifndef NXV_LIB_HALF_GLSL
#define NXV_LIB_HALF_GLSL

uint16_t nxv_f16_from_float(float f) {
  uint x = floatBitsToUint(f);
  uint sign = (x >> 16) & 0x8000u, a = x & 0x7fffffffu;
  if (a > 0x7f800000u) return uint16_t(sign | 0x7e00u);  // NaN
  if (a >= 0x477ff000u) return uint16_t(sign | 0x7c00u);  // >= 65520 (and inf): infinity
  if (a >= 0x38800000u) {                                 // >= 2^-14: a normal half
    uint r = a - 0x38000000u;
    return uint16_t(sign | ((r + 0xfffu + ((r >> 13) & 1u)) >> 13));
  }
  if (a < 0x33000000u) return uint16_t(sign);  // <= 2^-25: zero
  uint shift = 126u - (a >> 23), m = (a & 0x7fffffu) | 0x800000u;
  uint q = m >> shift, rest = m & ((1u << shift) - 1u), half_unit = 1u << (shift - 1u);
  return uint16_t(sign | (q + ((rest > half_unit || (rest == half_unit && (q & 1u) != 0u)) ? 1u : 0u)));
}

float nxv_f16_to_float(uint16_t h16) {
  uint h = uint(h16);
  uint sign = (h & 0x8000u) << 16, e = (h >> 10) & 0x1fu, m = h & 0x3ffu;
  if (e == 0x1fu) return uintBitsToFloat(sign | 0x7f800000u | (m << 13));
  if (e != 0u) return uintBitsToFloat(sign | ((e + 112u) << 23) | (m << 13));
  if (m == 0u) return uintBitsToFloat(sign);
  int msb = findMSB(m);
  return uintBitsToFloat(sign | (uint(msb + 103) << 23) | ((m << uint(23 - msb)) & 0x7fffffu));
}

uint16_t nxv_bf16_from_float(float f) {
  uint x = floatBitsToUint(f);
  if ((x & 0x7fffffffu) > 0x7f800000u) return uint16_t(((x >> 16) & 0x8000u) | 0x7fc0u);  // NaN
  return uint16_t((x + 0x7fffu + ((x >> 16) & 1u)) >> 16);
}

float nxv_bf16_to_float(uint16_t h) { return uintBitsToFloat(uint(h) << 16); }

#endif
