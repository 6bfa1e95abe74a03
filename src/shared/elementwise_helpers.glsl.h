// Helpers of the elementwise expressions in shared/elementwise.def: shared source, valid GLSL and valid C++.
//
// Each helper is overloaded for every compute type (uint for pred/u8/u16/u32, int for s8/s16/s32, int64_t, uint64_t,
// float, double) so that an
// expression like `nxv_abs(x)` means the same thing in both languages. The includer defines the few builtins
// whose spelling differs (NXV_ISNAN, NXV_ISINF, NXV_FABS, NXV_FLOOR, NXV_CEIL, NXV_SQRT, NXV_SIGNBIT,
// NXV_DIVIDE_F32 and NXV_SQRT_F32: float(double(a) / double(b)) and float(sqrt(double(x))), or the same bits
// without f64 in GLSL, lib/f32_exact.glsl; and on a
// 32-bit uint NXV_BIT_COUNT and NXV_FIND_MSB: GLSL's bitCount and findMSB, giving int, findMSB(0) = -1; and
// NXV_F32_BITS / NXV_F32_FROM_BITS: an f32's bits as a uint and back)
// and includes shared/math.glsl.h first (the double-precision nxv_exp, nxv_log, nxv_pow, ...).
//
// Why f32 goes through f64: float(double(a) / double(b)) and float(sqrt(double(x))) are correctly rounded
// (53 >= 2*24 + 2 bits), and the f32 transcendentals reuse the one f64 algorithm, so f32 results are
// bit-identical on every device with IEEE f64, whatever precision the device's own f32 builtins have
// (Vulkan allows 2.5 ULP for f32 division and far more for exp/sin).
//
// Integer semantics follow XLA: x / 0 = -1 (all bits set), x % 0 = x, INT_MIN / -1 = INT_MIN,
// shifts by >= the bit width give 0 (arithmetic right shifts of negatives give -1); all arithmetic wraps.

// ---- abs, sign, floor, ceil, round ------------------------------------------------------------------------
NXV_FUNC uint nxv_abs(uint x) { return x; }
NXV_FUNC int nxv_abs(int x) { return x < 0 ? -x : x; }
NXV_FUNC int64_t nxv_abs(int64_t x) { return x < int64_t(0) ? -x : x; }
NXV_FUNC uint64_t nxv_abs(uint64_t x) { return x; }
NXV_FUNC float nxv_abs(float x) { return NXV_FABS(x); }
NXV_FUNC double nxv_abs(double x) { return NXV_FABS(x); }

NXV_FUNC uint nxv_sign(uint x) { return x > 0u ? 1u : 0u; }
NXV_FUNC uint64_t nxv_sign(uint64_t x) { return x > uint64_t(0) ? uint64_t(1) : uint64_t(0); }
NXV_FUNC int nxv_sign(int x) { return x > 0 ? 1 : (x < 0 ? -1 : 0); }
NXV_FUNC int64_t nxv_sign(int64_t x) { return x > int64_t(0) ? int64_t(1) : (x < int64_t(0) ? int64_t(-1) : int64_t(0)); }
// Zeros keep their sign and NaN stays NaN.
NXV_FUNC float nxv_sign(float x) { return x > float(0) ? float(1) : (x < float(0) ? float(-1) : x); }
NXV_FUNC double nxv_sign(double x) { return x > double(0) ? double(1) : (x < double(0) ? double(-1) : x); }

