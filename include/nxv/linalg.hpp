// nxv::linalg: Nx.LinAlg's factorisations and what is built on them, on every backend, batched and differentiable.
//
// Every function takes f32 or f64 matrices in the last two axes and is batched over the others (a[..., n, n]); an
// integer or pred input is refused (convert it with as_type), as is f16/bf16 (too few bits to factorise in).
// cholesky, triangular_solve, lu, qr, eigh and svd are ops of their own (a CPU reference kernel and a Vulkan kernel
// each, one matrix per workgroup; on Vulkan cholesky and triangular_solve past order 128 and lu past 256 are
// blocked onto GEMMs); solve, least_squares, determinant, invert, matrix_power, pinv and norm are built from them
// and the other ops, so they run, fuse and differentiate wherever those do.
//
// Singular and non-positive-definite input gives NaN or infinity, never an error (the data lives on the device):
//  - cholesky of a matrix that is not positive definite: NaN from the first column whose pivot is not positive
//    (its square root) onward, as LAPACK's potrf stops there;
//  - lu of a singular matrix: a zero on U's diagonal (the column below it is left unscaled, as LAPACK's getrf),
//    so determinant is exactly 0 and solve/invert give infinities or NaN;
//  - triangular_solve with a zero on the diagonal: infinities or NaN, as division by zero;
//  - a NaN or an infinity in a matrix: eigh's and svd's results for it are all NaN (the Jacobi rotations would skip
//    the entry and converge to finite nonsense); the others carry it through their arithmetic.
//
// Accuracy: the kernels are the textbook algorithms (right-looking Cholesky, partial-pivoting LU, substitution),
// backward stable: tests/linalg/ checks ‖A − LLᵀ‖/‖A‖, ‖PA − LU‖/‖A‖ and ‖op(A)X − B‖/(‖A‖‖X‖) against c·n·ε
// with LAPACK as the oracle. Both backends run the same operations in the same order, but they are not promised
// to be bit-identical (a GPU may round division and square root differently).
#pragma once
#include <cstdint>
#include <optional>
#include <string>

#include "nxv/ops.hpp"

