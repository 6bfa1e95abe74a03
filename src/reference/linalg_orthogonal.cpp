// Reference kernels of the orthogonal factorisations (OpCode::qr, eigh, svd): Householder QR (LAPACK geqr2 + org2r),
// cyclic Jacobi for the symmetric eigenproblem and one-sided Jacobi for the SVD, in the order the Vulkan kernels
// (src/vulkan/kernels/linalg_orthogonal.comp) run them. Packed layouts in ops/op.hpp.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "reference/float_elements.hpp"

namespace nxv::reference {

namespace {

// One m x n matrix into out's [m + 1, q + n] block. Step j reflects column j below the diagonal onto beta e_j with
// H = I − tau v vᵀ (v_j = 1, the rest of v stored where the column was; LAPACK's dlarfg convention), then applies H
// to the columns right of j. Q = H_0 ⋯ H_{k−1} is built backwards from the identity (LAPACK's dorg2r).
template <class T>
void qr_one(const T* a, T* out, std::int64_t m, std::int64_t n, std::int64_t q) {
  const std::int64_t width = q + n, k = std::min(m, n);
  const auto r = [&](std::int64_t i, std::int64_t c) -> T& { return out[i * width + q + c]; };
  const auto qm = [&](std::int64_t i, std::int64_t c) -> T& { return out[i * width + c]; };
  T* tau = out + m * width;
  for (std::int64_t i = 0; i < m; ++i)
    for (std::int64_t c = 0; c < n; ++c) r(i, c) = a[i * n + c];
  for (std::int64_t j = 0; j < k; ++j) {
    const T alpha = r(j, j);
    T below = 0;  // the squared norm of the column below the diagonal
    for (std::int64_t i = j + 1; i < m; ++i) below += r(i, j) * r(i, j);
    T t = 0;
    if (below != T(0)) {
      const T norm = std::sqrt(alpha * alpha + below);
      const T beta = alpha >= T(0) ? -norm : norm;
      t = (beta - alpha) / beta;
      const T scale = alpha - beta;
      for (std::int64_t i = j + 1; i < m; ++i) r(i, j) = r(i, j) / scale;
      r(j, j) = beta;
    }
    tau[j] = t;
    for (std::int64_t c = j + 1; c < n; ++c) {
      T w = r(j, c);
      for (std::int64_t i = j + 1; i < m; ++i) w += r(i, j) * r(i, c);
      const T tw = t * w;
      r(j, c) -= tw;
      for (std::int64_t i = j + 1; i < m; ++i) r(i, c) -= r(i, j) * tw;
    }
  }
  for (std::int64_t i = 0; i < m; ++i)
    for (std::int64_t c = 0; c < q; ++c) qm(i, c) = i == c ? T(1) : T(0);
  for (std::int64_t j = k - 1; j >= 0; --j)
    for (std::int64_t c = j; c < q; ++c) {
      T w = qm(j, c);
      for (std::int64_t i = j + 1; i < m; ++i) w += r(i, j) * qm(i, c);
      const T tw = tau[j] * w;
      qm(j, c) -= tw;
      for (std::int64_t i = j + 1; i < m; ++i) qm(i, c) -= r(i, j) * tw;
    }
  for (std::int64_t i = 0; i < m; ++i)
    for (std::int64_t c = 0; c < std::min(i, n); ++c) r(i, c) = T(0);
  for (std::int64_t c = k; c < width; ++c) tau[c] = T(0);
}

constexpr int kMaxJacobiSweeps = 60;  // include/nxv/linalg.hpp: Jacobi converges quadratically, in ~10 sweeps

template <class T>
struct JacobiRotation {
  T c, s;
};

// The Jacobi rotation of pair (p, q) that zeroes a_pq (Golub & Van Loan, Algorithm 8.5.1): (c, s), or s = 0 where
// |a_pq| is negligible against the diagonal (ε·sqrt|a_pp|·sqrt|a_qq|, or exactly zero).
template <class T>
JacobiRotation<T> jacobi_rotation(T app, T aqq, T apq) {
  const T eps = std::numeric_limits<T>::epsilon();
  if (!(std::abs(apq) > eps * std::sqrt(std::abs(app)) * std::sqrt(std::abs(aqq)))) return {T(1), T(0)};
  const T theta = (aqq - app) / (apq + apq);
  const T t = (theta >= T(0) ? T(1) : T(-1)) / (std::abs(theta) + std::sqrt(theta * theta + T(1)));
  const T c = T(1) / std::sqrt(t * t + T(1));
  return {c, t * c};
}

// Pair i of round-robin step `step` among `players` (even; player `players - 1` is a dummy when n is odd): player 0
// stays, the others turn (the circle method), so that each sweep of players - 1 steps meets every pair once.
void round_robin_pair(std::int64_t players, std::int64_t step, std::int64_t i, std::int64_t& p, std::int64_t& q) {
  const auto at = [&](std::int64_t position) { return position == 0 ? 0 : 1 + (position - 1 + step) % (players - 1); };
  p = at(i);
  q = at(players - 1 - i);
  if (p > q) std::swap(p, q);
}

template <class T>
struct PairRotation {
  std::int64_t p, q;
  T c, s;
};

// Round-robin Jacobi sweeps over n indices: each step takes every pair's rotation from rotation(p, q) (for odd n the
// dummy index's pair rotates nothing), keeps (c, s) in cs[i] and cs[n + i] as the kernels do, and hands the pairs
// that rotate to apply(pairs), which updates the matrices in the kernels' phases. Sweeps stop after one that rotated
// nothing, or after kMaxJacobiSweeps.
template <class T, class Rotation, class Apply>
void jacobi_sweeps(std::int64_t n, T* cs, Rotation&& rotation, Apply&& apply) {
  const std::int64_t players = n + (n % 2), pairs = players / 2;
  std::vector<PairRotation<T>> rotating;
  for (int sweep = 0; n >= 2 && sweep < kMaxJacobiSweeps; ++sweep) {
    bool rotated = false;
    for (std::int64_t step = 0; step + 1 < players; ++step) {
      rotating.clear();
      for (std::int64_t i = 0; i < pairs; ++i) {
        std::int64_t p, q;
        round_robin_pair(players, step, i, p, q);
        const JacobiRotation<T> rot = q < n ? rotation(p, q) : JacobiRotation<T>{T(1), T(0)};
        cs[i] = rot.c;
        cs[n + i] = rot.s;
        if (rot.s != T(0)) rotating.push_back({p, q, rot.c, rot.s});
      }
      rotated = rotated || !rotating.empty();
      apply(rotating);
    }
    if (!rotated) break;
  }
}

// Cyclic Jacobi on one symmetric n x n matrix (its lower triangle read), into out's [2n + 2, n] block: V in rows
// 0..n-1, the rotated matrix in rows n..2n-1 (its diagonal: the eigenvalues), rows 2n and 2n+1 the rotations' c and
// s. Each round-robin step computes the rotations of its n/2 disjoint pairs, then applies them to the rows, then
// to the columns of A (zeroing a_pq and a_qp) and of V.
template <class T>
void eigh_one(const T* a, T* out, std::int64_t n) {
  T* v = out;
  T* w = out + n * n;
  for (std::int64_t i = 0; i < n; ++i)
    for (std::int64_t c = 0; c < n; ++c) {
      w[i * n + c] = i >= c ? a[i * n + c] : a[c * n + i];
      v[i * n + c] = i == c ? T(1) : T(0);
    }
  const auto rotation = [&](std::int64_t p, std::int64_t q) {
    return jacobi_rotation(w[p * n + p], w[q * n + q], w[p * n + q]);
  };
  jacobi_sweeps(n, out + 2 * n * n, rotation, [&](const std::vector<PairRotation<T>>& rotating) {
    for (const auto& [p, q, c, s] : rotating)  // rows p and q of A
      for (std::int64_t k = 0; k < n; ++k) {
        const T ap = w[p * n + k], aq = w[q * n + k];
        w[p * n + k] = c * ap - s * aq;
        w[q * n + k] = s * ap + c * aq;
      }
    for (const auto& [p, q, c, s] : rotating)  // columns p and q of A and V
      for (std::int64_t k = 0; k < n; ++k) {
        const T ap = w[k * n + p], aq = w[k * n + q];
        w[k * n + p] = k == q ? T(0) : c * ap - s * aq;
        w[k * n + q] = k == p ? T(0) : s * ap + c * aq;
        const T vp = v[k * n + p], vq = v[k * n + q];
        v[k * n + p] = c * vp - s * vq;
        v[k * n + q] = s * vp + c * vq;
      }
  });
}

// One-sided Jacobi (Hestenes) on one m x n matrix, m >= n, into out's [m + n + 2, n] block: the columns of W (rows
// 0..m-1, a copy of a) are rotated in round-robin pairs until orthogonal, the rotations accumulated in V (rows
// m..m+n-1); row m + n holds the rotations' c, row m + n + 1 their s. A pair's rotation is eigh's for the 2x2 Gram
// matrix [[α, γ], [γ, β]] of its columns (α = ‖w_p‖², β = ‖w_q‖², γ = w_pᵀw_q, each summed in row order). Then
// row m + n takes the singular values (the column norms) and W's columns are divided by them (a zero column stays
// zero): U.
template <class T>
void svd_one(const T* a, T* out, std::int64_t m, std::int64_t n) {
  T* w = out;
  T* v = out + m * n;
  T* cs = out + (m + n) * n;
  std::copy(a, a + m * n, w);
  for (std::int64_t i = 0; i < n; ++i)
    for (std::int64_t c = 0; c < n; ++c) v[i * n + c] = i == c ? T(1) : T(0);
  const auto rotation = [&](std::int64_t p, std::int64_t q) {
    T alpha = 0, beta = 0, gamma = 0;
    for (std::int64_t k = 0; k < m; ++k) {
      alpha += w[k * n + p] * w[k * n + p];
      beta += w[k * n + q] * w[k * n + q];
      gamma += w[k * n + p] * w[k * n + q];
    }
    return jacobi_rotation(alpha, beta, gamma);
  };
  jacobi_sweeps(n, cs, rotation, [&](const std::vector<PairRotation<T>>& rotating) {
    for (const auto& [p, q, c, s] : rotating)  // columns p and q of W and V (V's rows follow W's)
      for (std::int64_t k = 0; k < m + n; ++k) {
        const T xp = w[k * n + p], xq = w[k * n + q];
        w[k * n + p] = c * xp - s * xq;
        w[k * n + q] = s * xp + c * xq;
      }
  });
  for (std::int64_t c = 0; c < n; ++c) {
    T sum = 0;
    for (std::int64_t k = 0; k < m; ++k) sum += w[k * n + c] * w[k * n + c];
    cs[c] = std::sqrt(sum);
  }
  for (std::int64_t k = 0; k < m; ++k)
    for (std::int64_t c = 0; c < n; ++c) w[k * n + c] = cs[c] != T(0) ? w[k * n + c] / cs[c] : T(0);
}

}  // namespace

void qr(const QrAttrs& attrs, const Tensor& a, const TensorType& out, std::byte* dst) {
  visit_float(out.dtype, [&]<class T>() {
    const int rank = a.rank();
    const std::int64_t m = a.shape()[rank - 2], n = a.shape()[rank - 1];
    const std::int64_t q = attrs.complete ? m : std::min(m, n);
    const std::vector<T> av = elements<T>(a);
    std::vector<T> packed(static_cast<std::size_t>(num_elements(out.shape)));
    const std::int64_t count =
        m * n == 0 ? num_elements(out.shape) / std::max<std::int64_t>(1, (m + 1) * (q + n)) : a.size() / (m * n);
    for (std::int64_t b = 0; b < count; ++b)
      qr_one(av.data() + b * m * n, packed.data() + b * (m + 1) * (q + n), m, n, q);
    write(packed, dst);
  });
}

void eigh(const Tensor& a, const TensorType& out, std::byte* dst) {
  visit_float(out.dtype, [&]<class T>() {
    const std::int64_t n = a.shape().back();
    const std::vector<T> av = elements<T>(a);
    std::vector<T> packed(static_cast<std::size_t>(num_elements(out.shape)));
    const std::int64_t count = n == 0 ? 0 : a.size() / (n * n);
    for (std::int64_t b = 0; b < count; ++b) eigh_one(av.data() + b * n * n, packed.data() + b * (2 * n + 2) * n, n);
    write(packed, dst);
  });
}

void svd(const Tensor& a, const TensorType& out, std::byte* dst) {
  visit_float(out.dtype, [&]<class T>() {
    const int rank = a.rank();
    const std::int64_t m = a.shape()[rank - 2], n = a.shape()[rank - 1];
    const std::vector<T> av = elements<T>(a);
    std::vector<T> packed(static_cast<std::size_t>(num_elements(out.shape)));
    const std::int64_t per = (m + n + 2) * n, count = per == 0 ? 0 : num_elements(out.shape) / per;
    for (std::int64_t b = 0; b < count; ++b) svd_one(av.data() + b * m * n, packed.data() + b * per, m, n);
    write(packed, dst);
  });
}

}  // namespace nxv::reference
