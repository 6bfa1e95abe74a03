// Indexing reference kernels: take, take_along_axis, gather (reads, indices clamped into range), indexed_add,
// indexed_put (writes, out-of-range updates dropped) and put_slice.
//
// Each view of a tensor below is row-major: take's x as [outer, n, inner], gather's x as [rows, window] with
// rows over the k indexed axes, and the updates of indexed_* as [n, window]. indexed_add defines the order
// the Vulkan kernel follows: per target element, x then its updates in increasing update index.
#include <algorithm>
#include <cstring>
#include <vector>

#include "reference/dtype_dispatch.hpp"
#include "reference/indexing.hpp"
#include "reference/kernels.hpp"

namespace nxv::reference {
namespace {

std::int64_t index_at(const Tensor& indices, std::int64_t i) {
  const std::byte* src = host_bytes(indices);
  return indices.dtype() == DType::s32 ? load<std::int32_t, std::int64_t>(src, i)
                                       : load<std::int64_t, std::int64_t>(src, i);
}

std::int64_t clamp_index(std::int64_t i, std::int64_t n) { return std::clamp<std::int64_t>(i, 0, n - 1); }

void copy_element(std::byte* dst, std::int64_t to, const std::byte* src, std::int64_t from, std::size_t bytes) {
  std::memcpy(dst + to * static_cast<std::int64_t>(bytes), src + from * static_cast<std::int64_t>(bytes), bytes);
}

// The result starts as a copy of x. memcpy needs valid pointers even for 0 bytes, and an empty tensor's are null.
void copy_input(std::byte* dst, const Tensor& x) {
  if (x.size() > 0) std::memcpy(dst, host_bytes(x), static_cast<std::size_t>(x.size()) * size_of(x.dtype()));
}

std::int64_t elements(const Shape& s, int first, int last) {
  std::int64_t n = 1;
  for (int d = first; d < last; ++d) n *= s[d];
  return n;
}

// Takes along `axis` of x viewed as [outer, n, inner]; index_of(o, j, in) is the position of the index of output
// element (o, j, in), the output being [outer, count, inner].
template <class IndexOf>
void take_rows(const AxisAttrs& attrs, const Tensor& x, const Tensor& indices, std::int64_t count, std::byte* dst,
               IndexOf index_of) {
  const int axis = static_cast<int>(attrs.axis);
  const std::int64_t outer = elements(x.shape(), 0, axis), n = x.shape()[axis];
  const std::int64_t inner = elements(x.shape(), axis + 1, x.rank());
  const std::size_t bytes = size_of(x.dtype());
  const std::byte* src = host_bytes(x);
  std::int64_t i = 0;
  for (std::int64_t o = 0; o < outer; ++o)
    for (std::int64_t j = 0; j < count; ++j)
      for (std::int64_t in = 0; in < inner; ++in) {
        const std::int64_t at = clamp_index(index_at(indices, index_of(o, j, in)), n);
        copy_element(dst, i++, src, (o * n + at) * inner + in, bytes);
      }
}

// The row (over x's leading k axes) that update b writes, or -1 when a coordinate is out of range.
std::int64_t target_row(const Tensor& x, const Tensor& indices, std::int64_t b) {
  const int k = static_cast<int>(indices.shape()[1]);
  std::int64_t row = 0;
  for (int d = 0; d < k; ++d) {
    const std::int64_t c = index_at(indices, b * k + d);
    if (c < 0 || c >= x.shape()[d]) return -1;
    row = row * x.shape()[d] + c;
  }
  return row;
}

}  // namespace

void take(const AxisAttrs& attrs, const Tensor& x, const Tensor& indices, const TensorType& /*out*/, std::byte* dst) {
  take_rows(attrs, x, indices, indices.size(), dst, [](std::int64_t, std::int64_t j, std::int64_t) { return j; });
}

void take_along_axis(const AxisAttrs& attrs, const Tensor& x, const Tensor& indices, const TensorType& /*out*/,
                     std::byte* dst) {
  const int axis = static_cast<int>(attrs.axis);
  const std::int64_t count = indices.shape()[axis], inner = elements(x.shape(), axis + 1, x.rank());
  take_rows(attrs, x, indices, count, dst,
            [&](std::int64_t o, std::int64_t j, std::int64_t in) { return (o * count + j) * inner + in; });
}

void gather(const Tensor& x, const Tensor& indices, const TensorType& out, std::byte* dst) {
  const int k = static_cast<int>(indices.shape().back());
  const std::int64_t window = elements(x.shape(), k, x.rank());
  const std::int64_t batch = window == 0 ? 0 : num_elements(out.shape) / window;
  const std::size_t bytes = size_of(x.dtype());
  const std::byte* src = host_bytes(x);
  for (std::int64_t b = 0; b < batch; ++b) {
    std::int64_t row = 0;
    for (int d = 0; d < k; ++d) row = row * x.shape()[d] + clamp_index(index_at(indices, b * k + d), x.shape()[d]);
    for (std::int64_t w = 0; w < window; ++w) copy_element(dst, b * window + w, src, row * window + w, bytes);
  }
}

// x + the updates, in increasing update index per target element (the order the Vulkan kernel follows), summed in
// the compute type and stored once (f16 and bf16 accumulate in f32, as reductions do).
void indexed_add(const Tensor& x, const Tensor& indices, const Tensor& updates, const TensorType& out, std::byte* dst) {
  copy_input(dst, x);
  const std::int64_t n = indices.shape()[0];
  const std::int64_t window = elements(updates.shape(), 1, updates.rank());
  const std::byte* u = host_bytes(updates);
  visit_dtype(out.dtype, [&]<class S, class C>() {
    std::vector<C> acc(static_cast<std::size_t>(x.size()));
    for (std::int64_t t = 0; t < x.size(); ++t) acc[static_cast<std::size_t>(t)] = load<S, C>(dst, t);
    for (std::int64_t b = 0; b < n; ++b) {
      const std::int64_t row = target_row(x, indices, b);
      if (row < 0) continue;
      for (std::int64_t w = 0; w < window; ++w) {
        C& a = acc[static_cast<std::size_t>(row * window + w)];
        a = C(a + load<S, C>(u, b * window + w));
      }
    }
    for (std::int64_t t = 0; t < x.size(); ++t) store<S, C>(dst, t, acc[static_cast<std::size_t>(t)]);
  });
}

// Later updates overwrite earlier ones: the update with the largest index wins.
void indexed_put(const Tensor& x, const Tensor& indices, const Tensor& updates, const TensorType& /*out*/,
                 std::byte* dst) {
  const std::size_t bytes = size_of(x.dtype());
  copy_input(dst, x);
  const std::int64_t n = indices.shape()[0];
  const std::int64_t window = elements(updates.shape(), 1, updates.rank());
  const std::byte* u = host_bytes(updates);
  for (std::int64_t b = 0; b < n; ++b) {
    const std::int64_t row = target_row(x, indices, b);
    if (row < 0) continue;
    for (std::int64_t w = 0; w < window; ++w) copy_element(dst, row * window + w, u, b * window + w, bytes);
  }
}

// attrs.starts are clamped by the front end, so the slice fits.
void put_slice(const PutSliceAttrs& attrs, const Tensor& x, const Tensor& slice, const TensorType& /*out*/,
               std::byte* dst) {
  const std::size_t bytes = size_of(x.dtype());
  copy_input(dst, x);
  const Shape strides = contiguous_strides(x.shape());
  const std::int64_t base = offset_of(attrs.starts, strides);
  const std::byte* src = host_bytes(slice);
  std::int64_t i = 0;
  for_each_index(slice.shape(),
                 [&](const Shape& index) { copy_element(dst, base + offset_of(index, strides), src, i++, bytes); });
}

}  // namespace nxv::reference
