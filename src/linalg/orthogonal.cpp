// The front ends of qr, eigh and svd (OpCode::qr, eigh, svd: their packed results sliced and, for eigh and svd,
// sorted), least_squares built on qr and pinv on svd (include/nxv/linalg.hpp).
#include <algorithm>

#include "linalg/linalg_internal.hpp"
#include "nxv/linalg.hpp"
#include "ops/apply.hpp"

namespace nxv::linalg {

namespace {

// t[..., rows, columns] of its last two axes, from (row, column).
Tensor block(const Tensor& t, std::int64_t row, std::int64_t column, std::int64_t rows, std::int64_t columns) {
  const int r = t.rank();
  Shape starts = Shape::filled(r, 0), lengths = t.shape();
  starts[r - 2] = row;
  starts[r - 1] = column;
  lengths[r - 2] = rows;
  lengths[r - 1] = columns;
  return slice(t, starts, lengths);
}

Tensor mT(const Tensor& t) {
  Axes perm;
  for (int d = 0; d < t.rank() - 2; ++d) perm.push_back(d);
  perm.push_back(t.rank() - 1);
  perm.push_back(t.rank() - 2);
  return transpose(t, perm);
}

Tensor matmul(const Tensor& a, const Tensor& b) {
  const int r = a.rank();
  Axes batch;
  for (int d = 0; d < r - 2; ++d) batch.push_back(d);
  return dot(a, Axes{r - 1}, batch, b, Axes{r - 2}, batch);
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
  return {block(packed, 0, 0, m, q), block(packed, 0, q, q, n)};
}

Eigh eigh(const Tensor& a) {
  check_matrices(a, "eigh", true);
  const int r = a.rank();
  const std::int64_t n = a.shape()[r - 1];
  Shape packed_shape = a.shape();
  packed_shape[r - 2] = 2 * n + 2;
  const Tensor packed = apply(OpCall{OpCode::eigh, NoAttrs{}}, {a}, {packed_shape, a.dtype()});
  const Tensor values = take_diagonal(block(packed, n, 0, n, n));
  const Tensor order = argsort(values, -1);
  return {take_along_axis(values, order, -1),
          take_along_axis(block(packed, 0, 0, n, n), expand_dims(order, r - 2), -1)};
}

SVD svd(const Tensor& a, bool full_matrices) {
  check_matrices(a, "svd", false);
  const int r = a.rank();
  const std::int64_t m = a.shape()[r - 2], n = a.shape()[r - 1];
  const bool tall = m >= n;  // the op takes rows >= columns: a wide a is factorised as its transpose
  const Tensor x = tall ? a : mT(a);
  const std::int64_t rows = tall ? m : n, cols = tall ? n : m;
  Shape packed_shape = x.shape();
  packed_shape[r - 2] = rows + cols + 2;
  const Tensor packed = apply(OpCall{OpCode::svd, NoAttrs{}}, {x}, {packed_shape, a.dtype()});
  const Tensor values = squeeze(block(packed, rows + cols, 0, 1, cols), Axes{r - 2});
  const Tensor order = argsort(values, -1, /*descending=*/true);
  const Tensor by_value = expand_dims(order, r - 2);
  Tensor u = take_along_axis(block(packed, 0, 0, rows, cols), by_value, -1);
  const Tensor v = take_along_axis(block(packed, rows, 0, cols, cols), by_value, -1);
  if (full_matrices && rows > cols)  // the orthogonal complement of u's columns, from a complete QR of u
    u = concatenate({u, block(qr(u, QrMode::complete).q, 0, cols, rows, rows - cols)}, -1);
  const Tensor s = take_along_axis(values, order, -1);
  return tall ? SVD{u, s, mT(v)} : SVD{v, s, mT(u)};
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
  return matmul(mT(f.vt) * expand_dims(inverse, r - 2), mT(f.u));
}

Tensor least_squares(const Tensor& a, const Tensor& b) {
  constexpr std::string_view op = "least_squares";
  check_matrices(a, op, false);
  check_defined(b, op);
  NXV_CHECK(b.dtype() == DType::f32 || b.dtype() == DType::f64, op, "needs f32 or f64 b (convert with as_type), got ",
            to_string(b.type()));
  const int r = a.rank();
  const std::int64_t m = a.shape()[r - 2], n = a.shape()[r - 1];
  const bool vector = b.rank() == a.rank() - 1 || b.rank() == 1;
  NXV_CHECK(vector || b.rank() >= 2, op, "b must be vectors (rank 1 or a's rank - 1) or matrices, got ",
            shapes_of(std::vector<Tensor>{a, b}));
  const std::int64_t b_m = b.shape()[b.rank() - (vector ? 1 : 2)];
  NXV_CHECK(b_m == m, op, "b's rows (", b_m, ") must match a's rows ", m, ", got ",
            shapes_of(std::vector<Tensor>{a, b}));
  const DType dtype = promote(a.dtype(), b.dtype());
  const int b_matrix_axes = vector ? 1 : 2;
  const Shape batch = broadcast_shapes(batch_shape(a, 2), batch_shape(b, b_matrix_axes), op);
  const Tensor a_full = broadcast_batch(as_type(a, dtype), batch, 2);
  Tensor b_full = broadcast_batch(as_type(b, dtype), batch, b_matrix_axes);
  if (vector) b_full = expand_dims(b_full, b_full.rank());
  Tensor x;
  if (m >= n) {  // a = q r: x = r⁻¹ qᵀ b
    const QR f = qr(a_full);
    x = triangular_solve(f.r, matmul(mT(f.q), b_full), {.lower = false});
  } else {  // aᵀ = q r: the minimum-norm x = q r⁻ᵀ b
    const QR f = qr(mT(a_full));
    x = matmul(f.q, triangular_solve(f.r, b_full, {.lower = false, .transpose_a = true}));
  }
  return vector ? squeeze(x, Axes{x.rank() - 1}) : x;
}

}  // namespace nxv::linalg
