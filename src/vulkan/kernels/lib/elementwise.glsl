// GLSL side of the shared elementwise helpers: spells the builtins the shared source needs, then includes the
// double-precision math library and shared/elementwise_helpers.glsl.h. The including shader must enable
// GL_GOOGLE_include_directive, GL_EXT_shader_explicit_arithmetic_types_int64 (and int8/8-bit storage if it uses them).
#ifndef NXV_LIB_ELEMENTWISE_GLSL
#define NXV_LIB_ELEMENTWISE_GLSL
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
#include "shared/elementwise_helpers.glsl.h"
#endif