namespace nxv::linalg {

// The lower Cholesky factor L of a symmetric positive-definite a (a = L Lᵀ), zeros above the diagonal. Only a's
// lower triangle is read (LAPACK potrf with uplo = 'L'); the gradient is the derivative of that function, so it is
// zero above the diagonal.
Tensor cholesky(const Tensor& a);

struct TriangularSolveOptions {
  bool left_side = true;       // solve op(a) x = b; false: x op(a) = b
  bool lower = true;           // read a's lower triangle; false: its upper one
  bool transpose_a = false;    // op(a) = aᵀ (Nx's transform_a: :transpose)
  bool unit_diagonal = false;  // take a's diagonal as ones without reading it
};
// Nx.LinAlg.triangular_solve: x with op(a) x = b (or x op(a) = b). a is [..., n, n]; b is a batch of vectors
// [..., n] when its rank is 1 or a's minus one, else of matrices [..., n, k] (left side) or [..., k, n] (right side);
// batch axes broadcast (NumPy rules). The result has b's shape (batch axes broadcast) and the promoted float dtype.
Tensor triangular_solve(const Tensor& a, const Tensor& b, const TriangularSolveOptions& options = {});

// Nx.LinAlg.lu: a = p · l · u with partial pivoting (the largest |a_ij| in the column, the first on ties); p a
// permutation matrix, l unit lower triangular, u upper triangular, all [..., n, n] of a's dtype.
struct LU {
  Tensor p, l, u;
};
LU lu(const Tensor& a);

// Nx.LinAlg.qr: a = q r by Householder reflections (LAPACK's geqrf/orgqr convention: r's diagonal may be negative).
// a is [..., m, n], k = min(m, n). Reduced: q [..., m, k] with orthonormal columns, r [..., k, n] upper triangular;
// complete: q [..., m, m] orthogonal, r [..., m, n]. The gradient is defined where PyTorch's is: reduced with
// m >= n, or square (a full-rank a); other shapes raise nxv::Error from grad.
enum class QrMode { reduced, complete };
struct QR {
  Tensor q, r;
};
QR qr(const Tensor& a, QrMode mode = QrMode::reduced);

// Nx.LinAlg.eigh: a = v diag(w) vᵀ for a symmetric a [..., n, n] (its lower triangle read, as cholesky), by cyclic
// Jacobi rotations (quadratically convergent; at most 60 sweeps, then the result as it stands). eigenvalues
// [..., n] ascending; eigenvectors [..., n, n] orthonormal, column i belonging to eigenvalue i, each determined up
// to its sign (none is normalised, as LAPACK's). The eigenvectors' gradient divides by eigenvalue gaps: it is
// infinite or NaN where two eigenvalues are equal (a degenerate spectrum), as in every library.
struct Eigh {
  Tensor eigenvalues, eigenvectors;
};
Eigh eigh(const Tensor& a);

// Nx.LinAlg.svd: a = u diag(s) vt by one-sided Jacobi rotations (Hestenes; quadratically convergent, at most 60
// sweeps). a is [..., m, n], k = min(m, n): s [..., k] descending; reduced: u [..., m, k], vt [..., k, n]; with
// full_matrices, u [..., m, m] and vt [..., n, n] (the extra columns an orthonormal completion). Each singular pair
// is determined up to a common sign. Where a singular value is 0, u's column is 0 rather than an arbitrary unit
// vector (reduced mode). The gradient is that of the reduced mode (full_matrices raises nxv::Error from grad, as
// qr's complete mode); it divides by the singular values and by their squared gaps, so it is infinite or NaN for a
// rank-deficient a or repeated singular values.
struct SVD {
  Tensor u, s, vt;
};
SVD svd(const Tensor& a, bool full_matrices = false);

// The Moore–Penrose pseudo-inverse by svd: singular values at most rtol · the largest are dropped (rtol: none gives
// max(m, n) · ε, as PyTorch's and NumPy's defaults do).
Tensor pinv(const Tensor& a, std::optional<double> rtol = std::nullopt);

// The least-squares solution of a x = b for a [..., m, n] of full rank, by qr: min ‖a x − b‖ when m >= n, the
// minimum-norm solution when m < n. b is [..., m] (rank 1 or a's minus one) or [..., m, k]. A rank-deficient a gives
// infinities or NaN: use pinv(a) @ b there.
Tensor least_squares(const Tensor& a, const Tensor& b);

// x with a x = b, by lu and two triangular solves. b is [..., n] (rank 1 or a's minus one) or [..., n, k]; batch axes
// broadcast.
Tensor solve(const Tensor& a, const Tensor& b);
// det(a) over the last two axes: the product of U's diagonal with the permutation's sign ([...]); 1 for 0x0
// matrices. Its gradient comes through lu's, which divides by U's diagonal: NaN at a singular matrix.
Tensor determinant(const Tensor& a);
// a⁻¹ (solve(a, I)).
Tensor invert(const Tensor& a);
// aᵏ by repeated squaring (any numeric dtype but pred for k >= 0, wrapping as the dtype's multiplication does):
// k = 0 gives the identity, k < 0 the power of invert(a) (f32 or f64 only).
Tensor matrix_power(const Tensor& a, std::int64_t k);

// Nx.LinAlg.norm. Vectors (rank 1, or `axes` of one axis): ord = "2" (default), "1", "inf", "-inf", "0" (the
// count of non-zeros) or any other number p (sum |x|^p)^(1/p). Matrices (rank 2, or two `axes`): "fro" (default),
// "1", "-1", "inf", "-inf" (max/min column or row sums of |x|), "2", "-2" (the largest/smallest singular value)
// and "nuc" (their sum). Integer input is converted to f32 first.
struct NormOptions {
  std::string ord;  // empty: "2" for vectors, "fro" for matrices
  OptAxes axes{};   // none: the whole tensor, which must then be of rank 1 or 2
  bool keep_axes = false;
};
Tensor norm(const Tensor& x, const NormOptions& options = {});

}  // namespace nxv::linalg
