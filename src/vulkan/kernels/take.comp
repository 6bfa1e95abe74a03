// OpCode::take and OpCode::take_along_axis: x viewed as [outer, n, inner], the output as [outer, count, inner];
// output element (o, j, in) = x[o, clamp(index), in], where the index is indices[j] (take) or the element of
// indices at the output's own position (take_along_axis, ALONG = 1). Byte moves: ELEM_* x IDX_* variants.
#version 450
#extension GL_GOOGLE_include_directive : require
#include "lib/common.glsl"
#include "lib/elem.glsl"
#include "lib/index.glsl"

layout(local_size_x = NXV_GROUP_SIZE) in;
layout(constant_id = 0) const int ALONG = 0;

layout(std430, binding = 0) readonly buffer In { E x_data[]; };
layout(std430, binding = 1) readonly buffer Indices { IDX_STORE idx_data[]; };
layout(std430, binding = 2) writeonly buffer Out { E y_data[]; };
layout(push_constant) uniform Push {
  uint total;  // output elements
  uint n;      // x's length along the axis (>= 1 when total > 0)
  uint count;  // the output's length along the axis
  uint inner;
} pc;

void main() {
  uint i = nxv_linear_index();
  if (i >= pc.total) return;
  uint in_ = i % pc.inner;
  uint j = (i / pc.inner) % pc.count;
  uint o = i / (pc.inner * pc.count);
  uint at = nxv_clamp_index(idx_data[ALONG == 1 ? i : j], pc.n);
  y_data[i] = x_data[(o * pc.n + at) * pc.inner + in_];
}
