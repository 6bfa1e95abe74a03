// The front ends of qr, eigh and svd (OpCode::qr, eigh, svd: their packed results sliced and, for eigh and svd,
// sorted), least_squares built on qr and pinv on svd (include/nxv/linalg.hpp).
#include <algorithm>
#include <limits>

#include "linalg/linalg_internal.hpp"
#include "nxv/linalg.hpp"
#include "ops/apply.hpp"
#include "ops/matrix_block.hpp"

namespace nxv::linalg {

namespace {

// Whether each matrix of a holds a NaN or an infinity ([..., 1, 1]): the Jacobi kernels skip the rotations such an
// entry poisons, so the diagonal they converge to could look finite; a's results are NaN instead.
Tensor non_finite(const Tensor& a) {
  const int r = a.rank();
  const Tensor finite = logical_not(logical_or(is_nan(a), is_infinity(a)));
  return logical_not(all(finite, Axes{r - 2, r - 1}, true));
}

Tensor nan_where(const Tensor& bad, const Tensor& t) {
  return select(bad, full({}, std::numeric_limits<double>::quiet_NaN(), t.dtype(), t.backend()), t);
}

}  // namespace

QR qr(const Tensor& a, QrMode mode) {
  check_matrices(a, "qr", false);
  const int r = a.rank();
  const std::int64_t m = a.shape()[r - 2], n = a.shape()[r - 1];
  const bool complete = mode == QrMode::complete;
  const std::int64_t q = complete ? m : std::min(m, n);
  Shape packed_shape = a.shape();
  packed_shape[r - 2] = m + 1;
  packed_shape[r - 1] = q + n;
  const Tensor packed = apply(OpCall{OpCode::qr, QrAttrs{complete}}, {a}, {packed_shape, a.dtype()});
  return {matrix_block(packed, 0, 0, m, q), matrix_block(packed, 0, q, q, n)};
}

Eigh eigh(const Tensor& a) {
  check_matrices(a, "eigh", true);
  const int r = a.rank();
  const std::int64_t n = a.shape()[r - 1];
  Shape packed_shape = a.shape();
  packed_shape[r - 2] = 2 * n + 2;
  const Tensor packed = apply(OpCall{OpCode::eigh, NoAttrs{}}, {a}, {packed_shape, a.dtype()});
  const Tensor values = take_diagonal(matrix_block(packed, n, 0, n, n));
  const Tensor order = argsort(values, -1);
  const Tensor bad = non_finite(tril(a));  // the entries eigh reads
  return {nan_where(squeeze(bad, Axes{r - 1}), take_along_axis(values, order, -1)),
          nan_where(bad, take_along_axis(matrix_block(packed, 0, 0, n, n), expand_dims(order, r - 2), -1))};
}

SVD svd(const Tensor& a, bool full_matrices) {
  check_matrices(a, "svd", false);
  const int r = a.rank();
  const std::int64_t m = a.shape()[r - 2], n = a.shape()[r - 1];
  const bool tall = m >= n;  // the op takes rows >= columns: a wide a is factorised as its transpose
  const Tensor x = tall ? a : matrix_transpose(a);
  const std::int64_t rows = tall ? m : n, cols = tall ? n : m;
  Shape packed_shape = x.shape();
  packed_shape[r - 2] = rows + cols + 2;
  const Tensor packed = apply(OpCall{OpCode::svd, NoAttrs{}}, {x}, {packed_shape, a.dtype()});
  const Tensor values = squeeze(matrix_block(packed, rows + cols, 0, 1, cols), Axes{r - 2});
  const Tensor order = argsort(values, -1, /*descending=*/true);
  const Tensor by_value = expand_dims(order, r - 2);
  Tensor u = take_along_axis(matrix_block(packed, 0, 0, rows, cols), by_value, -1);
  const Tensor v = take_along_axis(matrix_block(packed, rows, 0, cols, cols), by_value, -1);
  if (full_matrices && rows > cols)  // the orthogonal complement of u's columns, from a complete QR of u
    u = concatenate({u, matrix_block(qr(u, QrMode::complete).q, 0, cols, rows, rows - cols)}, -1);
  const Tensor bad = non_finite(a);
  const Tensor s = nan_where(squeeze(bad, Axes{r - 1}), take_along_axis(values, order, -1));
  u = nan_where(bad, u);
  const Tensor vt = nan_where(bad, matrix_transpose(v));
  return tall ? SVD{u, s, vt} : SVD{matrix_transpose(vt), s, matrix_transpose(u)};
}

Tensor pinv(const Tensor& a, std::optional<double> rtol) {
  check_matrices(a, "pinv", false);
  const int r = a.rank();
  const std::int64_t m = a.shape()[r - 2], n = a.shape()[r - 1];
  const SVD f = svd(a);
  const double eps = a.dtype() == DType::f32 ? 1.1920928955078125e-7 : 2.220446049250313e-16;
  const double tolerance = rtol.value_or(static_cast<double>(std::max(m, n)) * eps);
  // Singular values at most tolerance · the largest count as zero: their reciprocals are dropped.
  const Tensor cutoff = reduce_max(f.s, Axes{r - 2}, true) * tolerance;
  const Tensor inverse = select(greater(f.s, cutoff), 1.0 / f.s, zeros({}, a.dtype(), a.backend()));
  return matmul(matrix_transpose(f.vt) * expand_dims(inverse, r - 2), matrix_transpose(f.u));
}

Tensor least_squares(const Tensor& a, const Tensor& b) {
  check_matrices(a, "least_squares", false);
  const std::int64_t m = a.shape()[a.rank() - 2], n = a.shape()[a.rank() - 1];
  const Rhs rhs = prepare_rhs(a, b, "least_squares", m, "rows");
  if (m >= n) {  // a = q r: x = r⁻¹ qᵀ b
    const QR f = qr(rhs.a);
    return rhs.restore(triangular_solve(f.r, matmul(matrix_transpose(f.q), rhs.b), {.lower = false}));
  }
  // aᵀ = q r: the minimum-norm x = q r⁻ᵀ b
  const QR f = qr(matrix_transpose(rhs.a));
  return rhs.restore(matmul(f.q, triangular_solve(f.r, rhs.b, {.lower = false, .transpose_a = true})));
}

}  // namespace nxv::linalg