NXV_FUNC uint nxv_floor(uint x) { return x; }
NXV_FUNC int nxv_floor(int x) { return x; }
NXV_FUNC int64_t nxv_floor(int64_t x) { return x; }
NXV_FUNC uint64_t nxv_floor(uint64_t x) { return x; }
// A zero result takes x's sign: IEEE says floor(-0.0) = ceil(-0.5) = -0.0, and some drivers (lavapipe's
// floor/ceil/trunc go through an integer conversion) return +0.0. (Not x * 0: drivers fold that to +0.)
NXV_FUNC float nxv_floor(float x) { float t = NXV_FLOOR(x); return t == float(0) ? (NXV_SIGNBIT(x) ? -float(0) : float(0)) : t; }
NXV_FUNC double nxv_floor(double x) { double t = NXV_FLOOR(x); return t == double(0) ? (NXV_SIGNBIT(x) ? -double(0) : double(0)) : t; }
NXV_FUNC uint nxv_ceil(uint x) { return x; }
NXV_FUNC int nxv_ceil(int x) { return x; }
NXV_FUNC int64_t nxv_ceil(int64_t x) { return x; }
NXV_FUNC uint64_t nxv_ceil(uint64_t x) { return x; }
NXV_FUNC float nxv_ceil(float x) { float t = NXV_CEIL(x); return t == float(0) ? (NXV_SIGNBIT(x) ? -float(0) : float(0)) : t; }
NXV_FUNC double nxv_ceil(double x) { double t = NXV_CEIL(x); return t == double(0) ? (NXV_SIGNBIT(x) ? -double(0) : double(0)) : t; }

// Half away from zero (C's round; GLSL's round() leaves .5 to the implementation). x - trunc(x) is exact.
NXV_FUNC uint nxv_round(uint x) { return x; }
NXV_FUNC int nxv_round(int x) { return x; }
NXV_FUNC int64_t nxv_round(int64_t x) { return x; }
NXV_FUNC uint64_t nxv_round(uint64_t x) { return x; }
// f32 in f32 arithmetic, so no f64 is needed: below 2^23, ax - floor(ax) and t + 1 are exact, so this is
// float(nxv_round_half_away(double(x))) bit for bit (a NaN comes back quieted by the addition).
NXV_FUNC float nxv_round(float x) {
  if (NXV_ISNAN(x)) return x + x;
  float ax = NXV_FABS(x);
  if (!(ax < float(8388608))) return x;  // 2^23 and above (and infinities) are integral
  float t = NXV_FLOOR(ax);
  float d = ax - t;
  if (d >= float(0.5)) t = t + float(1);
  return NXV_SIGNBIT(x) ? -t : t;
}
NXV_FUNC double nxv_round(double x) { return nxv_round_half_away(x); }

