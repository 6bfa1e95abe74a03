// Gradient rules of the linear-algebra ops (cholesky, triangular_solve, lu, qr, eigh, svd): the standard matrix
// identities, written with triangular solves and dots so that no inverse is ever formed. Each rule is the derivative of
// the function the op computes from the entries it reads (a triangle, for cholesky and triangular_solve), so it agrees
// with finite differences taken entry by entry (tests/grad/linalg_grad_test.cpp).
#include "grad/rules.hpp"
#include "ops/apply.hpp"
#include "ops/matrix_block.hpp"

namespace nxv::rules {

namespace {

Tensor solve_triangular(const Tensor& a, const Tensor& b, const TriangularSolveAttrs& attrs) {
  return apply(OpCall{OpCode::triangular_solve, attrs}, {a, b}, b.type());
}

// t's diagonal, zeros elsewhere.
Tensor diagonal_part(const Tensor& t) { return triu(tril(t)); }

// a = L Lᵀ, reading a's lower triangle as the symmetric S = tril(a) + tril(a, -1)ᵀ. With L̇ = L Φ(L⁻¹ Ṡ L⁻ᵀ)
// (Φ: the lower triangle, diagonal halved), S̄ = h = L⁻ᵀ Φ(Lᵀ L̄) L⁻¹ (Murray 2016), and an entry of a below
// the diagonal enters S twice: ā = tril(h + hᵀ, -1) + diag(h).
std::vector<Tensor> cholesky_vjp(const Vjp& v) {
  const Tensor& l = v.y;
  const Tensor x = matmul(matrix_transpose(l), v.g);
  const Tensor phi = tril(x, -1) + diagonal_part(x) * 0.5;
  const Tensor left = solve_triangular(l, phi, {.left_side = true, .lower = true, .transpose_a = true});
  const Tensor h = solve_triangular(l, left, {.left_side = false, .lower = true});
  return {tril(h + matrix_transpose(h), -1) + diagonal_part(h)};
}

// Left side, x = op(a)⁻¹ b: b̄ = op(a)⁻ᵀ x̄ and op(a)‾ = −b̄ xᵀ. Right side, x = b op(a)⁻¹: b̄ = x̄ op(a)⁻ᵀ and
// op(a)‾ = −xᵀ b̄. ā is op(a)‾ (transposed back when op transposes), kept to the triangle the op reads.
std::vector<Tensor> triangular_solve_vjp(const Vjp& v) {
  const TriangularSolveAttrs& attrs = v.call.attrs_as<TriangularSolveAttrs>();
  TriangularSolveAttrs adjoint = attrs;
  adjoint.transpose_a = !attrs.transpose_a;
  const Tensor b_bar = solve_triangular(v.x[0], v.g, adjoint);
  std::vector<Tensor> cot(2);
  if (v.needs[1]) cot[1] = b_bar;
  if (v.needs[0]) {
    const Tensor op_bar =
        -(attrs.left_side ? matmul(b_bar, matrix_transpose(v.y)) : matmul(matrix_transpose(v.y), b_bar));
    const Tensor a_bar = attrs.transpose_a ? matrix_transpose(op_bar) : op_bar;
    const int skip = attrs.unit_diagonal ? 1 : 0;
    cot[0] = attrs.lower ? tril(a_bar, -skip) : triu(a_bar, skip);
  }
  return cot;
}

// P a = L U with P fixed (the pivots are piecewise constant). JAX's lu_jvp: M = L⁻¹ P ȧ U⁻¹, L̇ = L tril(M, -1),
// U̇ = triu(M) U; transposed: M̄ = tril(Lᵀ L̄, -1) + triu(Ū Uᵀ), (Pa)‾ = L⁻ᵀ M̄ U⁻ᵀ, and ā's row perm[i] is its row
// i. The packed result's permutation columns carry no gradient.
std::vector<Tensor> lu_vjp(const Vjp& v) {
  const std::int64_t n = v.x[0].shape().back();
  const Tensor factors = matrix_block(v.y, 0, 0, n, n), g = matrix_block(v.g, 0, 0, n, n);
  const Tensor l = tril(factors, -1) + eye(Shape{n, n}, factors.dtype(), factors.backend()), u = triu(factors);
  const Tensor m_bar = tril(matmul(matrix_transpose(l), tril(g, -1)), -1) + triu(matmul(triu(g), matrix_transpose(u)));
  const Tensor left =
      solve_triangular(factors, m_bar, {.left_side = true, .lower = true, .transpose_a = true, .unit_diagonal = true});
  const Tensor permuted_bar =
      solve_triangular(factors, left, {.left_side = false, .lower = false, .transpose_a = true});
  const Tensor permutation = as_type(matrix_block(v.y, 0, n, n, 1), DType::s64);  // [..., n, 1]
  const Tensor inverse = argsort(permutation, -2);                                // inverse[perm[i]] = i
  return {take_along_axis(permuted_bar, inverse, -2)};
}

// Reduced with m >= n (or square): a = q r, qᵀq = I. With M = r̄ rᵀ − qᵀ q̄ and K its upper triangle mirrored below,
// ā = (q̄ + q K) r⁻ᵀ (PyTorch's linalg_qr_backward; derived from qᵀdq being skew-symmetric and dr r⁻¹ upper).
std::vector<Tensor> qr_vjp(const Vjp& v) {
  const Tensor& a = v.x[0];
  const std::int64_t m = a.shape()[a.rank() - 2], n = a.shape()[a.rank() - 1];
  const bool complete = v.call.attrs_as<QrAttrs>().complete;
  NXV_CHECK(
      m >= n && (!complete || m == n), "qr",
      "its gradient is defined for the reduced mode with rows >= columns, or a square matrix (as PyTorch's), got ",
      to_string(a.type()), complete ? " in complete mode" : " in reduced mode");
  const Tensor q = matrix_block(v.y, 0, 0, m, n), r = matrix_block(v.y, 0, n, n, n);
  const Tensor q_bar = matrix_block(v.g, 0, 0, m, n), r_bar = triu(matrix_block(v.g, 0, n, n, n));
  const Tensor big_m = matmul(r_bar, matrix_transpose(r)) - matmul(matrix_transpose(q), q_bar);
  const Tensor k = triu(big_m) + matrix_transpose(triu(big_m, 1));
  return {solve_triangular(r, q_bar + matmul(q, k), {.left_side = false, .lower = false, .transpose_a = true})};
}

// S = v diag(w) vᵀ: ẇ = diag(vᵀ Ṡ v), v̇ = v (F ∘ vᵀ Ṡ v) with F_ij = 1 / (w_j − w_i) off the diagonal, so
// S̄ = G = v (diag(w̄) + F ∘ vᵀ v̄) vᵀ, and a's lower triangle enters S twice below the diagonal, as in
// cholesky_vjp. Only the rotated matrix's diagonal (the eigenvalues) carries a cotangent; its off-diagonal
// entries are rounding residue.
std::vector<Tensor> eigh_vjp(const Vjp& v) {
  const int r = v.x[0].rank();
  const std::int64_t n = v.x[0].shape().back();
  const Tensor vectors = matrix_block(v.y, 0, 0, n, n), values = take_diagonal(matrix_block(v.y, n, 0, n, n));
  const Tensor vectors_bar = matrix_block(v.g, 0, 0, n, n), values_bar = take_diagonal(matrix_block(v.g, n, 0, n, n));
  const Tensor gaps = expand_dims(values, r - 2) - expand_dims(values, r - 1);  // [i, j] = w_j − w_i
  const Tensor diagonal = eye(n, n, DType::pred, values.backend());
  const Tensor inner =
      select(diagonal, expand_dims(values_bar, r - 2), matmul(matrix_transpose(vectors), vectors_bar) / gaps);
  const Tensor g = matmul(matmul(vectors, inner), matrix_transpose(vectors));
  return {tril(g + matrix_transpose(g), -1) + diagonal_part(g)};
}

// a = U diag(s) Vᵀ with m >= n, V square (Townsend 2016, "Differentiating the Singular Value Decomposition"):
// ā = U [(F ∘ (UᵀŪ − ŪᵀU)) S + diag(s̄) + S (F ∘ (VᵀV̄ − V̄ᵀV))] Vᵀ + (I − UUᵀ) Ū S⁻¹ Vᵀ, F_ij = 1 / (s_j² − s_i²)
// off the diagonal (the term with I − VVᵀ vanishes for a square V).
std::vector<Tensor> svd_vjp(const Vjp& v) {
  const int r = v.x[0].rank();
  const std::int64_t m = v.x[0].shape()[r - 2], n = v.x[0].shape()[r - 1];
  const Tensor u = matrix_block(v.y, 0, 0, m, n), vv = matrix_block(v.y, m, 0, n, n);
  const Tensor s = matrix_block(v.y, m + n, 0, 1, n);  // [..., 1, n]: s_j along the columns
  const Tensor u_bar = matrix_block(v.g, 0, 0, m, n), v_bar = matrix_block(v.g, m, 0, n, n),
               s_bar = matrix_block(v.g, m + n, 0, 1, n);
  const Tensor s_column = matrix_transpose(s);  // [..., n, 1]: s_i along the rows
  const Tensor diagonal = eye(n, n, DType::pred, s.backend());
  const Tensor zero = zeros({}, s.dtype(), s.backend());
  const Tensor f = select(diagonal, zero, 1.0 / (s * s - s_column * s_column));
  const Tensor ut_ubar = matmul(matrix_transpose(u), u_bar), vt_vbar = matmul(matrix_transpose(vv), v_bar);
  const Tensor inner = f * (ut_ubar - matrix_transpose(ut_ubar)) * s + select(diagonal, s_bar, zero) +
                       s_column * (f * (vt_vbar - matrix_transpose(vt_vbar)));
  const Tensor outside = (u_bar - matmul(u, ut_ubar)) / s;  // (I − UUᵀ) Ū S⁻¹
  return {matmul(matmul(u, inner) + outside, matrix_transpose(vv))};
}

}  // namespace

std::vector<Tensor> linalg_vjp(const Vjp& v) {
  switch (v.call.code) {
    case OpCode::cholesky:
      return cholesky_vjp(v);
    case OpCode::triangular_solve:
      return triangular_solve_vjp(v);
    case OpCode::lu:
      return lu_vjp(v);
    case OpCode::qr:
      return qr_vjp(v);
    case OpCode::eigh:
      return eigh_vjp(v);
    case OpCode::svd:
      return svd_vjp(v);
    default:
      detail::fail("grad: ", describe(v.call), " is not a linear-algebra op (a bug in backward.cpp)");
  }
}

}  // namespace nxv::rules
