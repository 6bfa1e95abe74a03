// matrix_block: a block of the last two axes, for the code that unpacks and differentiates the linear-algebra ops'
// packed results (src/linalg/, src/grad/rules_linalg.cpp).
#pragma once
#include "nxv/ops.hpp"

namespace nxv {

// t[..., row : row + rows, column : column + columns].
inline Tensor matrix_block(const Tensor& t, std::int64_t row, std::int64_t column, std::int64_t rows,
                           std::int64_t columns) {
  const int r = t.rank();
  Shape starts = Shape::filled(r, 0), lengths = t.shape();
  starts[r - 2] = row;
  starts[r - 1] = column;
  lengths[r - 2] = rows;
  lengths[r - 1] = columns;
  return slice(t, starts, lengths);
}

}  // namespace nxv
