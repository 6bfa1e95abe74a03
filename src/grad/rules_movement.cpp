// Gradient rules of the movement ops: each is the op's transpose, another movement op on the cotangent.
#include <algorithm>

#include "grad/rules.hpp"

namespace nxv::rules {

namespace {

Tensor transpose_vjp(const TransposeAttrs& a, const Tensor& g) {
  Axes inverse = Axes::filled(a.permutation.size(), 0);
  for (int i = 0; i < a.permutation.size(); ++i) inverse[static_cast<int>(a.permutation[i])] = i;
  return transpose(g, inverse);
}

// Input axis i went to output axis axes[i]: sum over the output axes it didn't come from and over those it
// was stretched along (size 1 → n), then drop the summed-away axes.
Tensor broadcast_vjp(const BroadcastAttrs& a, const Tensor& x, const Tensor& g) {
  Axes summed;
  for (int o = 0; o < g.rank(); ++o) {
    const auto it = std::find(a.axes.begin(), a.axes.end(), o);
    if (it == a.axes.end() || (x.shape()[static_cast<int>(it - a.axes.begin())] == 1 && g.shape()[o] != 1))
      summed.push_back(o);
  }
  return reshape(summed.empty() ? g : sum(g, summed, /*keep_axes=*/true), x.shape());
}

// The sliced elements return to their places; the rest get zero: a pad with interior padding for strides.
Tensor slice_vjp(const SliceAttrs& a, const Tensor& x, const Tensor& g) {
  std::vector<PadConfig> config;
  for (int i = 0; i < x.rank(); ++i) {
    const std::int64_t n = g.shape()[i], start = a.starts[i], stride = a.strides[i];
    if (n == 0) return zeros(x.shape(), g.dtype(), g.backend());
    const std::int64_t end = start + (n - 1) * stride + 1;
    config.push_back({start, x.shape()[i] - end, stride - 1});
  }
  return pad(g, 0.0, config);
}

// pad's transpose (as JAX): undo low/high (a pad by their negatives, which also re-adds what they cut),
// then take every (interior + 1)-th element.
Tensor pad_vjp(const PadAttrs& a, const Tensor& x, const Tensor& g) {
  std::vector<PadConfig> unpad;
  bool any_edge = false, any_interior = false;
  Shape starts, strides;
  for (int i = 0; i < x.rank(); ++i) {
    if (x.shape()[i] == 0) return zeros(x.shape(), g.dtype(), g.backend());
    unpad.push_back({-a.low[i], -a.high[i], 0});
    any_edge = any_edge || a.low[i] != 0 || a.high[i] != 0;
    any_interior = any_interior || a.interior[i] != 0;
    starts.push_back(0);
    strides.push_back(a.interior[i] + 1);
  }
  const Tensor unpadded = any_edge ? pad(g, 0.0, unpad) : g;
  return any_interior ? slice(unpadded, starts, x.shape(), strides) : unpadded;
}

std::vector<Tensor> concatenate_vjp(const Vjp& v) {
  const int axis = static_cast<int>(v.call.attrs_as<AxisAttrs>().axis);
  std::vector<Tensor> out;
  std::int64_t offset = 0;
  for (std::size_t k = 0; k < v.x.size(); ++k) {
    const Shape& shape = v.x[k].shape();
    if (v.needs[k]) {
      Shape starts = Shape::filled(shape.size(), 0);
      starts[axis] = offset;
      out.push_back(slice(v.g, starts, shape));
    } else {
      out.emplace_back();
    }
    offset += shape[axis];
  }
  return out;
}

}  // namespace

std::vector<Tensor> movement_vjp(const Vjp& v) {
  const OpCall& call = v.call;
  const Tensor& x = v.x[0];
  switch (call.code) {
    case OpCode::reshape:
      return {reshape(v.g, x.shape())};
    case OpCode::transpose:
      return {transpose_vjp(call.attrs_as<TransposeAttrs>(), v.g)};
    case OpCode::broadcast:
      return {broadcast_vjp(call.attrs_as<BroadcastAttrs>(), x, v.g)};
    case OpCode::slice:
      return {slice_vjp(call.attrs_as<SliceAttrs>(), x, v.g)};
    case OpCode::pad:
      return {pad_vjp(call.attrs_as<PadAttrs>(), x, v.g)};
    case OpCode::concatenate:
      return concatenate_vjp(v);
    case OpCode::reverse:
      return {reverse(v.g, call.attrs_as<ReverseAttrs>().axes)};
    default:
      return std::vector<Tensor>(v.x.size());
  }
}

}  // namespace nxv::rules
