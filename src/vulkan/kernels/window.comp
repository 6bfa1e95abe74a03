// OpCode::window_reduce: one invocation per output element folds its window, acc = op(acc, x) from the identity
// over the in-bounds elements in row-major window order (src/reference/window.cpp's order; padding is the
// identity and is skipped). The host collapses runs of axes without a window into one, leaving at most 4 axes
// (lib/window.glsl).
#version 450
#extension GL_GOOGLE_include_directive : require
#include "lib/common.glsl"
#include "lib/elementwise.glsl"
#include "lib/window.glsl"

layout(local_size_x = NXV_GROUP_SIZE) in;
layout(constant_id = 0) const int FN = 0;  // ReduceFn: sum, product, max, min

layout(std430, binding = 0) readonly buffer In { A_STORE x_data[]; };
layout(std430, binding = 1) writeonly buffer Out { A_STORE y_data[]; };

A_T identity() {
#if defined(A_IS_FLOAT)
  const A_T inf = A_T(uintBitsToFloat(0x7f800000u));
  return FN == 0 ? A_T(0) : FN == 1 ? A_T(1) : FN == 2 ? -inf : inf;
#else
  // pred is cast to u8 before it gets here (src/ops/window.cpp), so u8's range is the uint variant's.
  return FN == 0 ? A_T(0) : FN == 1 ? A_T(1) : FN == 2 ? A_LOWEST : A_HIGHEST;
#endif
}

A_T combine(A_T a, A_T b) {
  precise A_T r;
  if (FN == 0) r = a + b;
  else if (FN == 1) r = a * b;
  else if (FN == 2) r = nxv_max(a, b);
  else r = nxv_min(a, b);
  return r;
}

void main() {
  uint o = nxv_linear_index();
  if (o >= pc.count) return;
  int origin[4];
  window_origin(o, origin);
  uint xs[4];
  row_major_strides(xs);
  A_T acc = identity();
  for (uint k0 = 0u; k0 < pc.window[0]; ++k0) {
    int i0 = origin[0] + int(k0 * pc.dilation[0]);
    if (i0 < 0 || i0 >= int(pc.x_size[0])) continue;
    for (uint k1 = 0u; k1 < pc.window[1]; ++k1) {
      int i1 = origin[1] + int(k1 * pc.dilation[1]);
      if (i1 < 0 || i1 >= int(pc.x_size[1])) continue;
      for (uint k2 = 0u; k2 < pc.window[2]; ++k2) {
        int i2 = origin[2] + int(k2 * pc.dilation[2]);
        if (i2 < 0 || i2 >= int(pc.x_size[2])) continue;
        for (uint k3 = 0u; k3 < pc.window[3]; ++k3) {
          int i3 = origin[3] + int(k3 * pc.dilation[3]);
          if (i3 < 0 || i3 >= int(pc.x_size[3])) continue;
          uint at = uint(i0) * xs[0] + uint(i1) * xs[1] + uint(i2) * xs[2] + uint(i3);
          acc = combine(acc, A_LOAD(x_data[at]));
        }
      }
    }
  }
  y_data[o] = A_PACK(acc);
}
