// solve, determinant, invert and matrix_power, built from lu, triangular_solve and dot (include/nxv/linalg.hpp).
#include "linalg/linalg_internal.hpp"
#include "nxv/linalg.hpp"
#include "ops/apply.hpp"

namespace nxv::linalg {

namespace {

// a @ b over the last two axes, batched over the others (equal batch shapes).
Tensor matmul(const Tensor& a, const Tensor& b) {
  const int r = a.rank();
  Axes batch;
  for (int d = 0; d < r - 2; ++d) batch.push_back(d);
  return dot(a, Axes{r - 1}, batch, b, Axes{r - 2}, batch);
}

}  // namespace

Tensor solve(const Tensor& a, const Tensor& b) {
  constexpr std::string_view op = "solve";
  check_matrices(a, op, true);
  check_defined(b, op);
  NXV_CHECK(b.dtype() == DType::f32 || b.dtype() == DType::f64, op, "needs f32 or f64 b (convert with as_type), got ",
            to_string(b.type()));
  const bool vector = b.rank() == a.rank() - 1 || b.rank() == 1;
  NXV_CHECK(vector || b.rank() >= 2, op, "b must be vectors (rank 1 or a's rank - 1) or matrices, got ",
            shapes_of(std::vector<Tensor>{a, b}));
  const std::int64_t n = a.shape().back();
  const std::int64_t b_n = b.shape()[b.rank() - (vector ? 1 : 2)];
  NXV_CHECK(b_n == n, op, "b's rows (", b_n, ") must match a's order ", n, ", got ",
            shapes_of(std::vector<Tensor>{a, b}));
  const DType dtype = promote(a.dtype(), b.dtype());
  const int b_matrix_axes = vector ? 1 : 2;
  const Shape batch = broadcast_shapes(batch_shape(a, 2), batch_shape(b, b_matrix_axes), op);
  const Tensor a_full = broadcast_batch(as_type(a, dtype), batch, 2);
  Tensor b_full = broadcast_batch(as_type(b, dtype), batch, b_matrix_axes);
  if (vector) b_full = expand_dims(b_full, b_full.rank());
  const Packed lu = lu_packed(a_full, op);
  // P a = L U, so a x = b is L U x = P b: b's rows permuted, then forward and back substitution.
  const Tensor permuted = take_along_axis(b_full, expand_dims(lu.permutation, lu.permutation.rank()), -2);
  const Tensor y = triangular_solve(lu.factors, permuted, {.lower = true, .unit_diagonal = true});
  const Tensor x = triangular_solve(lu.factors, y, {.lower = false});
  return vector ? squeeze(x, Axes{x.rank() - 1}) : x;
}

// det(a) = det(P)⁻¹ det(L) det(U) = (−1)^swaps · prod(diag(U)); a row swap happened at step j where ipiv[j] != j.
Tensor determinant(const Tensor& a) {
  check_matrices(a, "determinant", true);
  const Packed lu = lu_packed(a, "determinant");
  const int last = a.rank() - 2;  // the last axis of the [..., n] pivots and diagonal
  const Tensor steps = iota(lu.pivots.shape(), last, DType::s64, a.backend());
  const Tensor swaps = sum(as_type(not_equal(lu.pivots, steps), a.dtype()), Axes{last});
  const Tensor odd = swaps - floor(swaps / 2.0) * 2.0;
  return (1.0 - odd * 2.0) * product(take_diagonal(lu.factors), Axes{last});
}

Tensor invert(const Tensor& a) {
  check_matrices(a, "invert", true);
  const std::int64_t n = a.shape().back();
  return solve(a, broadcast(eye(Shape{n, n}, a.dtype(), a.backend()), a.shape()));
}

Tensor matrix_power(const Tensor& a, std::int64_t k) {
  constexpr std::string_view op = "matrix_power";
  check_defined(a, op);
  NXV_CHECK(a.rank() >= 2 && a.shape()[a.rank() - 1] == a.shape()[a.rank() - 2], op,
            "needs square matrices in the last two axes, got ", to_string(a.type()));
  NXV_CHECK(a.dtype() != DType::pred, op, "is not defined for pred tensors, got ", to_string(a.type()));
  const std::int64_t n = a.shape().back();
  if (k == 0) return broadcast(eye(Shape{n, n}, a.dtype(), a.backend()), a.shape());
  Tensor base = k < 0 ? invert(a) : a;
  std::uint64_t remaining = k < 0 ? 0 - static_cast<std::uint64_t>(k) : static_cast<std::uint64_t>(k);
  Tensor result;
  for (;;) {
    if (remaining & 1u) result = result.defined() ? matmul(result, base) : base;
    remaining >>= 1;
    if (remaining == 0) return result;
    base = matmul(base, base);
  }
}

}  // namespace nxv::linalg
