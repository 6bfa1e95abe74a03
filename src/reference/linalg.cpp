// Reference kernels of the linear-algebra ops (OpCode::cholesky, triangular_solve, lu): the textbook algorithms,
// one matrix at a time, in the order the Vulkan kernels (src/vulkan/kernels/linalg.comp) run them, so that every
// element sees the same operations in the same order on both backends.
#include <cmath>
#include <cstring>
#include <numeric>
#include <vector>

#include "reference/float_elements.hpp"

namespace nxv::reference {

namespace {

std::int64_t matrices(const Shape& shape, std::int64_t per_matrix) {
  return per_matrix == 0 ? 0 : num_elements(shape) / per_matrix;
}

// Column by column, left to right: l_ij = (a_ij − Σ_{p<j} l_ip l_jp) / l_jj, the sum subtracted term by term in
// increasing p (the Vulkan kernel's right-looking updates reach each element in that order).
template <class T>
void cholesky_one(const T* a, T* l, std::int64_t n) {
  for (std::int64_t j = 0; j < n; ++j) {
    for (std::int64_t i = j; i < n; ++i) {
      T s = a[i * n + j];
      for (std::int64_t p = 0; p < j; ++p) s -= l[i * n + p] * l[j * n + p];
      l[i * n + j] = i == j ? std::sqrt(s) : s / l[j * n + j];
    }
  }
}

// Solves m x = b for one right-hand side (stride `step` apart in b and x), where m(i, j) reads the matrix (op(a)
// or, for the right side, its transpose) and is lower triangular if `lower`. Substitution in the order of the
// Vulkan kernel: x_j is final once every earlier x has been subtracted from b_j, nearest diagonal last.
template <class T, class M>
void substitute(const M& m, bool lower, bool unit, std::int64_t n, T* x, std::int64_t step) {
  for (std::int64_t t = 0; t < n; ++t) {
    const std::int64_t j = lower ? t : n - 1 - t;
    T s = x[j * step];
    for (std::int64_t u = 0; u < t; ++u) {
      const std::int64_t p = lower ? u : n - 1 - u;
      s -= m(j, p) * x[p * step];
    }
    x[j * step] = unit ? s : s / m(j, j);
  }
}

template <class T>
void triangular_solve_typed(const TriangularSolveAttrs& at, const Tensor& a, const Tensor& b, std::byte* dst) {
  const int r = b.rank();
  const std::int64_t n = a.shape()[r - 1], rows = b.shape()[r - 2], cols = b.shape()[r - 1];
  const std::vector<T> av = elements<T>(a);
  std::vector<T> x = elements<T>(b);
  const std::int64_t count = matrices(b.shape(), rows * cols);
  // The system as m x = b: left side m = op(a), one solve per column of b; right side x op(a) = b is
  // op(a)ᵀ xᵀ = bᵀ, one solve per row of b. m is lower when exactly one of lower / transpose / right side flips it.
  const bool flip = at.transpose_a != !at.left_side;
  const bool lower = at.lower != flip;
  for (std::int64_t k = 0; k < count; ++k) {
    const T* am = av.data() + k * n * n;
    T* xm = x.data() + k * rows * cols;
    const auto m = [&](std::int64_t i, std::int64_t j) { return flip ? am[j * n + i] : am[i * n + j]; };
    if (at.left_side)
      for (std::int64_t c = 0; c < cols; ++c) substitute(m, lower, at.unit_diagonal, n, xm + c, cols);
    else
      for (std::int64_t row = 0; row < rows; ++row) substitute(m, lower, at.unit_diagonal, n, xm + row * cols, 1);
  }
  write(x, dst);
}

// Right-looking LU with partial pivoting (LAPACK getf2's order): at step j the pivot is the first row of the
// largest |f_ij|, i >= j; rows j and p swap across the whole matrix; the column below a non-zero pivot is divided by
// it (a zero pivot leaves it, as getf2); then every f_ik, i, k > j, loses f_ij f_jk.
template <class T>
void lu_one(const T* a, T* out, std::int64_t n) {
  std::vector<T> f(a, a + n * n);
  std::vector<std::int64_t> perm(static_cast<std::size_t>(n)), pivots(static_cast<std::size_t>(n));
  std::iota(perm.begin(), perm.end(), std::int64_t{0});
  for (std::int64_t j = 0; j < n; ++j) {
    std::int64_t p = j;
    for (std::int64_t i = j + 1; i < n; ++i)
      if (std::abs(f[i * n + j]) > std::abs(f[p * n + j])) p = i;
    pivots[j] = p;
    if (p != j) {
      for (std::int64_t c = 0; c < n; ++c) std::swap(f[j * n + c], f[p * n + c]);
      std::swap(perm[j], perm[p]);
    }
    const T pivot = f[j * n + j];
    if (pivot != T(0))
      for (std::int64_t i = j + 1; i < n; ++i) f[i * n + j] = f[i * n + j] / pivot;
    for (std::int64_t i = j + 1; i < n; ++i)
      for (std::int64_t c = j + 1; c < n; ++c) f[i * n + c] -= f[i * n + j] * f[j * n + c];
  }
  for (std::int64_t i = 0; i < n; ++i) {
    for (std::int64_t c = 0; c < n; ++c) out[i * (n + 2) + c] = f[i * n + c];
    out[i * (n + 2) + n] = static_cast<T>(perm[i]);
    out[i * (n + 2) + n + 1] = static_cast<T>(pivots[i]);
  }
}

}  // namespace

void cholesky(const Tensor& a, const TensorType& out, std::byte* dst) {
  visit_float(out.dtype, [&]<class T>() {
    const std::int64_t n = a.shape().back();
    const std::vector<T> av = elements<T>(a);
    std::vector<T> l(av.size(), T(0));
    for (std::int64_t k = 0; k < matrices(a.shape(), n * n); ++k)
      cholesky_one(av.data() + k * n * n, l.data() + k * n * n, n);
    write(l, dst);
  });
}

void triangular_solve(const TriangularSolveAttrs& attrs, const Tensor& a, const Tensor& b, const TensorType& out,
                      std::byte* dst) {
  visit_float(out.dtype, [&]<class T>() { triangular_solve_typed<T>(attrs, a, b, dst); });
}

void lu(const Tensor& a, const TensorType& out, std::byte* dst) {
  visit_float(out.dtype, [&]<class T>() {
    const std::int64_t n = a.shape().back();
    const std::vector<T> av = elements<T>(a);
    std::vector<T> packed(static_cast<std::size_t>(num_elements(out.shape)));
    for (std::int64_t k = 0; k < matrices(a.shape(), n * n); ++k)
      lu_one(av.data() + k * n * n, packed.data() + k * n * (n + 2), n);
    write(packed, dst);
  });
}

}  // namespace nxv::reference
