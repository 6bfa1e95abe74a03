// GLSL side of the shared elementwise helpers: spells the builtins the shared source needs, then includes the
// double-precision math library and shared/elementwise_helpers.glsl.h. The including shader must enable
// GL_GOOGLE_include_directive, GL_EXT_shader_explicit_arithmetic_types_int64 (and int8/8-bit storage if it uses them).
#ifndef NXV_LIB_ELEMENTWISE_GLSL
#define NXV_LIB_ELEMENTWISE_GLSL
#include "lib/f32_exact.glsl"
#include "lib/math.glsl"

bool nxv_signbit(float x) { return floatBitsToInt(x) < 0; }
bool nxv_signbit(double x) { return unpackDouble2x32(x).y >= 0x80000000u; }
#define NXV_ISNAN(x) isnan(x)
#define NXV_ISINF(x) isinf(x)
#define NXV_FABS(x) abs(x)
#define NXV_FLOOR(x) floor(x)
#define NXV_CEIL(x) ceil(x)
#define NXV_SQRT(x) sqrt(x)
#define NXV_SIGNBIT(x) nxv_signbit(x)
#define NXV_DIVIDE_F32(a, b) nxv_cr_divide(a, b)
#define NXV_SQRT_F32(x) nxv_cr_sqrt(x)
#define NXV_BIT_COUNT(x) bitCount(x)
#define NXV_FIND_MSB(x) findMSB(x)
#define NXV_F32_BITS(x) floatBitsToUint(x)
#define NXV_F32_FROM_BITS(u) uintBitsToFloat(u)
#include "shared/elementwise_helpers.glsl.h"

// The running products of product and cumulative_product (reduce.comp, cumulative.comp and the fusion compiler's
// reductions): a * b rounded as IEEE binary32, denormal operands and results included, also on devices that flush
// f32 denormals (NVIDIA reports shaderDenormPreserveFloat32 = false and flushes every f32 multiply). There a
// partial product such as 1e-20 * 1e-20 became 0 and the next factor -inf made NaN where the reference gives
// -inf. The f64 product of two f32 values is exact (24 + 24 significant bits), a normal result is rounded once by
// the conversion, and a denormal result is rounded to its 2^-149 multiple by hand, in bits that no f32 arithmetic
// touches again: the next step reads them back exactly. Other dtypes multiply as usual.
double nxv_f32_exactly(float x) {
  uint u = floatBitsToUint(x);
  if ((u & 0x7f800000u) != 0u || (u & 0x007fffffu) == 0u) return double(x);  // normal, zero, inf, NaN
  precise double m = double(u & 0x007fffffu) * 1.4012984643248170709e-45lf;   // mantissa * 2^-149, exact
  precise double negative = -m;
  return (u & 0x80000000u) != 0u ? negative : m;
}
float nxv_ieee_multiply(float a, float b) {
  if (!NXV_DEVICE_F64) return nxv_cr_multiply_bits(a, b);  // the same bits from integer arithmetic (f32_exact.glsl)
  precise double p = nxv_f32_exactly(a) * nxv_f32_exactly(b);
  if (!(abs(p) < 1.1754943508222875080e-38lf)) return float(p);  // normal (rounded once), inf or NaN
  precise double scaled = abs(p) * 7.1362384635297994e+44lf;     // 2^149: the result in units of 2^-149
  uint magnitude = uint(roundEven(scaled));                       // ties to even, as IEEE rounds
  return uintBitsToFloat(magnitude | (nxv_signbit(p) ? 0x80000000u : 0u));
}
double nxv_ieee_multiply(double a, double b) { precise double r = a * b; return r; }
int nxv_ieee_multiply(int a, int b) { return a * b; }
int64_t nxv_ieee_multiply(int64_t a, int64_t b) { return a * b; }
uint nxv_ieee_multiply(uint a, uint b) { return a * b; }
uint64_t nxv_ieee_multiply(uint64_t a, uint64_t b) { return a * b; }
#endif
