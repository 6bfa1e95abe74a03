// Large Cholesky and LU factorisations on the Vulkan backend: recursive blocking onto the library's GEMM (linalg.cpp's
// one-workgroup kernels walk an n x n matrix alone, about n^3 / 192 loop trips in one workgroup: seconds at 1024²).
//
//   chol([A11 .; A21 A22]) = [L11 0; L21 L22]:  L11 = chol(A11),  L21 = A21 L11^-T,  L22 = chol(A22 - L21 L21ᵀ)
//
// halving the order down to kPanel, where the one-workgroup kernels take over. X = B L^-T is solved the same way
// (X1 = B1 L11^-T, X2 = (B2 - X1 L21ᵀ) L22^-T) down to blocks of kPanel, whose inverse (triangular_solve against the
// identity) multiplies the block row: inverted diagonal blocks, as MAGMA's trsm does, so that nearly every flop is
// in a GEMM. Backward stable like the unblocked algorithm for the matrices the tests use (‖A − LLᵀ‖ ≤ c·n·ε·‖A‖);
// the diagonal blocks' inverses add a factor of their condition number to L21's forward error. A pivot that is not
// positive makes its column and everything after it NaN, as the unblocked kernel does (its block's inverse carries
// the NaN into L21's later columns and the trailing update into L22).
//
// LU with partial pivoting recurses on columns (Toledo's recursive LU): factor the left half of the panel [A1 A2],
// permute A2's rows alike, U12 = L11^-1 A12 (blocked as above, unit diagonal), factor A22 - L21 U12, and permute L21
// by that factorisation's rows. A tall panel recurses down to single columns (pivot: the first largest |a_i0|, as
// getf2; the column below a non-zero pivot divided by it); a square block of order up to kSquareLu goes to the
// one-workgroup kernel. The pivots are getf2's in exact arithmetic; with rounding, a near tie may pick another row.
//
// A triangular solve of order past 128 is brought to op(a) = a on the left (a transpose is copied, a right-side
// system transposed), then split the same way: X1 = A11^-1 B1, X2 = A22^-1 (B2 - A21 X1) for a lower a (the upper
// one from the bottom up), inverted diagonal blocks of kPanel at the leaves.
#include "vulkan/kernels/linalg_blocked.hpp"

#include "nxv/indexing.hpp"
#include "nxv/ops.hpp"
#include "ops/apply.hpp"
#include "ops/matrix_block.hpp"

