// OpCode::put_slice: out = x with `slice` written at `starts` (clamped by the front end, so it fits). One pass over
// the output: each element reads the slice inside the window and x outside it. Byte moves: ELEM_* variants.
#version 450
#extension GL_GOOGLE_include_directive : require
#include "lib/common.glsl"
#include "lib/elem.glsl"

layout(local_size_x = NXV_GROUP_SIZE) in;

layout(std430, binding = 0) readonly buffer In { E x_data[]; };
layout(std430, binding = 1) readonly buffer Slice { E s_data[]; };
layout(std430, binding = 2) writeonly buffer Out { E y_data[]; };
// 26 words (104 bytes).
layout(push_constant) uniform Push {
  uint total;
  uint rank;
  uint shape[8];  // x's
  uint starts[8];
  uint slice_shape[8];
} pc;

void main() {
  uint i = nxv_linear_index();
  if (i >= pc.total) return;
  uint rest = i;
  uint s = 0u;
  uint s_stride = 1u;
  bool inside = true;
  for (int d = int(pc.rank) - 1; d >= 0; --d) {
    uint c = rest % pc.shape[d];
    rest /= pc.shape[d];
    inside = inside && c >= pc.starts[d] && c - pc.starts[d] < pc.slice_shape[d];
    s += (c - pc.starts[d]) * s_stride;
    s_stride *= pc.slice_shape[d];
  }
  if (inside)
    y_data[i] = s_data[s];
  else
    y_data[i] = x_data[i];
}
