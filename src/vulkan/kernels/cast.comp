// OpCode::cast from A to OUT (one variant per (source, destination) pair, kernels.cmake).
// float→int truncates toward zero with NaN→0 and saturation (GLSL leaves out-of-range conversions undefined,
// so they are clamped here first); int→float and f64→f32 round to nearest even (Vulkan's correctly rounded
// conversions); int→int wraps; anything→pred is x != 0 (NaN → 1); pred→anything converts its byte (0/1).
// The rules are reference/dtype_dispatch.hpp's convert() and to_pred().
#version 450
#extension GL_GOOGLE_include_directive : require
#include "lib/common.glsl"

layout(local_size_x = NXV_GROUP_SIZE) in;
layout(std430, binding = 0) readonly buffer In { A_STORE x_data[]; };
layout(std430, binding = 1) writeonly buffer Out { OUT_STORE y_data[]; };
layout(push_constant) uniform Push { uint count; } pc;

OUT_T convert(A_T x) {
#if defined(OUT_PRED)
  return nxv_nonzero(x);
#elif defined(A_IS_FLOAT) && (defined(OUT_IS_INT) || defined(OUT_IS_UINT))
  // Bounds: 2^(bits-1) (signed) or 2^bits (unsigned), exact in both float types; values between the type's end and
  // the bound truncate to that end anyway.
#if defined(OUT_IS_INT)
  const A_T high = ldexp(A_T(1), OUT_BITS - 1), low = -high;
#else
  const A_T high = ldexp(A_T(1), OUT_BITS), low = A_T(0);
#endif
  if (isnan(x)) return OUT_T(0);
  if (x >= high) return OUT_HIGHEST;
  if (x <= low) return OUT_LOWEST;
  return OUT_T(x);
#elif defined(A_IS_INT) && defined(OUT_U64)
  // Sign-extend to 64 bits first (src/vulkan/fusion/codegen.cpp's convert_body says why).
  return uint64_t(int64_t(x));
#else
  // int→int (wraps: the store truncates to OUT_STORE), int→float and float→float.
  return OUT_T(x);
#endif
}

void main() {
  uint i = nxv_linear_index();
  if (i >= pc.count) return;
  y_data[i] = OUT_PACK(convert(A_LOAD(x_data[i])));
}
