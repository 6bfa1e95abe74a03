// Elementwise ops of three broadcast inputs (lib/broadcast.glsl), both of one dtype T out:
//   SELECT: out = pred != 0 ? on_true : on_false  (binding 0 is pred, uint8_t)
//   CLIP:   out = nxv_min(nxv_max(x, low), high)
#version 450
#extension GL_GOOGLE_include_directive : require
#include "lib/common.glsl"
#ifdef CLIP
#include "lib/elementwise.glsl"
#endif
#include "lib/broadcast.glsl"

layout(local_size_x = NXV_GROUP_SIZE) in;
layout(constant_id = 0) const int KIND_0 = 0;
layout(constant_id = 1) const int KIND_1 = 0;
layout(constant_id = 2) const int KIND_2 = 0;

#ifdef SELECT
layout(std430, binding = 0) readonly buffer In0 { uint8_t p_data[]; };
#else
layout(std430, binding = 0) readonly buffer In0 { A_STORE x_data[]; };
#endif
layout(std430, binding = 1) readonly buffer In1 { A_STORE b_data[]; };
layout(std430, binding = 2) readonly buffer In2 { A_STORE c_data[]; };
layout(std430, binding = 3) writeonly buffer Out { A_STORE y_data[]; };
// 30 words (120 bytes): three inputs leave room for rank 7; the host materialises a rank-8 strided input.
layout(push_constant) uniform Push {
  uint count;
  uint rank;
  uint shape[7];
  uint stride_0[7];
  uint stride_1[7];
  uint stride_2[7];
} pc;

void main() {
  uint i = nxv_linear_index();
  if (i >= pc.count) return;
  uint i0, i1, i2;
  NXV_BROADCAST_OFFSETS(i, pc.rank, pc.shape, KIND_0, pc.stride_0, i0, KIND_1, pc.stride_1, i1, KIND_2,
                        pc.stride_2, i2);
#ifdef SELECT
  y_data[i] = uint(p_data[i0]) != 0u ? b_data[i1] : c_data[i2];
#else
  precise A_T r = nxv_min(nxv_max(A_LOAD(x_data[i0]), A_LOAD(b_data[i1])), A_LOAD(c_data[i2]));
  y_data[i] = A_PACK(r);
#endif
}