// ---- float functions: f32 through the f64 algorithm, rounded once (sigmoid, softplus, log_sigmoid: through
// double algorithms made for a float result, shared/math.glsl.h) -------------------------------------------
NXV_FUNC float nxv_exp(float x) { return float(nxv_exp(double(x))); }
NXV_FUNC float nxv_expm1(float x) { return float(nxv_expm1(double(x))); }
NXV_FUNC float nxv_log(float x) { return float(nxv_log(double(x))); }
NXV_FUNC float nxv_log1p(float x) { return float(nxv_log1p(double(x))); }
NXV_FUNC float nxv_sigmoid(float x) { return nxv_sigmoidf(x); }
NXV_FUNC float nxv_softplus(float x) { return nxv_softplusf(x); }
NXV_FUNC float nxv_tan(float x) { return float(nxv_tan(double(x))); }
NXV_FUNC float nxv_sinh(float x) { return float(nxv_sinh(double(x))); }
NXV_FUNC float nxv_cosh(float x) { return float(nxv_cosh(double(x))); }
NXV_FUNC float nxv_asinh(float x) { return float(nxv_asinh(double(x))); }
NXV_FUNC float nxv_acosh(float x) { return float(nxv_acosh(double(x))); }
NXV_FUNC float nxv_atanh(float x) { return float(nxv_atanh(double(x))); }
NXV_FUNC float nxv_cbrt(float x) { return float(nxv_cbrt(double(x))); }
NXV_FUNC float nxv_log_sigmoid(float x) { return nxv_log_sigmoidf(x); }
NXV_FUNC float nxv_tanh(float x) { return float(nxv_tanh(double(x))); }
NXV_FUNC float nxv_sin(float x) { return float(nxv_sin(double(x))); }
NXV_FUNC float nxv_cos(float x) { return float(nxv_cos(double(x))); }
NXV_FUNC float nxv_erf(float x) { return float(nxv_erf(double(x))); }
NXV_FUNC float nxv_erfc(float x) { return float(nxv_erfc(double(x))); }
NXV_FUNC float nxv_erf_inv(float x) { return float(nxv_erf_inv(double(x))); }
NXV_FUNC float nxv_lgamma(float x) { return float(nxv_lgamma(double(x))); }
NXV_FUNC float nxv_digamma(float x) { return float(nxv_digamma(double(x))); }
NXV_FUNC float nxv_trigamma(float x) { return float(nxv_trigamma(double(x))); }
NXV_FUNC float nxv_asin(float x) { return float(nxv_asin(double(x))); }
NXV_FUNC float nxv_acos(float x) { return float(nxv_acos(double(x))); }
NXV_FUNC float nxv_atan(float x) { return float(nxv_atan(double(x))); }
NXV_FUNC float nxv_atan2(float a, float b) { return float(nxv_atan2(double(a), double(b))); }
NXV_FUNC float nxv_xlogy(float a, float b) { return float(nxv_xlogy(double(a), double(b))); }
NXV_FUNC float nxv_xlog1py(float a, float b) { return float(nxv_xlog1py(double(a), double(b))); }
NXV_FUNC float nxv_sqrt(float x) { return NXV_SQRT_F32(x); }
NXV_FUNC double nxv_rsqrt(double x) { return double(1) / NXV_SQRT(x); }
NXV_FUNC float nxv_rsqrt(float x) { return float(double(1) / NXV_SQRT(double(x))); }
NXV_FUNC double nxv_reciprocal(double x) { return double(1) / x; }
NXV_FUNC float nxv_reciprocal(float x) { return NXV_DIVIDE_F32(float(1), x); }
NXV_FUNC double nxv_divide(double a, double b) { return a / b; }
NXV_FUNC float nxv_divide(float a, float b) { return NXV_DIVIDE_F32(a, b); }

// ---- is_nan, is_infinity (0/1; never true for integers) -----------------------------------------------------
NXV_FUNC uint nxv_is_nan(uint x) { return 0u; }
NXV_FUNC uint nxv_is_nan(int x) { return 0u; }
NXV_FUNC uint nxv_is_nan(int64_t x) { return 0u; }
NXV_FUNC uint nxv_is_nan(uint64_t x) { return 0u; }
NXV_FUNC uint nxv_is_nan(float x) { return NXV_ISNAN(x) ? 1u : 0u; }
NXV_FUNC uint nxv_is_nan(double x) { return NXV_ISNAN(x) ? 1u : 0u; }
NXV_FUNC uint nxv_is_inf(uint x) { return 0u; }
NXV_FUNC uint nxv_is_inf(int x) { return 0u; }
NXV_FUNC uint nxv_is_inf(int64_t x) { return 0u; }
NXV_FUNC uint nxv_is_inf(uint64_t x) { return 0u; }
NXV_FUNC uint nxv_is_inf(float x) { return NXV_ISINF(x) ? 1u : 0u; }
NXV_FUNC uint nxv_is_inf(double x) { return NXV_ISINF(x) ? 1u : 0u; }

