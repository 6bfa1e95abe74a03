// solve, determinant, invert and matrix_power, built from lu, triangular_solve and dot (include/nxv/linalg.hpp).
#include "linalg/linalg_internal.hpp"
#include "nxv/linalg.hpp"
#include "ops/apply.hpp"

namespace nxv::linalg {

Tensor solve(const Tensor& a, const Tensor& b) {
  check_matrices(a, "solve", true);
  const Rhs rhs = prepare_rhs(a, b, "solve", a.shape().back(), "order");
  const Packed lu = lu_packed(rhs.a, "solve");
  // P a = L U, so a x = b is L U x = P b: b's rows permuted, then forward and back substitution.
  const Tensor permuted = take_along_axis(rhs.b, expand_dims(lu.permutation, lu.permutation.rank()), -2);
  const Tensor y = triangular_solve(lu.factors, permuted, {.lower = true, .unit_diagonal = true});
  return rhs.restore(triangular_solve(lu.factors, y, {.lower = false}));
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
  NXV_CHECK(k >= 0 || a.dtype() == DType::f32 || a.dtype() == DType::f64, op, "a negative power (", k,
            ") needs f32 or f64 matrices (it inverts them), got ", to_string(a.type()));
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
