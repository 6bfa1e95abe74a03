// f32 arithmetic correctly rounded without f64, for devices that lack shaderFloat64 (Apple GPUs, most phones). The
// running products of product and cumulative_product (lib/elementwise.glsl's nxv_ieee_multiply), and the
// kernels' f32 division and square root, compute float(double(a) / double(b)) and float(sqrt(double(x))), correctly
// rounded on every device with IEEE f64 (shared/elementwise_helpers.glsl.h); where the device has no f64 the same
// bits come from the operands' bits in 32-bit integer arithmetic here, whatever precision the device's own f32 division has (Vulkan allows 2.5 ULP)
// and whatever it does with f32 denormals. NXV_DEVICE_F64 picks the path per device: the runtime sets it
// (src/vulkan/runtime/pipelines.cpp), and on a device without f64 the modules are specialized before they are made
// (spirv_specialize.hpp), so the f64 path is gone from them. Tested bit for bit by the parity suites under
// NXV_DEVICE_MASK=f64 (the masked_minimum test).
#ifndef NXV_LIB_F32_EXACT_GLSL
#define NXV_LIB_F32_EXACT_GLSL

layout(constant_id = 63) const bool NXV_DEVICE_F64 = true;  // = kDeviceHasF64ConstantId (capabilities.hpp)

const uint kNxvF32Nan = 0x7fc00000u, kNxvF32Inf = 0x7f800000u;

// A finite nonzero f32's significand as an integer in [2^23, 2^24) and its exponent e, the value being
// m * 2^(e - 150): denormals normalised.
void nxv_cr_unpack(uint bits, out uint m, out int e) {
  m = bits & 0x7fffffu;
  e = int((bits >> 23) & 0xffu);
  if (e == 0) {
    const int shift = 23 - findMSB(m);
    m <<= uint(shift);
    e = 1 - shift;
  } else {
    m |= 0x800000u;
  }
}

// The f32 with sign bit `sign` nearest (ties to even) to (q + f) * 2^(E - 152), 0 <= f < 1 (f > 0 iff `inexact`), for q
// in [2^25, 2^26): E is the result's biased exponent when q's leading bit is the hidden one. Overflow gives
// infinity, underflow the rounded denormal or zero.
uint nxv_cr_round(uint sign, uint q, int E, bool inexact) {
  // Bits below the 24-bit significand: 2 for a normal result, more where it is denormal (its unit is 2^-149).
  const int s = E >= 1 ? 2 : 3 - E;
  if (s > 26) return sign;  // below half of the smallest denormal: zero
  uint sig = q >> uint(s);
  const uint rest = q & ((1u << uint(s)) - 1u), halfway = 1u << uint(s - 1);
  if (rest > halfway || (rest == halfway && (inexact || (sig & 1u) != 0u))) sig += 1u;
  // A normal result adds the significand (hidden bit included) to the exponent field of E - 1: a carry out of the
  // significand moves into the exponent by itself. A denormal one is the significand alone (2^23 after rounding up
  // is the smallest normal number, by the same carry).
  const uint bits = (E >= 1 ? uint(E - 1) << 23 : 0u) + sig;
  return sign | (bits >= kNxvF32Inf ? kNxvF32Inf : bits);
}

// a / b, IEEE binary32 division (round to nearest even) by restoring long division of the significands.
float nxv_cr_divide_bits(float a, float b) {
  const uint ua = floatBitsToUint(a), ub = floatBitsToUint(b);
  const uint sign = (ua ^ ub) & 0x80000000u;
  const uint abs_a = ua & 0x7fffffffu, abs_b = ub & 0x7fffffffu;
  if (abs_a > kNxvF32Inf || abs_b > kNxvF32Inf) return uintBitsToFloat(kNxvF32Nan);
  if (abs_a == kNxvF32Inf) return uintBitsToFloat(abs_b == kNxvF32Inf ? kNxvF32Nan : sign | kNxvF32Inf);
  if (abs_b == kNxvF32Inf) return uintBitsToFloat(sign);
  if (abs_b == 0u) return uintBitsToFloat(abs_a == 0u ? kNxvF32Nan : sign | kNxvF32Inf);
  if (abs_a == 0u) return uintBitsToFloat(sign);
  uint ma, mb;
  int ea, eb;
  nxv_cr_unpack(abs_a, ma, ea);
  nxv_cr_unpack(abs_b, mb, eb);
  int e = ea - eb;
  if (ma < mb) {  // ma / mb in [1, 2) from here
    ma <<= 1u;
    e -= 1;
  }
  uint q = 0u, r = ma;  // q = floor(ma / mb * 2^25), in [2^25, 2^26); r: the remainder, doubled each step
  for (int i = 0; i < 26; ++i) {
    q <<= 1u;
    if (r >= mb) {
      r -= mb;
      q |= 1u;
    }
    r <<= 1u;
  }
  return uintBitsToFloat(nxv_cr_round(sign, q, e + 127, r != 0u));
}

