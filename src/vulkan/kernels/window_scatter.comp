// OpCode::window_scatter (pooling's backward pass) in two deterministic passes, no atomics:
//  SELECT:  one invocation per window writes the x index of its last maximum (minimum) in row-major window
//           order (Nx's tie rule) -- replaced by any greater (less) or equal element, a NaN beating every number,
//           so the last NaN wins -- or 0xffffffff when the window is all padding.
//  SCATTER: one invocation per x element: acc = init, then acc = acc + source[w] for every window w that covers
//           the element and selected it, in increasing (row-major) window order -- the order in which
//           src/reference/window.cpp's scatter loop adds them.
#version 450
#extension GL_GOOGLE_include_directive : require
#include "lib/common.glsl"
#include "lib/window.glsl"

layout(local_size_x = NXV_GROUP_SIZE) in;
layout(constant_id = 0) const int FN = 2;  // ReduceFn: max (2) or min (3)

#ifdef SELECT
layout(std430, binding = 0) readonly buffer In { A_STORE x_data[]; };
layout(std430, binding = 1) writeonly buffer Selected { uint selected[]; };

void main() {
  uint o = nxv_linear_index();
  if (o >= pc.count) return;
  int origin[4];
  window_origin(o, origin);
  uint xs[4];
  row_major_strides(xs);
  uint chosen = 0xffffffffu;
  A_T best = A_T(0);
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
          A_T v = A_LOAD(x_data[at]);
          bool at_least = FN == 2 ? v >= best : v <= best;
          if (chosen == 0xffffffffu || nxv_nan(v) || (!nxv_nan(best) && at_least)) {
            chosen = at;
            best = v;
          }
        }
      }
    }
  }
  selected[o] = chosen;
}
#else
layout(std430, binding = 0) readonly buffer Selected { uint selected[]; };
layout(std430, binding = 1) readonly buffer Source { A_STORE source[]; };
layout(std430, binding = 2) readonly buffer Init { A_STORE init[]; };
layout(std430, binding = 3) writeonly buffer Out { A_STORE y_data[]; };

// The windows along axis d that cover coordinate i, in increasing order: kernel offsets k from the last down,
// each giving window (i + low - k * dilation) / stride when that divides and is in range.
int covering_window(int d, int i, uint k) {
  int q = i + pc.low[d] - int(k * pc.dilation[d]);
  if (q < 0 || uint(q) % pc.stride[d] != 0u) return -1;
  uint w = uint(q) / pc.stride[d];
  return w < pc.out_size[d] ? int(w) : -1;
}

void main() {
  uint x = nxv_linear_index();
  if (x >= pc.count) return;
  int coord[4];
  uint rest = x;
  for (int d = 3; d >= 0; --d) {
    coord[d] = int(rest % pc.x_size[d]);
    rest /= pc.x_size[d];
  }
  A_T acc = A_LOAD(init[0]);
  for (uint k0 = pc.window[0]; k0-- > 0u;) {
    int w0 = covering_window(0, coord[0], k0);
    if (w0 < 0) continue;
    for (uint k1 = pc.window[1]; k1-- > 0u;) {
      int w1 = covering_window(1, coord[1], k1);
      if (w1 < 0) continue;
      for (uint k2 = pc.window[2]; k2-- > 0u;) {
        int w2 = covering_window(2, coord[2], k2);
        if (w2 < 0) continue;
        for (uint k3 = pc.window[3]; k3-- > 0u;) {
          int w3 = covering_window(3, coord[3], k3);
          if (w3 < 0) continue;
          uint w = ((uint(w0) * pc.out_size[1] + uint(w1)) * pc.out_size[2] + uint(w2)) * pc.out_size[3] + uint(w3);
          if (selected[w] == x) {
            precise A_T sum = acc + A_LOAD(source[w]);
            acc = sum;
          }
        }
      }
    }
  }
  y_data[x] = A_PACK(acc);
}
#endif
