// OpCode::dot for small outputs (dot.cpp's size rule: fewer than a few 64 x 64 tiles, e.g. a dense layer at batch
// 32): one invocation per output and no shared memory or barriers, so that the many workgroups of a small output
// wait on loads in parallel instead of two workgroups walking K slab by slab. The loads of KB terms are issued
// before they are added. Every output is acc = acc + a_k * b_k for k = 0, 1, ..., K-1 in order, the product and
// the sum each rounded (`precise`), exactly dot.comp's and the reference backend's loop.
#version 450
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_control_flow_attributes : require
#include "lib/common.glsl"

layout(local_size_x = 64) in;
#define KB 8u

layout(std430, binding = 0) readonly buffer InA { A_STORE a_data[]; };
layout(std430, binding = 1) readonly buffer InB { A_STORE b_data[]; };
layout(std430, binding = 2) writeonly buffer Out { A_STORE y_data[]; };
layout(push_constant) uniform Push {
  uint m, n, k;
  uint batch_base;  // the host splits more than 65535 batches over several dispatches
  uint a_batch, a_m, a_k;
  uint b_batch, b_k, b_n;
} pc;

void main() {
  uint batch = pc.batch_base + gl_WorkGroupID.z;
  uint index = gl_WorkGroupID.x * 64u + gl_LocalInvocationID.x;  // row-major in the [m, n] output
  if (index >= pc.m * pc.n) return;
  uint a_at = batch * pc.a_batch + (index / pc.n) * pc.a_m;
  uint b_at = batch * pc.b_batch + (index % pc.n) * pc.b_n;
  A_T acc = A_T(0);
  for (uint k0 = 0u; k0 < pc.k; k0 += KB) {
    A_T a[KB];
    A_T b[KB];
    [[unroll]] for (uint t = 0u; t < KB; ++t) {
      uint kk = min(k0 + t, pc.k - 1u);  // past K: a valid load whose product is not added
      a[t] = A_T(a_data[a_at + kk * pc.a_k]);
      b[t] = A_T(b_data[b_at + kk * pc.b_k]);
    }
    [[unroll]] for (uint t = 0u; t < KB; ++t) {
      if (k0 + t >= pc.k) break;
      precise A_T r = acc + a[t] * b[t];
      acc = r;
    }
  }
  y_data[batch * pc.m * pc.n + index] = A_STORE(acc);
}