// ---- max, min: NaN-propagating; max(-0, +0) = +0 and min(-0, +0) = -0 whatever the order -----------------
NXV_FUNC uint nxv_max(uint a, uint b) { return a > b ? a : b; }
NXV_FUNC int nxv_max(int a, int b) { return a > b ? a : b; }
NXV_FUNC int64_t nxv_max(int64_t a, int64_t b) { return a > b ? a : b; }
NXV_FUNC uint64_t nxv_max(uint64_t a, uint64_t b) { return a > b ? a : b; }
NXV_FUNC float nxv_max(float a, float b) {
  if (NXV_ISNAN(a)) return a;
  if (NXV_ISNAN(b)) return b;
  if (a == b) return NXV_SIGNBIT(a) ? b : a;
  return a > b ? a : b;
}
NXV_FUNC double nxv_max(double a, double b) {
  if (NXV_ISNAN(a)) return a;
  if (NXV_ISNAN(b)) return b;
  if (a == b) return NXV_SIGNBIT(a) ? b : a;
  return a > b ? a : b;
}
NXV_FUNC uint nxv_min(uint a, uint b) { return a < b ? a : b; }
NXV_FUNC int nxv_min(int a, int b) { return a < b ? a : b; }
NXV_FUNC int64_t nxv_min(int64_t a, int64_t b) { return a < b ? a : b; }
NXV_FUNC uint64_t nxv_min(uint64_t a, uint64_t b) { return a < b ? a : b; }
NXV_FUNC float nxv_min(float a, float b) {
  if (NXV_ISNAN(a)) return a;
  if (NXV_ISNAN(b)) return b;
  if (a == b) return NXV_SIGNBIT(a) ? a : b;
  return a < b ? a : b;
}
NXV_FUNC double nxv_min(double a, double b) {
  if (NXV_ISNAN(a)) return a;
  if (NXV_ISNAN(b)) return b;
  if (a == b) return NXV_SIGNBIT(a) ? a : b;
  return a < b ? a : b;
}

// ---- pow: floats through f64; integers by squaring (wrapping), negative exponents as XLA ------------------
NXV_FUNC float nxv_pow(float a, float b) { return float(nxv_pow(double(a), double(b))); }
NXV_FUNC uint nxv_pow(uint a, uint b) {
  uint r = 1u;
  uint base = a;
  uint e = b;
  while (e != 0u) {
    if ((e & 1u) != 0u) r = r * base;
    base = base * base;
    e = e >> 1u;
  }
  return r;
}
NXV_FUNC uint64_t nxv_pow(uint64_t a, uint64_t b) {
  uint64_t r = uint64_t(1);
  uint64_t base = a;
  uint64_t e = b;
  while (e != uint64_t(0)) {
    if ((e & uint64_t(1)) != uint64_t(0)) r = r * base;
    base = base * base;
    e = e >> 1;
  }
  return r;
}
NXV_FUNC int nxv_pow(int a, int b) {
  if (b < 0) return a == 1 ? 1 : (a == -1 ? ((b & 1) != 0 ? -1 : 1) : 0);
  int r = 1;
  int base = a;
  int e = b;
  while (e != 0) {
    if ((e & 1) != 0) r = r * base;
    base = base * base;
    e = e >> 1;
  }
  return r;
}
NXV_FUNC int64_t nxv_pow(int64_t a, int64_t b) {
  if (b < int64_t(0))
    return a == int64_t(1) ? int64_t(1)
                           : (a == int64_t(-1) ? ((b & int64_t(1)) != int64_t(0) ? int64_t(-1) : int64_t(1)) : int64_t(0));
  int64_t r = int64_t(1);
  int64_t base = a;
  int64_t e = b;
  while (e != int64_t(0)) {
    if ((e & int64_t(1)) != int64_t(0)) r = r * base;
    base = base * base;
    e = e >> 1;
  }
  return r;
}

