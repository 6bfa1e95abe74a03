// OpCode::arg_reduce (FN 0 = argmax, 1 = argmin): the s64 index of the first maximum / minimum along one axis of
// a contiguous tensor viewed as [outer, reduced, inner] (inner = 1 and outer = 1 for the flattened tensor).
// NaN beats every number and ties go to the smaller index, so the comparison alone fixes the answer and the
// order of the scan does not matter: NXV_GROUP_SIZE lanes scan strided elements, then a shared-memory tree.
#version 450
#extension GL_GOOGLE_include_directive : require
#include "lib/common.glsl"

layout(local_size_x = NXV_GROUP_SIZE) in;
layout(constant_id = 0) const int FN = 0;
#define NONE 0xffffffffu

layout(std430, binding = 0) readonly buffer In { A_STORE x_data[]; };
// The s64 results as (low, high) word pairs: indices are below 2^32, and the kernel then needs no shaderInt64.
layout(std430, binding = 1) writeonly buffer Out { uvec2 y_data[]; };
layout(push_constant) uniform Push {
  uint outputs;  // outer * inner
  uint reduced;
  uint inner;
} pc;

shared A_T best_value[NXV_GROUP_SIZE];
shared uint best_index[NXV_GROUP_SIZE];

// Whether (x at i) beats the current best (v at j); NONE marks an empty lane.
bool beats(A_T x, uint i, A_T v, uint j) {
  if (i == NONE) return false;
  if (j == NONE) return true;
  bool xn = nxv_nan(x);
  bool vn = nxv_nan(v);
  if (xn || vn) return xn && (!vn || i < j);
  if (x == v) return i < j;
  return FN == 0 ? x > v : x < v;
}

void main() {
  uint o = nxv_linear_group();
  if (o >= pc.outputs) return;  // whole workgroups only
  uint lane = gl_LocalInvocationID.x;
  uint base = (o / pc.inner) * pc.reduced * pc.inner + o % pc.inner;
  A_T v = A_T(0);
  uint j = NONE;
  for (uint r = lane; r < pc.reduced; r += NXV_GROUP_SIZE) {
    A_T x = A_LOAD(x_data[base + r * pc.inner]);
    if (beats(x, r, v, j)) {
      v = x;
      j = r;
    }
  }
  best_value[lane] = v;
  best_index[lane] = j;
  barrier();
  for (uint s = NXV_GROUP_SIZE / 2u; s > 0u; s >>= 1) {
    if (lane < s && beats(best_value[lane + s], best_index[lane + s], best_value[lane], best_index[lane])) {
      best_value[lane] = best_value[lane + s];
      best_index[lane] = best_index[lane + s];
    }
    barrier();
  }
  if (lane == 0u) y_data[o] = uvec2(best_index[0] == NONE ? 0u : best_index[0], 0u);
}
