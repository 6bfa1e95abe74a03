// OpCode::cumulative (FN = ReduceFn sum, product, max, min; REVERSE): x viewed as [outer, n, inner]; one
// invocation per line (o, in) folds sequentially along it, out[0] = x[0], out[j] = out[j-1] op x[j] -- the order
// reference/sort.cpp defines (floating-point sums and products depend on it).
#version 450
#extension GL_GOOGLE_include_directive : require
#include "lib/common.glsl"
#include "lib/elementwise.glsl"

layout(local_size_x = NXV_GROUP_SIZE) in;
layout(constant_id = 0) const int FN = 0;
layout(constant_id = 1) const int REVERSE = 0;

layout(std430, binding = 0) readonly buffer In { A_STORE x_data[]; };
layout(std430, binding = 1) writeonly buffer Out { A_STORE y_data[]; };
layout(push_constant) uniform Push {
  uint lines;  // outer * inner
  uint n;
  uint inner;
} pc;

A_T combine(A_T a, A_T b) {
  precise A_T r;
  if (FN == 0) r = a + b;
  else if (FN == 1) r = nxv_ieee_multiply(a, b);  // lib/elementwise.glsl: why
  else if (FN == 2) r = nxv_max(a, b);
  else r = nxv_min(a, b);
  return r;
}

void main() {
  uint line = nxv_linear_index();
  if (line >= pc.lines) return;
  uint base = (line / pc.inner) * pc.n * pc.inner + line % pc.inner;
  A_T acc = A_T(0);
  for (uint step = 0u; step < pc.n; ++step) {
    uint at = base + (REVERSE == 1 ? pc.n - 1u - step : step) * pc.inner;
    A_T v = A_LOAD(x_data[at]);
    acc = step == 0u ? v : combine(acc, v);
    y_data[at] = A_PACK(acc);
  }
}
