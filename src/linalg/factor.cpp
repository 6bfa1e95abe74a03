// The front ends of the linear-algebra ops (OpCode::cholesky, triangular_solve, lu): argument checks, batch
// broadcasting, and the unpacking of lu's packed result. Semantics in include/nxv/linalg.hpp.
#include "linalg/linalg_internal.hpp"
#include "nxv/linalg.hpp"
#include "ops/apply.hpp"
#include "ops/matrix_block.hpp"

namespace nxv::linalg {

void check_matrices(const Tensor& a, std::string_view op, bool square) {
  check_defined(a, op);
  NXV_CHECK(a.rank() >= 2, op, "needs matrices in the last two axes (rank >= 2), got ", to_string(a.type()));
  NXV_CHECK(a.dtype() == DType::f32 || a.dtype() == DType::f64, op,
            "needs f32 or f64 matrices (convert with as_type), got ", to_string(a.type()));
  if (square)
    NXV_CHECK(a.shape()[a.rank() - 1] == a.shape()[a.rank() - 2], op,
              "needs square matrices in the last two axes, got ", to_string(a.type()));
}

Shape batch_shape(const Tensor& t, int matrix_axes) { return Shape(t.shape().begin(), t.shape().end() - matrix_axes); }

Tensor broadcast_batch(const Tensor& t, const Shape& batch, int matrix_axes) {
  Shape target = batch;
  for (int d = t.rank() - matrix_axes; d < t.rank(); ++d) target.push_back(t.shape()[d]);
  return t.shape() == target ? t : broadcast(t, target);
}

Tensor cholesky(const Tensor& a) {
  check_matrices(a, "cholesky", true);
  return apply(OpCall{OpCode::cholesky, NoAttrs{}}, {a}, a.type());
}

Rhs prepare_rhs(const Tensor& a, const Tensor& b, std::string_view op, std::int64_t length,
                std::string_view a_length_name, bool right_side) {
  check_defined(b, op);
  NXV_CHECK(b.dtype() == DType::f32 || b.dtype() == DType::f64, op, "needs f32 or f64 b (convert with as_type), got ",
            to_string(b.type()));
  Rhs rhs;
  rhs.vector = b.rank() == a.rank() - 1 || b.rank() == 1;
  NXV_CHECK(rhs.vector || b.rank() >= 2, op, "b must be vectors (rank 1 or a's rank - 1) or matrices, got ",
            shapes_of(std::vector<Tensor>{a, b}));
  const std::int64_t b_length = b.shape()[b.rank() - (rhs.vector || right_side ? 1 : 2)];
  NXV_CHECK(b_length == length, op, "b's ", right_side ? "columns" : "rows", " (", b_length, ") must match a's ",
            a_length_name, " ", length, ", got ", shapes_of(std::vector<Tensor>{a, b}));
  const DType dtype = promote(a.dtype(), b.dtype());
  const int b_matrix_axes = rhs.vector ? 1 : 2;
  const Shape batch = broadcast_shapes(batch_shape(a, 2), batch_shape(b, b_matrix_axes), op);
  rhs.a = broadcast_batch(as_type(a, dtype), batch, 2);
  rhs.b = broadcast_batch(as_type(b, dtype), batch, b_matrix_axes);
  if (rhs.vector) {
    rhs.vector_axis = rhs.b.rank() - (right_side ? 1 : 0);
    rhs.b = expand_dims(rhs.b, rhs.vector_axis);
  }
  return rhs;
}

Tensor triangular_solve(const Tensor& a, const Tensor& b, const TriangularSolveOptions& options) {
  constexpr std::string_view op = "triangular_solve";
  check_matrices(a, op, true);
  const Rhs rhs = prepare_rhs(a, b, op, a.shape().back(), "order", !options.left_side);
  const TriangularSolveAttrs attrs{options.left_side, options.lower, options.transpose_a, options.unit_diagonal};
  return rhs.restore(apply(OpCall{OpCode::triangular_solve, attrs}, {rhs.a, rhs.b}, rhs.b.type()));
}

Packed lu_packed(const Tensor& a, std::string_view op) {
  check_matrices(a, op, true);
  const int r = a.rank();
  const std::int64_t n = a.shape()[r - 1];
  Shape packed_shape = a.shape();
  packed_shape.back() = n + 2;
  const Tensor packed = apply(OpCall{OpCode::lu, NoAttrs{}}, {a}, {packed_shape, a.dtype()});
  const auto column = [&](std::int64_t c) {
    return as_type(squeeze(matrix_block(packed, 0, c, n, 1), Axes{r - 1}), DType::s64);
  };
  return {matrix_block(packed, 0, 0, n, n), column(n), column(n + 1)};
}

LU lu(const Tensor& a) {
  const Packed packed = lu_packed(a, "lu");
  const int r = a.rank();
  const std::int64_t n = a.shape()[r - 1];
  // p[row, column] = (perm[column] == row): a = p l u because row i of l u is row perm[i] of a.
  const Tensor rows = iota(a.shape(), r - 2, DType::s64, a.backend());
  const Tensor p = as_type(equal(rows, expand_dims(packed.permutation, r - 2)), a.dtype());
  const Tensor l = add(tril(packed.factors, -1), eye(Shape{n, n}, a.dtype(), a.backend()));
  return {p, l, triu(packed.factors)};
}

}  // namespace nxv::linalg