// ---- remainder (sign of the dividend) and quotient (truncating), through unsigned magnitudes so that
// INT_MIN and negative operands are defined in both languages -------------------------------------------
// f32 from the bits, so that no f64 is needed: fdlibm's e_fmodf.c, shift-and-subtract on the significands. fmod is
// exact, so this is float(nxv_fmod(double(a), double(b))) bit for bit (NaN operands quieted, x % 0 and inf % y the
// canonical NaN, as there).
NXV_FUNC float nxv_fmod_f32(float x, float y) {
  const uint ux = NXV_F32_BITS(x), uy = NXV_F32_BITS(y);
  const uint sx = ux & 0x80000000u;
  const uint ax = ux ^ sx, ay = uy & 0x7fffffffu;
  if (ax > 0x7f800000u) return NXV_F32_FROM_BITS(ux | 0x400000u);
  if (ay > 0x7f800000u) return NXV_F32_FROM_BITS(uy | 0x400000u);
  if (ay == 0u || ax == 0x7f800000u) return NXV_F32_FROM_BITS(0x7fc00000u);
  if (ax < ay) return x;
  if (ax == ay) return NXV_F32_FROM_BITS(sx);
  // ilogb of each, and the significands with the leading bit at bit 23 (denormals shifted up).
  const int ix = ax < 0x00800000u ? NXV_FIND_MSB(ax) - 149 : int(ax >> 23) - 127;
  int iy = ay < 0x00800000u ? NXV_FIND_MSB(ay) - 149 : int(ay >> 23) - 127;
  int hx = ix >= -126 ? int(0x00800000u | (ax & 0x007fffffu)) : int(ax << uint(-126 - ix));
  const int hy = iy >= -126 ? int(0x00800000u | (ay & 0x007fffffu)) : int(ay << uint(-126 - iy));
  for (int n = ix - iy; n > 0; --n) {  // fixed-point remainder, one bit of the quotient at a time
    const int hz = hx - hy;
    if (hz < 0) {
      hx = hx + hx;
    } else {
      if (hz == 0) return NXV_F32_FROM_BITS(sx);
      hx = hz + hz;
    }
  }
  if (hx - hy >= 0) hx = hx - hy;
  if (hx == 0) return NXV_F32_FROM_BITS(sx);
  while (hx < 0x00800000) {  // normalise
    hx = hx + hx;
    iy -= 1;
  }
  if (iy >= -126) return NXV_F32_FROM_BITS(sx | ((uint(hx) - 0x00800000u) | (uint(iy + 127) << 23)));
  return NXV_F32_FROM_BITS(sx | (uint(hx) >> uint(-126 - iy)));  // a denormal result (exact)
}
NXV_FUNC float nxv_remainder(float a, float b) { return nxv_fmod_f32(a, b); }
NXV_FUNC double nxv_remainder(double a, double b) { return nxv_fmod(a, b); }
NXV_FUNC uint nxv_remainder(uint a, uint b) { return b == 0u ? a : a % b; }
NXV_FUNC uint64_t nxv_remainder(uint64_t a, uint64_t b) { return b == uint64_t(0) ? a : a % b; }
NXV_FUNC int nxv_remainder(int a, int b) {
  if (b == 0) return a;
  uint ua = a < 0 ? uint(-a) : uint(a);
  uint ub = b < 0 ? uint(-b) : uint(b);
  uint r = ua % ub;
  return a < 0 ? -int(r) : int(r);
}
NXV_FUNC int64_t nxv_remainder(int64_t a, int64_t b) {
  if (b == int64_t(0)) return a;
  uint64_t ua = a < int64_t(0) ? uint64_t(-a) : uint64_t(a);
  uint64_t ub = b < int64_t(0) ? uint64_t(-b) : uint64_t(b);
  uint64_t r = ua % ub;
  return a < int64_t(0) ? -int64_t(r) : int64_t(r);
}
NXV_FUNC uint nxv_quotient(uint a, uint b) { return b == 0u ? 0xFFFFFFFFu : a / b; }
NXV_FUNC uint64_t nxv_quotient(uint64_t a, uint64_t b) { return b == uint64_t(0) ? ~uint64_t(0) : a / b; }
NXV_FUNC int nxv_quotient(int a, int b) {
  if (b == 0) return -1;
  uint ua = a < 0 ? uint(-a) : uint(a);
  uint ub = b < 0 ? uint(-b) : uint(b);
  uint q = ua / ub;
  return (a < 0) != (b < 0) ? -int(q) : int(q);
}
NXV_FUNC int64_t nxv_quotient(int64_t a, int64_t b) {
  if (b == int64_t(0)) return int64_t(-1);
  uint64_t ua = a < int64_t(0) ? uint64_t(-a) : uint64_t(a);
  uint64_t ub = b < int64_t(0) ? uint64_t(-b) : uint64_t(b);
  uint64_t q = ua / ub;
  return (a < int64_t(0)) != (b < int64_t(0)) ? -int64_t(q) : int64_t(q);
}

