// OpCode::gather: x viewed as [rows, window] with rows over its leading k axes (dims[0..k)), indices as [batch, k],
// the output as [batch, window]: out[b, w] = x[row(clamped indices[b, :]), w]. Byte moves: ELEM_* x IDX_* variants.
#version 450
#extension GL_GOOGLE_include_directive : require
#include "lib/common.glsl"
#include "lib/elem.glsl"
#include "lib/index.glsl"

layout(local_size_x = NXV_GROUP_SIZE) in;

layout(std430, binding = 0) readonly buffer In { E x_data[]; };
layout(std430, binding = 1) readonly buffer Indices { IDX_STORE idx_data[]; };
layout(std430, binding = 2) writeonly buffer Out { E y_data[]; };
layout(push_constant) uniform Push {
  uint total;   // output elements
  uint window;  // >= 1 when total > 0
  uint k;
  uint dims[8];
} pc;

void main() {
  uint i = nxv_linear_index();
  if (i >= pc.total) return;
  uint b = i / pc.window;
  uint row = 0u;
  for (uint d = 0u; d < pc.k; ++d) row = row * pc.dims[d] + nxv_clamp_index(idx_data[b * pc.k + d], pc.dims[d]);
  y_data[i] = x_data[row * pc.window + i % pc.window];
}
