// slice and put_slice with traced start indices (Nx.slice / Nx.put_slice given tensors), composed from the index
// ops: each start is clamped on the device (clip), the addressed positions are start + iota (* stride), and take /
// indexed_put read or write them. So the calls run resident on every backend, trace under jit and differentiate
// through take's and indexed_put's rules.
#include "nxv/indexing.hpp"
#include "ops/apply.hpp"

namespace nxv {

namespace {

// starts[axis] as s64, clamped into [0, dim - extent].
Tensor clamped_start(const Tensor& start, std::int64_t dim, std::int64_t extent) {
  return clip(as_type(start, DType::s64), Scalar(0), Scalar(static_cast<long long>(dim - extent)));
}

void check_starts(const Tensor& x, const std::vector<Tensor>& starts, std::string_view op) {
  check_defined(x, op);
  NXV_CHECK(static_cast<int>(starts.size()) == x.rank(), op, "got ", starts.size(), " start indices for ",
            to_string(x.type()), ", expected one per axis (", x.rank(), ")");
  for (std::size_t i = 0; i < starts.size(); ++i) {
    check_defined(starts[i], op);
    NXV_CHECK(starts[i].rank() == 0 && is_integer(starts[i].dtype()), op, "start index ", i, " is ",
              to_string(starts[i].type()), ", expected a rank-0 integer tensor");
  }
}

}  // namespace

Tensor dynamic_slice(const Tensor& x, const std::vector<Tensor>& starts, const Shape& lengths, const OptAxes& strides) {
  check_starts(x, starts, "dynamic_slice");
  const int r = x.rank();
  NXV_CHECK(lengths.size() == r, "dynamic_slice", "got lengths ", to_string(lengths), " for ", to_string(x.type()),
            ", expected one per axis");
  NXV_CHECK(!strides || strides->size() == r, "dynamic_slice", "got strides ", to_string(*strides), " for ",
            to_string(x.type()), ", expected one per axis");
  Tensor y = x;
  for (int i = 0; i < r; ++i) {
    const std::int64_t stride = strides ? (*strides)[i] : 1, len = lengths[i];
    NXV_CHECK(stride >= 1, "dynamic_slice", "stride ", stride, " on axis ", i, ", expected >= 1");
    NXV_CHECK(len >= 0, "dynamic_slice", "length ", len, " on axis ", i, ", expected >= 0");
    const std::int64_t extent = len == 0 ? 0 : (len - 1) * stride + 1;
    NXV_CHECK(extent <= x.shape()[i], "dynamic_slice", "axis ", i, " of ", to_string(x.type()), " is too short for ",
              len, " elements at stride ", stride, " (they span ", extent, ")");
    const Tensor positions =
        clamped_start(starts[i], x.shape()[i], extent) + iota({len}, 0, DType::s64, x.backend()) * stride;
    y = take(y, positions, i);
  }
  return y;
}

Tensor dynamic_put_slice(const Tensor& x, const std::vector<Tensor>& starts, const Tensor& slice) {
  check_starts(x, starts, "dynamic_put_slice");
  check_defined(slice, "dynamic_put_slice");
  const int r = x.rank();
  NXV_CHECK(slice.rank() == r, "dynamic_put_slice", "got the slice ", to_string(slice.type()), " for ",
            to_string(x.type()), ", expected the same rank");
  for (int i = 0; i < r; ++i)
    NXV_CHECK(slice.shape()[i] <= x.shape()[i], "dynamic_put_slice", "the slice ", to_string(slice.type()),
              " is larger than ", to_string(x.type()), " on axis ", i);
  const DType dtype = promote(x.dtype(), slice.dtype());
  if (r == 0) return as_type(slice, dtype);  // the one element is replaced
  // Every element of the slice addresses x at (clamped start + its coordinate) on each axis: indices [n, rank].
  std::vector<Tensor> coordinates;
  for (int i = 0; i < r; ++i)
    coordinates.push_back(clamped_start(starts[i], x.shape()[i], slice.shape()[i]) +
                          iota(slice.shape(), i, DType::s64, x.backend()));
  const Tensor indices = reshape(stack(coordinates, r), {slice.size(), r});
  return indexed_put(x, indices, reshape(slice, {slice.size()}));
}

}  // namespace nxv
