// OpCode::cholesky (CHOLESKY), triangular_solve (TRIANGULAR_SOLVE) and lu (LU) on f32/f64 matrices, one matrix per
// workgroup, worked on in place in the result buffer (global memory, `coherent`) with a workgroup barrier between
// the steps of the right-looking algorithms. Each element sees the operations of src/reference/linalg.cpp in the
// same order, every one `precise` (no fused multiply-add), division and square root correctly rounded
// (lib/ieee.glsl). The host (linalg.cpp) spreads the matrices over a 2-D
// grid of workgroups and the steps over dispatches ([begin, end) each, the state staying in the buffer): the first
// dispatch copies the input in, and no dispatch runs more loop iterations than a device may allow one invocation.
#version 450
#extension GL_GOOGLE_include_directive : require
#include "lib/common.glsl"
#include "lib/ieee.glsl"

#define GROUP 64u
layout(local_size_x = 64) in;

layout(std430, binding = 0) readonly buffer In { A_STORE a_data[]; };
#if defined(TRIANGULAR_SOLVE)
layout(std430, binding = 1) readonly buffer Rhs { A_STORE b_data[]; };
layout(std430, binding = 2) coherent buffer Out { A_STORE y[]; };
layout(constant_id = 0) const int LEFT_SIDE = 1;
layout(constant_id = 1) const int LOWER = 1;
layout(constant_id = 2) const int TRANSPOSE_A = 0;
layout(constant_id = 3) const int UNIT_DIAGONAL = 0;
#else
layout(std430, binding = 1) coherent buffer Out { A_STORE y[]; };
#endif

layout(push_constant) uniform Push {
  uint matrices;
  uint n;     // a's order
  uint rows;  // b's rows and columns (triangular_solve)
  uint cols;
  uint begin;  // the steps of this dispatch
  uint end;
  uint flags;  // 1: copy the input in first; 2: tidy up after (linalg.cpp's kCopyIn, kTidyUp)
} pc;

// Every invocation's buffer (and shared) writes visible to the whole workgroup before any goes on.
void sync() {
  memoryBarrierBuffer();
  memoryBarrierShared();
  barrier();
}

#if defined(CHOLESKY)
void main() {
  uint m = nxv_linear_group();
  if (m >= pc.matrices) return;  // the whole workgroup: barriers stay uniform
  uint n = pc.n, lid = gl_LocalInvocationID.x, base = m * n * n;
  if ((pc.flags & 1u) != 0u) {  // the copy-in
    for (uint e = lid; e < n * n; e += GROUP) y[base + e] = e / n >= e % n ? a_data[base + e] : A_STORE(0);
    sync();
  }
  for (uint j = pc.begin; j < pc.end; ++j) {
    uint jj = base + j * n + j;
    if (lid == 0u) y[jj] = nxv_ieee_sqrt(y[jj]);
    sync();
    A_T d = y[jj];
    for (uint i = j + 1u + lid; i < n; i += GROUP) {
      A_T q = nxv_ieee_divide(y[base + i * n + j], d);
      y[base + i * n + j] = q;
    }
    sync();
    // The trailing lower triangle: y_ik -= y_ij y_kj for j < k <= i.
    uint rest = n - 1u - j;
    for (uint e = lid; e < rest * rest; e += GROUP) {
      uint i = j + 1u + e / rest, k = j + 1u + e % rest;
      if (k > i) continue;
      precise A_T r = y[base + i * n + k] - y[base + i * n + j] * y[base + k * n + j];
      y[base + i * n + k] = r;
    }
    sync();
  }
}
#endif

#if defined(TRIANGULAR_SOLVE)
// As the reference: the system is m x = b, m = op(a) (left side, one solve per column of b) or op(a)ᵀ (right
// side, one per row of b); m is lower when exactly one of LOWER's opposite, TRANSPOSE_A and the right side flips it.
const bool FLIP = (TRANSPOSE_A == 1) != (LEFT_SIDE == 0);
const bool M_LOWER = (LOWER == 1) != FLIP;

