// What the files of src/linalg/ share: argument checks, batch broadcasting, and lu's packed result unpacked.
#pragma once
#include <string_view>

#include "nxv/ops.hpp"

namespace nxv::linalg {

// nxv::Error naming `op` unless `a` is an f32/f64 tensor of rank >= 2 (square in its last two axes if `square`).
void check_matrices(const Tensor& a, std::string_view op, bool square);
// t's shape without its last `matrix_axes` axes.
Shape batch_shape(const Tensor& t, int matrix_axes);
// t broadcast to batch + its last `matrix_axes` axes (t itself when it has that shape).
Tensor broadcast_batch(const Tensor& t, const Shape& batch, int matrix_axes);

// OpCode::lu's result, sliced: factors[..., n, n] holds L below the diagonal (its unit diagonal implied) and U on
// and above it; permutation[..., n] (row i of PA is row permutation[i] of A) and pivots[..., n] (LAPACK's ipiv,
// 0-based) are s64.
struct Packed {
  Tensor factors, permutation, pivots;
};
Packed lu_packed(const Tensor& a, std::string_view op);

}  // namespace nxv::linalg