// ---- shifts ---------------------------------------------------------------------------------------------------
NXV_FUNC uint nxv_left_shift(uint a, uint b) { return b >= 32u ? 0u : a << b; }
NXV_FUNC int nxv_left_shift(int a, int b) { return (b < 0 || b >= 32) ? 0 : a << b; }
NXV_FUNC int64_t nxv_left_shift(int64_t a, int64_t b) {
  return (b < int64_t(0) || b >= int64_t(64)) ? int64_t(0) : a << int(b);
}
NXV_FUNC uint64_t nxv_left_shift(uint64_t a, uint64_t b) { return b >= uint64_t(64) ? uint64_t(0) : a << int(b); }
NXV_FUNC uint nxv_right_shift(uint a, uint b) { return b >= 32u ? 0u : a >> b; }
NXV_FUNC uint64_t nxv_right_shift(uint64_t a, uint64_t b) { return b >= uint64_t(64) ? uint64_t(0) : a >> int(b); }
NXV_FUNC int nxv_right_shift(int a, int b) { return (b < 0 || b >= 32) ? (a < 0 ? -1 : 0) : a >> b; }
NXV_FUNC int64_t nxv_right_shift(int64_t a, int64_t b) {
  return (b < int64_t(0) || b >= int64_t(64)) ? (a < int64_t(0) ? int64_t(-1) : int64_t(0)) : a >> int(b);
}

// ---- population_count, count_leading_zeros: over the stored width `bits` (the expression's nxv_bits: 8 x the dtype's
// bytes), since narrow dtypes compute in 32 bits (u8/u16 zero-extended, s8/s16 sign-extended); 64-bit values as two
// 32-bit halves, since the builtins take 32 bits ---------------------------------------------------------------------
NXV_FUNC uint nxv_low_bits(uint x, int bits) { return bits >= 32 ? x : x & ((1u << uint(bits)) - 1u); }
NXV_FUNC uint nxv_population_count(uint x, int bits) { return uint(NXV_BIT_COUNT(nxv_low_bits(x, bits))); }
NXV_FUNC int nxv_population_count(int x, int bits) { return NXV_BIT_COUNT(nxv_low_bits(uint(x), bits)); }
NXV_FUNC uint64_t nxv_population_count(uint64_t x, int bits) {
  // Summed as uint and widened by zero extension: lavapipe (Mesa 22.3) compared the sign-extended int sum wrongly
  // when a per-instance kernel used it in the same invocation (1 <= popcount(0) held).
  return uint64_t(uint(NXV_BIT_COUNT(uint(x >> 32))) + uint(NXV_BIT_COUNT(uint(x & uint64_t(0xFFFFFFFFu)))));
}
NXV_FUNC int64_t nxv_population_count(int64_t x, int bits) { return int64_t(nxv_population_count(uint64_t(x), bits)); }
NXV_FUNC uint nxv_count_leading_zeros(uint x, int bits) { return uint(bits - 1 - NXV_FIND_MSB(nxv_low_bits(x, bits))); }
NXV_FUNC int nxv_count_leading_zeros(int x, int bits) { return bits - 1 - NXV_FIND_MSB(nxv_low_bits(uint(x), bits)); }
NXV_FUNC uint64_t nxv_count_leading_zeros(uint64_t x, int bits) {
  uint hi = uint(x >> 32);
  uint lo = uint(x & uint64_t(0xFFFFFFFFu));
  return uint64_t(hi != 0u ? 31 - NXV_FIND_MSB(hi) : 63 - NXV_FIND_MSB(lo));
}
NXV_FUNC int64_t nxv_count_leading_zeros(int64_t x, int bits) { return int64_t(nxv_count_leading_zeros(uint64_t(x), bits)); }