void main() {
  uint m = nxv_linear_group();
  if (m >= pc.matrices) return;
  uint n = pc.n, lid = gl_LocalInvocationID.x;
  uint a_base = m * n * n, base = m * pc.rows * pc.cols;
  uint vectors = LEFT_SIDE == 1 ? pc.cols : pc.rows;
  // Element j of solution vector v: x[j, v] (left side) or x[v, j] (right side).
  uint vector_step = LEFT_SIDE == 1 ? 1u : pc.cols, element_step = LEFT_SIDE == 1 ? pc.cols : 1u;
  if ((pc.flags & 1u) != 0u) {  // the copy-in
    for (uint e = lid; e < pc.rows * pc.cols; e += GROUP) y[base + e] = b_data[base + e];
    sync();
  }
  for (uint t = pc.begin; t < pc.end; ++t) {
    uint j = M_LOWER ? t : n - 1u - t;
    if (UNIT_DIAGONAL == 0) {
      A_T d = a_data[a_base + j * n + j];
      for (uint v = lid; v < vectors; v += GROUP) {
        uint at = base + v * vector_step + j * element_step;
        A_T q = nxv_ieee_divide(y[at], d);
        y[at] = q;
      }
      sync();
    }
    // The elements not final yet lose m(p, j) x_j.
    uint rest = n - 1u - t;
    for (uint e = lid; e < vectors * rest; e += GROUP) {
      uint v = e / rest, q = e % rest;
      uint p = M_LOWER ? j + 1u + q : q;
      A_T mpj = FLIP ? a_data[a_base + j * n + p] : a_data[a_base + p * n + j];
      uint at = base + v * vector_step + p * element_step;
      precise A_T r = y[at] - mpj * y[base + v * vector_step + j * element_step];
      y[at] = r;
    }
    sync();
  }
}
#endif

#if defined(LU)
shared uint pivot_row;

void main() {
  uint m = nxv_linear_group();
  if (m >= pc.matrices) return;
  uint n = pc.n, lid = gl_LocalInvocationID.x, width = n + 2u;
  uint a_base = m * n * n, base = m * n * width;
  if ((pc.flags & 1u) != 0u) {  // the copy-in
    for (uint e = lid; e < n * n; e += GROUP) y[base + (e / n) * width + e % n] = a_data[a_base + e];
    for (uint i = lid; i < n; i += GROUP) y[base + i * width + n] = A_STORE(i);  // the permutation, as floats
    sync();
  }
  for (uint j = pc.begin; j < pc.end; ++j) {
    // The pivot: the first row of the largest |f_ij|, i >= j (one invocation: the reference's comparisons exactly).
    if (lid == 0u) {
      uint p = j;
      for (uint i = j + 1u; i < n; ++i)
        if (abs(y[base + i * width + j]) > abs(y[base + p * width + j])) p = i;
      y[base + j * width + n + 1u] = A_STORE(p);
      pivot_row = p;
    }
    sync();
    uint p = pivot_row;
    if (p != j)
      for (uint c = lid; c <= n; c += GROUP) {  // the whole rows and their permutation entries
        A_T t = y[base + j * width + c];
        y[base + j * width + c] = y[base + p * width + c];
        y[base + p * width + c] = t;
      }
    sync();
    A_T pivot = y[base + j * width + j];
    if (pivot != A_T(0))
      for (uint i = j + 1u + lid; i < n; i += GROUP) {
        A_T q = nxv_ieee_divide(y[base + i * width + j], pivot);
        y[base + i * width + j] = q;
      }
    sync();
    uint rest = n - 1u - j;
    for (uint e = lid; e < rest * rest; e += GROUP) {
      uint i = j + 1u + e / rest, c = j + 1u + e % rest;
      precise A_T r = y[base + i * width + c] - y[base + i * width + j] * y[base + j * width + c];
      y[base + i * width + c] = r;
    }
    sync();
  }
}
#endif
