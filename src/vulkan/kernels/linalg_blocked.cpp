// Large Cholesky factorisations on the Vulkan backend: recursive blocking onto the library's GEMM (linalg.cpp's
// one-workgroup kernel walks an n x n matrix alone, about n^3 / 192 loop trips in one workgroup: seconds at 1024²).
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
#include "vulkan/kernels/linalg_blocked.hpp"

#include "nxv/linalg.hpp"
#include "nxv/ops.hpp"
#include "ops/matrix_block.hpp"

namespace nxv::vulkan::kernels {
namespace {

constexpr std::int64_t kPanel = 64;  // the order the one-workgroup kernels factorise and invert

std::int64_t order(const Tensor& a) { return a.shape()[a.rank() - 1]; }

// Where to split an order n > kPanel: about half, on a multiple of kPanel (so the leaves are whole panels).
std::int64_t split(std::int64_t n) { return std::max<std::int64_t>(kPanel, (n / 2 + kPanel - 1) / kPanel * kPanel); }

// X with X lᵀ = b, for l lower triangular [..., n, n] and b [..., m, n].
Tensor solve_right_transposed(const Tensor& b, const Tensor& l) {
  const std::int64_t n = order(l), m = b.shape()[b.rank() - 2];
  if (n <= kPanel) {
    const Tensor identity = broadcast(eye(Shape{n, n}, l.dtype(), l.backend()), l.shape());
    const Tensor inverse = linalg::triangular_solve(l, identity, {.left_side = true, .lower = true});
    return matmul(b, matrix_transpose(inverse));
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
  if (!blocked_cholesky_pays(n)) return linalg::cholesky(a);  // the one-workgroup kernel
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

}  // namespace nxv::vulkan::kernels
