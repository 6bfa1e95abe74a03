// Multi-index iteration and stride arithmetic for the reference kernels: every kernel walks its output (or
// input) in row-major order and finds the other side's element through per-axis strides.
#pragma once
#include <cstdint>

#include "nxv/shape.hpp"

namespace nxv::reference {

// Calls f(index) for each multi-index of `shape` in row-major order: once (with an empty index) for rank 0,
// never when some dimension is 0.
template <class F>
void for_each_index(const Shape& shape, F&& f) {
  for (std::int64_t d : shape)
    if (d == 0) return;
  Shape index = Shape::filled(shape.size(), 0);
  while (true) {
    f(static_cast<const Shape&>(index));
    int axis = shape.size() - 1;
    for (; axis >= 0; --axis) {
      if (++index[axis] < shape[axis]) break;
      index[axis] = 0;
    }
    if (axis < 0) return;
  }
}

// sum_i index[i] * strides[i]: the element offset of a multi-index.
inline std::int64_t offset_of(const Shape& index, const Shape& strides) {
  std::int64_t offset = 0;
  for (int i = 0; i < index.size(); ++i) offset += index[i] * strides[i];
  return offset;
}

// Strides (in elements, one per axis of `out`) that read a row-major tensor of shape `in` as if broadcast to
// `out` by NumPy's rules: axes aligned at the right, missing or size-1 axes get stride 0.
Shape broadcast_strides(const Shape& in, const Shape& out);

}  // namespace nxv::reference
