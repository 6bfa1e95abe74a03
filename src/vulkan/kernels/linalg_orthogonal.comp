// OpCode::qr (QR), eigh (EIGH) and svd (SVD) on f32/f64 matrices, one matrix per workgroup, worked on in place in the packed
// result (layouts in src/ops/op.hpp) with a workgroup barrier between steps: Householder QR and round-robin cyclic
// Jacobi, each element seeing the operations of src/reference/linalg_orthogonal.cpp in the same order (`precise`,
// no fused multiply-add). A step's scalar work (a column norm, the rotations) is one invocation's, as in the
// reference (division and square root correctly rounded: lib/ieee.glsl); the row and column updates are spread
// over the workgroup. As in linalg.comp, the host spreads the
// steps over dispatches ([begin, end) each): the first copies the input in, the last (qr) tidies the result up.
#version 450
#extension GL_GOOGLE_include_directive : require
#include "lib/common.glsl"
#include "lib/ieee.glsl"

#define GROUP 64u
layout(local_size_x = 64) in;

layout(std430, binding = 0) readonly buffer In { A_STORE a_data[]; };
layout(std430, binding = 1) coherent buffer Out { A_STORE y[]; };

layout(push_constant) uniform Push {
  uint matrices;
  uint m;  // rows (eigh: the order n)
  uint n;  // columns
  uint q;  // Q's columns (qr)
  uint begin;  // the steps of this dispatch: qr's 2 min(m, n) (R's columns, then Q's), eigh's sweeps x steps
  uint end;
  uint flags;  // 1: copy the input in first; 2: tidy up after (linalg.cpp's kCopyIn, kTidyUp)
} pc;

void sync() {
  memoryBarrierBuffer();
  memoryBarrierShared();
  barrier();
}

#if defined(QR)
shared A_T step_tau;

void main() {
  uint mat = nxv_linear_group();
  if (mat >= pc.matrices) return;
  uint m = pc.m, n = pc.n, q = pc.q, lid = gl_LocalInvocationID.x;
  uint width = q + n, k = min(m, n);
  uint base = mat * (m + 1u) * width, a_base = mat * m * n;
  uint r0 = base + q;  // R(i, c) = y[r0 + i * width + c]; Q(i, c) = y[base + i * width + c]; tau = row m
  if ((pc.flags & 1u) != 0u) {  // the copy-in
    for (uint e = lid; e < m * n; e += GROUP) y[r0 + (e / n) * width + e % n] = a_data[a_base + e];
    for (uint e = lid; e < m * q; e += GROUP)
      y[base + (e / q) * width + e % q] = e / q == e % q ? A_STORE(1) : A_STORE(0);
    sync();
  }
  for (uint g = pc.begin; g < pc.end; ++g) {
    if (g < k) {  // R's column j: its reflector, then applied to the columns right of it
      uint j = g;
      if (lid == 0u) {
        A_T alpha = y[r0 + j * width + j];
        precise A_T below = A_T(0);
        for (uint i = j + 1u; i < m; ++i) {
          A_T x = y[r0 + i * width + j];
          precise A_T sq = x * x;
          below = below + sq;
        }
        precise A_T t = A_T(0);
        if (below != A_T(0)) {
          precise A_T square = alpha * alpha + below;
          A_T norm = nxv_ieee_sqrt(square);
          A_T beta = alpha >= A_T(0) ? -norm : norm;
          precise A_T gap = beta - alpha;
          t = nxv_ieee_divide(gap, beta);
          precise A_T scale = alpha - beta;
          for (uint i = j + 1u; i < m; ++i) y[r0 + i * width + j] = nxv_ieee_divide(y[r0 + i * width + j], scale);
          y[r0 + j * width + j] = beta;
        }
        y[base + m * width + j] = t;
        step_tau = t;
      }
      sync();
      A_T t = step_tau;
      for (uint c = j + 1u + lid; c < n; c += GROUP) {
        precise A_T w = y[r0 + j * width + c];
        for (uint i = j + 1u; i < m; ++i) w = w + y[r0 + i * width + j] * y[r0 + i * width + c];
        precise A_T tw = t * w;
        y[r0 + j * width + c] = y[r0 + j * width + c] - tw;
        for (uint i = j + 1u; i < m; ++i) {
          precise A_T r = y[r0 + i * width + c] - y[r0 + i * width + j] * tw;
          y[r0 + i * width + c] = r;
        }
      }
    } else {  // Q = H_0 ... H_{k-1} I, reflector j = 2k - 1 - g applied to Q's columns from j on
      uint j = 2u * k - 1u - g;
      A_T t = y[base + m * width + j];
      for (uint c = j + lid; c < q; c += GROUP) {
        precise A_T w = y[base + j * width + c];
        for (uint i = j + 1u; i < m; ++i) w = w + y[r0 + i * width + j] * y[base + i * width + c];
        precise A_T tw = t * w;
        y[base + j * width + c] = y[base + j * width + c] - tw;
        for (uint i = j + 1u; i < m; ++i) {
          precise A_T r = y[base + i * width + c] - y[r0 + i * width + j] * tw;
          y[base + i * width + c] = r;
        }
      }
    }
    sync();
  }
  if ((pc.flags & 2u) != 0u) {  // the tidying up: zeros below R's diagonal (where the reflectors were) and after tau
    for (uint e = lid; e < m * n; e += GROUP)
      if (e / n > e % n) y[r0 + (e / n) * width + e % n] = A_STORE(0);
    for (uint c = k + lid; c < width; c += GROUP) y[base + m * width + c] = A_STORE(0);
  }
}
#endif