// sqrt(x), IEEE binary32 (round to nearest even), by the digit-by-digit integer square root of the significand.
float nxv_cr_sqrt_bits(float x) {
  const uint u = floatBitsToUint(x);
  if ((u & 0x7fffffffu) == 0u || u == kNxvF32Inf) return x;  // +-0 and +inf are their own roots
  if (u > kNxvF32Inf) return uintBitsToFloat(kNxvF32Nan);     // NaN and every negative number
  uint m;
  int e;
  nxv_cr_unpack(u, m, e);
  // x = m * 2^k with k even and m in [2^24, 2^26); the root of R = m * 2^26 is then in [2^25, 2^26).
  int k = e - 150;
  const bool odd = (k & 1) != 0;
  m <<= odd ? 1u : 2u;
  k -= odd ? 1 : 2;
  uint q = 0u, r = 0u;  // the root so far and the remainder: R's top bits = q^2 + r, r <= 2q
  for (int i = 25; i >= 0; --i) {
    const uint pair = i >= 13 ? (m >> uint(2 * (i - 13))) & 3u : 0u;  // bits 2i+1, 2i of R
    r = (r << 2u) | pair;
    const uint trial = (q << 2u) | 1u;
    q <<= 1u;
    if (r >= trial) {
      r -= trial;
      q |= 1u;
    }
  }
  // sqrt(x) = (q + f) * 2^((k - 26) / 2), so E - 152 = (k - 26) / 2.
  return uintBitsToFloat(nxv_cr_round(0u, q, (k - 26) / 2 + 152, r != 0u));
}

// a * b correctly rounded, denormal operands and results included: the 48-bit product of the significands
// (umulExtended) cut to 26 bits and a sticky bit for nxv_cr_round. A NaN operand is returned quieted (the first one),
// infinity times zero is the canonical NaN.
float nxv_cr_multiply_bits(float a, float b) {
  const uint ua = floatBitsToUint(a), ub = floatBitsToUint(b);
  const uint sign = (ua ^ ub) & 0x80000000u;
  const uint aa = ua & 0x7fffffffu, ab = ub & 0x7fffffffu;
  if (aa > kNxvF32Inf) return uintBitsToFloat(ua | 0x400000u);
  if (ab > kNxvF32Inf) return uintBitsToFloat(ub | 0x400000u);
  if (aa == kNxvF32Inf || ab == kNxvF32Inf)
    return uintBitsToFloat(aa == 0u || ab == 0u ? kNxvF32Nan : sign | kNxvF32Inf);
  if (aa == 0u || ab == 0u) return uintBitsToFloat(sign);
  uint ma, mb;
  int ea, eb;
  nxv_cr_unpack(aa, ma, ea);
  nxv_cr_unpack(ab, mb, eb);
  uint hi, lo;
  umulExtended(ma, mb, hi, lo);  // ma * mb = hi * 2^32 + lo, in [2^46, 2^48)
  const int lead = findMSB(hi) + 32;
  const uint cut = uint(lead - 25);  // 21 or 22 bits below the 26 that nxv_cr_round takes
  const uint q = (hi << (32u - cut)) | (lo >> cut);
  // a * b = (q + f) * 2^(cut + ea + eb - 300), so E - 152 = lead - 25 + ea + eb - 300.
  return uintBitsToFloat(nxv_cr_round(sign, q, ea + eb + lead - 173, (lo & ((1u << cut) - 1u)) != 0u));
}

// sqrt(x) in f32 correctly rounded on every device: through f64 where the device has it, else from the bits.
float nxv_cr_sqrt(float x) {
  if (NXV_DEVICE_F64) return float(sqrt(double(x)));
  return nxv_cr_sqrt_bits(x);
}

// f32 a / b correctly rounded on every device: through f64 where the device has it, else from the bits.
float nxv_cr_divide(float a, float b) {
  if (NXV_DEVICE_F64) {
    precise double q = double(a) / double(b);
    return float(q);
  }
  return nxv_cr_divide_bits(a, b);
}

#endif
