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

// The right-hand side b of a solve with a, as matrices: a vector b (rank 1, or a's rank − 1) gains an axis of 1 after
// its last (before it, for a right-side solve: a row); the batch axes of a and b broadcast; both are converted to
// their promoted dtype. b's solved axis must have `length` elements (its rows, or its columns for a right-side
// solve): else nxv::Error naming `op` and `a_length_name` ("order", "rows").
struct Rhs {
  Tensor a, b;
  bool vector = false;
  int vector_axis = 0;  // the axis added to a vector b, which restore() takes away again
  Tensor restore(const Tensor& x) const { return vector ? squeeze(x, Axes{vector_axis}) : x; }
};
Rhs prepare_rhs(const Tensor& a, const Tensor& b, std::string_view op, std::int64_t length,
                std::string_view a_length_name, bool right_side = false);

// OpCode::lu's result, sliced: factors[..., n, n] holds L below the diagonal (its unit diagonal implied) and U on
// and above it; permutation[..., n] (row i of PA is row permutation[i] of A) and pivots[..., n] (LAPACK's ipiv,
// 0-based) are s64.
struct Packed {
  Tensor factors, permutation, pivots;
};
Packed lu_packed(const Tensor& a, std::string_view op);

}  // namespace nxv::linalg