#if defined(EIGH) || defined(SVD)
#if defined(A_F64)
const A_T EPSILON = 2.220446049250313e-16lf;
#else
const A_T EPSILON = 1.1920928955078125e-7;
#endif

// The reference's jacobi_rotation: (c, s) zeroing apq of [[app, apq], [apq, aqq]]; false (and c = 1, s = 0) where
// |apq| is negligible against the diagonal. Every step as the reference's, one rounding each.
bool jacobi_rotation(A_T app, A_T aqq, A_T apq, out A_T c, out A_T s) {
  c = A_T(1);
  s = A_T(0);
  A_T root_p = nxv_ieee_sqrt(abs(app)), root_q = nxv_ieee_sqrt(abs(aqq));
  precise A_T bound = EPSILON * root_p * root_q;
  if (!(abs(apq) > bound)) return false;
  precise A_T diff = aqq - app;
  precise A_T twice = apq + apq;
  A_T theta = nxv_ieee_divide(diff, twice);
  precise A_T theta_square = theta * theta + A_T(1);
  precise A_T hypotenuse = abs(theta) + nxv_ieee_sqrt(theta_square);
  A_T t = nxv_ieee_divide(theta >= A_T(0) ? A_T(1) : A_T(-1), hypotenuse);
  precise A_T t_square = t * t + A_T(1);
  A_T cc = nxv_ieee_divide(A_T(1), nxv_ieee_sqrt(t_square));
  precise A_T ss = t * cc;
  c = cc;
  s = ss;
  return true;
}

// Pair i of round-robin step `step` (the reference's round_robin_pair).
uvec2 pair_of(uint players, uint step, uint i) {
  uint p = i == 0u ? 0u : 1u + (i - 1u + step) % (players - 1u);
  uint j = players - 1u - i;
  uint q = j == 0u ? 0u : 1u + (j - 1u + step) % (players - 1u);
  return p < q ? uvec2(p, q) : uvec2(q, p);
}
#endif

#if defined(EIGH)
void main() {
  uint mat = nxv_linear_group();
  if (mat >= pc.matrices) return;
  uint n = pc.m, lid = gl_LocalInvocationID.x;
  uint base = mat * (2u * n + 2u) * n, a_base = mat * n * n;
  uint v0 = base, w0 = base + n * n, c0 = base + 2u * n * n, s0 = c0 + n;
  // Two flags after the rotations' slots (pairs <= n - 1 for n >= 2; the host runs no step for n < 2):
  // y[c0 + n - 1], whether the current sweep rotated, and y[s0 + n - 1], whether the sweeps are over.
  uint current = c0 + n - 1u, done = s0 + n - 1u;
  if ((pc.flags & 1u) != 0u) {  // the copy-in
    for (uint e = lid; e < n * n; e += GROUP) {
      uint i = e / n, c = e % n;
      y[w0 + e] = i >= c ? a_data[a_base + e] : a_data[a_base + c * n + i];
      y[v0 + e] = i == c ? A_STORE(1) : A_STORE(0);
    }
    if (lid == 0u && n >= 2u) {
      y[current] = A_STORE(0);
      y[done] = A_STORE(0);
    }
    sync();
  }
  uint players = n + n % 2u, pairs = players / 2u, steps = players - 1u;
  for (uint g = pc.begin; g < pc.end; ++g) {
    if (y[done] != A_T(0)) break;  // uniform: written before the barrier that ended the last step
    uint sweep = g / steps, step = g % steps;
    if (step == 0u && sweep > 0u) {  // a sweep that rotated nothing ends them
      bool converged = y[current] == A_T(0);
      sync();  // every invocation has read it before it changes
      if (converged) {
        if (lid == 0u) y[done] = A_STORE(1);
        break;
      }
      if (lid == 0u) y[current] = A_STORE(0);
      sync();
    }
    for (uint i = lid; i < pairs; i += GROUP) {
      uvec2 pq = pair_of(players, step, i);
      A_T c = A_T(1), s = A_T(0);
      if (pq.y < n) {
        A_T app = y[w0 + pq.x * n + pq.x], aqq = y[w0 + pq.y * n + pq.y], apq = y[w0 + pq.x * n + pq.y];
        if (jacobi_rotation(app, aqq, apq, c, s)) y[current] = A_STORE(1);
      }
      y[c0 + i] = c;
      y[s0 + i] = s;
    }
    sync();
    for (uint e = lid; e < pairs * n; e += GROUP) {  // rows p and q of A
      uint i = e / n, k = e % n;
      A_T c = y[c0 + i], s = y[s0 + i];
      if (s == A_T(0)) continue;
      uvec2 pq = pair_of(players, step, i);
      A_T ap = y[w0 + pq.x * n + k], aq = y[w0 + pq.y * n + k];
      precise A_T np = c * ap - s * aq;
      precise A_T nq = s * ap + c * aq;
      y[w0 + pq.x * n + k] = np;
      y[w0 + pq.y * n + k] = nq;
    }
    sync();
    for (uint e = lid; e < pairs * n; e += GROUP) {  // columns p and q of A and V
      uint i = e / n, k = e % n;
      A_T c = y[c0 + i], s = y[s0 + i];
      if (s == A_T(0)) continue;
      uvec2 pq = pair_of(players, step, i);
      A_T ap = y[w0 + k * n + pq.x], aq = y[w0 + k * n + pq.y];
      precise A_T np = c * ap - s * aq;
      precise A_T nq = s * ap + c * aq;
      y[w0 + k * n + pq.x] = k == pq.y ? A_STORE(0) : np;
      y[w0 + k * n + pq.y] = k == pq.x ? A_STORE(0) : nq;
      A_T vp = y[v0 + k * n + pq.x], vq = y[v0 + k * n + pq.y];
      precise A_T nvp = c * vp - s * vq;
      precise A_T nvq = s * vp + c * vq;
      y[v0 + k * n + pq.x] = nvp;
      y[v0 + k * n + pq.y] = nvq;
    }
    sync();
  }
}
#endif