namespace nxv::vulkan::kernels {
namespace {

constexpr std::int64_t kPanel = 64;      // the order the one-workgroup kernels factorise and invert
constexpr std::int64_t kSquareLu = 256;  // a square LU up to this order: the one-workgroup kernel

int rows_axis(const Tensor& t) { return t.rank() - 2; }

// The ops themselves (their one-workgroup kernels at these orders), not nxv::linalg's front ends: the arguments are
// already checked and batched alike.
Tensor cholesky_op(const Tensor& a) { return apply(OpCall{OpCode::cholesky, NoAttrs{}}, {a}, a.type()); }
Tensor triangular_solve_op(const Tensor& a, const Tensor& b, bool lower, bool unit) {
  const TriangularSolveAttrs attrs{.left_side = true, .lower = lower, .transpose_a = false, .unit_diagonal = unit};
  return apply(OpCall{OpCode::triangular_solve, attrs}, {a, b}, b.type());
}
// a's inverse, a triangular [..., n, n].
Tensor triangular_inverse(const Tensor& a, bool lower, bool unit) {
  const std::int64_t n = a.shape()[a.rank() - 1];
  return triangular_solve_op(a, broadcast(eye(Shape{n, n}, a.dtype(), a.backend()), a.shape()), lower, unit);
}

std::int64_t order(const Tensor& a) { return a.shape()[a.rank() - 1]; }

// Where to split an order n > kPanel: about half, on a multiple of kPanel (so the leaves are whole panels).
std::int64_t split(std::int64_t n) { return std::max<std::int64_t>(kPanel, (n / 2 + kPanel - 1) / kPanel * kPanel); }

// X with X lᵀ = b, for l lower triangular [..., n, n] and b [..., m, n].
Tensor solve_right_transposed(const Tensor& b, const Tensor& l) {
  const std::int64_t n = order(l), m = b.shape()[b.rank() - 2];
  if (n <= kPanel) {
    return matmul(b, matrix_transpose(triangular_inverse(l, true, false)));
  }
  const std::int64_t h = split(n);
  const Tensor x1 = solve_right_transposed(matrix_block(b, 0, 0, m, h), matrix_block(l, 0, 0, h, h));
  const Tensor rest = matrix_block(b, 0, h, m, n - h) - matmul(x1, matrix_transpose(matrix_block(l, h, 0, n - h, h)));
  const Tensor x2 = solve_right_transposed(rest, matrix_block(l, h, h, n - h, n - h));
  return concatenate({x1, x2}, -1);
}

}  // namespace

bool blocked_cholesky_pays(std::int64_t n) { return n > 2 * kPanel; }

Tensor blocked_cholesky(const Tensor& a) {
  const std::int64_t n = order(a);
  if (!blocked_cholesky_pays(n)) return cholesky_op(a);  // the one-workgroup kernel
  const std::int64_t h = split(n);
  const Tensor l11 = blocked_cholesky(matrix_block(a, 0, 0, h, h));
  const Tensor l21 = solve_right_transposed(matrix_block(a, h, 0, n - h, h), l11);
  const Tensor l22 = blocked_cholesky(matrix_block(a, h, h, n - h, n - h) - matmul(l21, matrix_transpose(l21)));
  Shape upper_right = a.shape();
  upper_right[a.rank() - 2] = h;
  upper_right[a.rank() - 1] = n - h;
  return concatenate({concatenate({l11, zeros(upper_right, a.dtype(), a.backend())}, -1), concatenate({l21, l22}, -1)},
                     -2);
}

namespace {

// X = L^-1 B for l unit lower triangular [..., n, n] and b [..., n, k].
Tensor solve_unit_lower(const Tensor& l, const Tensor& b) {
  const std::int64_t n = order(l), k = b.shape()[b.rank() - 1];
  if (n <= kPanel) {
    return matmul(triangular_inverse(l, true, true), b);
  }
  const std::int64_t h = split(n);
  const Tensor x1 = solve_unit_lower(matrix_block(l, 0, 0, h, h), matrix_block(b, 0, 0, h, k));
  const Tensor rest = matrix_block(b, h, 0, n - h, k) - matmul(matrix_block(l, h, 0, n - h, h), x1);
  return concatenate({x1, solve_unit_lower(matrix_block(l, h, h, n - h, n - h), rest)}, -2);
}

// A panel's factorisation: factors [..., m, n] (L below the diagonal, unit diagonal implied, U on and above), the
// rows' order [..., m, 1] (row i of the factored panel is row perm[i] of the input) and getf2's pivot rows
// [..., n, 1] (s64, local to the panel).
struct PanelLu {
  Tensor factors, perm, pivots;
};

PanelLu panel_lu(const Tensor& a) {
  const int r = a.rank(), rows = rows_axis(a);
  const std::int64_t m = a.shape()[r - 2], n = a.shape()[r - 1];
  if (m == n && n <= kSquareLu) {  // the one-workgroup kernel: [factors, perm, pivots] packed as a's dtype
    Shape packed_shape = a.shape();
    packed_shape.back() = n + 2;
    const Tensor packed = apply(OpCall{OpCode::lu, NoAttrs{}}, {a}, {packed_shape, a.dtype()});
    return {matrix_block(packed, 0, 0, n, n), as_type(matrix_block(packed, 0, n, n, 1), DType::s64),
            as_type(matrix_block(packed, 0, n + 1, n, 1), DType::s64)};
  }
  if (n == 1) {
    const Tensor pivot_row = argmax(abs(a), rows, true);  // [..., 1, 1]: the first largest, as getf2
    const Tensor index = iota(a.shape(), rows, DType::s64, a.backend());
    const Tensor zero = zeros({}, DType::s64, a.backend());
    const Tensor perm = select(equal(index, zero), pivot_row, select(equal(index, pivot_row), zero, index));
    const Tensor swapped = take_along_axis(a, perm, rows);
    const Tensor pivot = matrix_block(swapped, 0, 0, 1, 1), below = matrix_block(swapped, 1, 0, m - 1, 1);
    const Tensor scaled = select(not_equal(pivot, zeros({}, a.dtype(), a.backend())), below / pivot, below);
    return {concatenate({pivot, scaled}, -2), perm, pivot_row};
  }
  const std::int64_t h = n / 2;
  const PanelLu left = panel_lu(matrix_block(a, 0, 0, m, h));
  const Tensor right = take_along_axis(matrix_block(a, 0, h, m, n - h), left.perm, rows);
  const Tensor l21 = matrix_block(left.factors, h, 0, m - h, h);
  const Tensor u12 = solve_unit_lower(matrix_block(left.factors, 0, 0, h, h), matrix_block(right, 0, 0, h, n - h));
  const PanelLu rest = panel_lu(matrix_block(right, h, 0, m - h, n - h) - matmul(l21, u12));
  const Tensor top = concatenate({matrix_block(left.factors, 0, 0, h, h), u12}, -1);
  const Tensor bottom = concatenate({take_along_axis(l21, rest.perm, rows), rest.factors}, -1);
  const Tensor perm = concatenate(
      {matrix_block(left.perm, 0, 0, h, 1), take_along_axis(matrix_block(left.perm, h, 0, m - h, 1), rest.perm, rows)},
      -2);
  const Tensor pivots = concatenate({left.pivots, rest.pivots + scalar(h, DType::s64, a.backend())}, -2);
  return {concatenate({top, bottom}, -2), perm, pivots};
}

}  // namespace

bool blocked_lu_pays(std::int64_t n) { return n > kSquareLu; }

Tensor blocked_lu(const Tensor& a) {
  const PanelLu f = panel_lu(a);
  return concatenate({f.factors, as_type(f.perm, a.dtype()), as_type(f.pivots, a.dtype())}, -1);
}

namespace {

// X = a^-1 b, a triangular [..., n, n] (the triangle `lower` names read; a unit diagonal assumed where `unit`), b
// [..., n, k].
Tensor solve_left(const Tensor& a, const Tensor& b, bool lower, bool unit) {
  const std::int64_t n = order(a), k = b.shape()[b.rank() - 1];
  if (n <= kPanel) {
    return matmul(triangular_inverse(a, lower, unit), b);
  }
  const std::int64_t h = split(n);
  const Tensor a11 = matrix_block(a, 0, 0, h, h), a22 = matrix_block(a, h, h, n - h, n - h);
  const Tensor b1 = matrix_block(b, 0, 0, h, k), b2 = matrix_block(b, h, 0, n - h, k);
  if (lower) {
    const Tensor x1 = solve_left(a11, b1, lower, unit);
    return concatenate({x1, solve_left(a22, b2 - matmul(matrix_block(a, h, 0, n - h, h), x1), lower, unit)}, -2);
  }
  const Tensor x2 = solve_left(a22, b2, lower, unit);
  return concatenate({solve_left(a11, b1 - matmul(matrix_block(a, 0, h, h, n - h), x2), lower, unit), x2}, -2);
}

}  // namespace

bool blocked_triangular_solve_pays(std::int64_t n) { return n > 2 * kPanel; }

Tensor blocked_triangular_solve(const Tensor& a, const Tensor& b, const TriangularSolveAttrs& attrs) {
  // op(a) x = b, or x op(a) = b <=> op(a)ᵀ xᵀ = bᵀ: either way a left-side solve with an explicit matrix.
  const bool transposed = attrs.transpose_a != !attrs.left_side;  // the matrix to solve with is aᵀ
  const Tensor m = transposed ? matrix_transpose(a) : a;
  const bool lower = attrs.lower != transposed;
  if (attrs.left_side) return solve_left(m, b, lower, attrs.unit_diagonal);
  return matrix_transpose(solve_left(m, matrix_transpose(b), lower, attrs.unit_diagonal));
}

}  // namespace nxv::vulkan::kernels
