// The second pass of a split conv (conv.comp with SPLIT): out[i] = partials[0][i] + partials[1][i] + ... added in
// chunk order, each sum rounded (`precise`), which is how include/nxv/conv.hpp adds the chunk sums.
#version 450
#extension GL_GOOGLE_include_directive : require
#include "lib/common.glsl"

layout(local_size_x = NXV_GROUP_SIZE) in;
layout(std430, binding = 0) readonly buffer Partials { A_STORE p_data[]; };
layout(std430, binding = 1) writeonly buffer Out { A_STORE y_data[]; };
layout(push_constant) uniform Push {
  uint outputs;
  uint chunks;
} pc;

void main() {
  uint i = nxv_linear_index();
  if (i >= pc.outputs) return;
  A_T total = A_LOAD(p_data[i]);
  for (uint c = 1u; c < pc.chunks; ++c) {
    precise A_T sum = total + A_LOAD(p_data[c * pc.outputs + i]);
    total = sum;
  }
  y_data[i] = A_PACK(total);
}