#if defined(SVD)
// One-sided Jacobi (the reference's svd_one): W (rows 0..m-1) starts as a copy of a, V (rows m..m+n-1) as I; each
// round-robin step rotates column pairs of both; the tidying up puts the column norms in row m + n and divides W's
// columns by them.
void main() {
  uint mat = nxv_linear_group();
  if (mat >= pc.matrices) return;
  uint m = pc.m, n = pc.n, lid = gl_LocalInvocationID.x;
  uint base = mat * (m + n + 2u) * n, a_base = mat * m * n;
  uint c0 = base + (m + n) * n, s0 = c0 + n;
  uint current = c0 + n - 1u, done = s0 + n - 1u;  // as eigh's flags
  if ((pc.flags & 1u) != 0u) {  // the copy-in
    for (uint e = lid; e < m * n; e += GROUP) y[base + e] = a_data[a_base + e];
    for (uint e = lid; e < n * n; e += GROUP) y[base + m * n + e] = e / n == e % n ? A_STORE(1) : A_STORE(0);
    if (lid == 0u && n >= 2u) {
      y[current] = A_STORE(0);
      y[done] = A_STORE(0);
    }
    sync();
  }
  uint players = n + n % 2u, pairs = players / 2u, steps = players - 1u;
  for (uint g = pc.begin; g < pc.end; ++g) {
    if (y[done] != A_T(0)) break;
    uint sweep = g / steps, step = g % steps;
    if (step == 0u && sweep > 0u) {
      bool converged = y[current] == A_T(0);
      sync();
      if (converged) {
        if (lid == 0u) y[done] = A_STORE(1);
        break;
      }
      if (lid == 0u) y[current] = A_STORE(0);
      sync();
    }
    for (uint i = lid; i < pairs; i += GROUP) {
      uvec2 pq = pair_of(players, step, i);
      A_T c = A_T(1), s = A_T(0);
      if (pq.y < n) {
        precise A_T alpha = A_T(0), beta = A_T(0), gamma = A_T(0);
        for (uint k = 0u; k < m; ++k) {
          A_T wp = y[base + k * n + pq.x], wq = y[base + k * n + pq.y];
          alpha = alpha + wp * wp;
          beta = beta + wq * wq;
          gamma = gamma + wp * wq;
        }
        if (jacobi_rotation(alpha, beta, gamma, c, s)) y[current] = A_STORE(1);
      }
      y[c0 + i] = c;
      y[s0 + i] = s;
    }
    sync();
    for (uint e = lid; e < pairs * (m + n); e += GROUP) {  // columns p and q of W and V
      uint i = e / (m + n), k = e % (m + n);
      A_T c = y[c0 + i], s = y[s0 + i];
      if (s == A_T(0)) continue;
      uvec2 pq = pair_of(players, step, i);
      A_T xp = y[base + k * n + pq.x], xq = y[base + k * n + pq.y];
      precise A_T np = c * xp - s * xq;
      precise A_T nq = s * xp + c * xq;
      y[base + k * n + pq.x] = np;
      y[base + k * n + pq.y] = nq;
    }
    sync();
  }
  if ((pc.flags & 2u) != 0u) {  // the tidying up: singular values, then U
    sync();
    for (uint c = lid; c < n; c += GROUP) {
      precise A_T sum = A_T(0);
      for (uint k = 0u; k < m; ++k) {
        A_T x = y[base + k * n + c];
        sum = sum + x * x;
      }
      y[c0 + c] = nxv_ieee_sqrt(sum);
    }
    sync();
    for (uint e = lid; e < m * n; e += GROUP) {
      A_T sv = y[c0 + e % n];
      y[base + e] = sv != A_T(0) ? nxv_ieee_divide(y[base + e], sv) : A_STORE(0);
    }
  }
}
#endif
