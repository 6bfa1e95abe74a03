// Movement reference kernels: transpose, broadcast, slice, pad, concatenate, reverse. They move whole elements
// (size_of(dtype) bytes each), so one loop serves every dtype; only pad converts a value (its pad scalar).
//
// transpose, broadcast, slice and reverse are all affine gathers: output element `index` reads input element
// base + sum_k index[k] * strides[k], with strides that may be 0 (broadcast) or negative (reverse).
#include <cstring>

#include "reference/dtype_dispatch.hpp"
#include "reference/indexing.hpp"
#include "reference/kernels.hpp"

namespace nxv::reference {
namespace {

void gather(const Tensor& x, std::int64_t base, const Shape& strides, const TensorType& out, std::byte* dst) {
  const std::byte* src = host_bytes(x);
  const auto elem = static_cast<std::int64_t>(size_of(out.dtype));
  std::int64_t i = 0;
  for_each_index(out.shape, [&](const Shape& index) {
    std::memcpy(dst + i++ * elem, src + (base + offset_of(index, strides)) * elem, elem);
  });
}

}  // namespace

// Output axis i is input axis permutation[i].
void transpose(const TransposeAttrs& attrs, const Tensor& x, const TensorType& out, std::byte* dst) {
  const Shape in_strides = contiguous_strides(x.shape());
  Shape strides;
  for (std::int64_t axis : attrs.permutation) strides.push_back(in_strides[static_cast<int>(axis)]);
  gather(x, 0, strides, out, dst);
}

// Input axis i becomes output axis attrs.axes[i]; its dimension is 1 (repeated) or the output's.
void broadcast(const BroadcastAttrs& attrs, const Tensor& x, const TensorType& out, std::byte* dst) {
  const Shape in_strides = contiguous_strides(x.shape());
  Shape strides = Shape::filled(out.shape.size(), 0);
  for (int i = 0; i < x.rank(); ++i)
    if (x.dim(i) != 1) strides[static_cast<int>(attrs.axes[i])] = in_strides[i];
  gather(x, 0, strides, out, dst);
}

// Output element j along axis k reads input element starts[k] + j * strides[k] (strides default to 1).
void slice(const SliceAttrs& attrs, const Tensor& x, const TensorType& out, std::byte* dst) {
  const Shape in_strides = contiguous_strides(x.shape());
  std::int64_t base = 0;
  Shape strides;
  for (int k = 0; k < x.rank(); ++k) {
    const std::int64_t step = attrs.strides.empty() ? 1 : attrs.strides[k];
    base += attrs.starts[k] * in_strides[k];
    strides.push_back(step * in_strides[k]);
  }
  gather(x, base, strides, out, dst);
}

void reverse(const ReverseAttrs& attrs, const Tensor& x, const TensorType& out, std::byte* dst) {
  Shape strides = contiguous_strides(x.shape());
  std::int64_t base = 0;
  for (std::int64_t axis : attrs.axes) {
    const int a = static_cast<int>(axis);
    base += (x.dim(a) - 1) * strides[a];
    strides[a] = -strides[a];
  }
  gather(x, base, strides, out, dst);
}

// Input element `index` lands at low[k] + index[k] * (interior[k] + 1) along each axis k, unless that falls
// outside the output (a negative low/high cuts it); every other element is the pad value.
void pad(const PadAttrs& attrs, const Tensor& x, const TensorType& out, std::byte* dst) {
  const std::int64_t n = num_elements(out.shape);
  for (std::int64_t i = 0; i < n; ++i) store_converted(out.dtype, dst, i, attrs.value);
  const std::byte* src = host_bytes(x);
  const auto elem = static_cast<std::int64_t>(size_of(out.dtype));
  const Shape out_strides = contiguous_strides(out.shape);
  std::int64_t i = 0;
  for_each_index(x.shape(), [&](const Shape& index) {
    std::int64_t offset = 0;
    bool inside = true;
    for (int k = 0; inside && k < index.size(); ++k) {
      const std::int64_t position = attrs.low[k] + index[k] * (attrs.interior[k] + 1);
      inside = position >= 0 && position < out.shape[k];
      if (inside) offset += position * out_strides[k];  // outside, position * stride may overflow
    }
    if (inside) std::memcpy(dst + offset * elem, src + i * elem, elem);
    ++i;
  });
}

// Each input is copied into the output at an offset along attrs.axis equal to the sizes of the inputs before it.
void concatenate(const AxisAttrs& attrs, Inputs xs, const TensorType& out, std::byte* dst) {
  const int axis = static_cast<int>(attrs.axis);
  const auto elem = static_cast<std::int64_t>(size_of(out.dtype));
  const Shape out_strides = contiguous_strides(out.shape);
  std::int64_t shift = 0;
  for (const Tensor& x : xs) {
    const std::byte* src = host_bytes(x);
    const std::int64_t base = shift * out_strides[axis];
    std::int64_t i = 0;
    for_each_index(x.shape(), [&](const Shape& index) {
      std::memcpy(dst + (base + offset_of(index, out_strides)) * elem, src + i++ * elem, elem);
    });
    shift += x.dim(axis);
  }
}

}  // namespace nxv::reference
