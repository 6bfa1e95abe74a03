// Gradient rules of conv, window_reduce and window_scatter, written with the front-end ops (so they run, and
// are recorded, wherever the values live). The node's inputs are canonical: x [N, C, s...], w [O, I, s...],
// cotangent g [N / B, O, s'...].
//
// conv follows JAX's _conv_general_dilated_transpose_lhs/_rhs: the input gradient is a conv of g with the
// spatially reversed kernel, its O and I axes swapped (feature groups folded into the new output channels), input
// dilation = the strides and strides = the input dilation; the kernel gradient is a conv of x (batch and
// feature axes swapped) with g as the kernel (the same swap), whose output is permuted back to [O, I, s...], with
// the strides and kernel dilation exchanged and feature and batch groups exchanged.
#include "grad/rules.hpp"

namespace nxv::rules {

namespace {

std::int64_t dilate(std::int64_t size, std::int64_t dilation) { return size == 0 ? 0 : 1 + dilation * (size - 1); }

// [1, 0, 2, 3, ...]: swaps the batch/feature (or output/input) axes of a rank-r conv operand.
Axes swap01(int rank) {
  Axes p{1, 0};
  for (int i = 2; i < rank; ++i) p.push_back(i);
  return p;
}

// Splits axis 0 of w ([O, I, s...]) into (groups, O / groups) and folds the group into axis 1: [O / groups,
// groups * I, s...], group major (JAX's _reshape_axis_out_of then _reshape_axis_into).
Tensor fold_groups_into_inputs(const Tensor& w, std::int64_t groups) {
  Shape split{groups, w.dim(0) / groups};
  for (int i = 1; i < w.rank(); ++i) split.push_back(w.dim(i));
  Axes perm{1, 0};
  for (int i = 2; i < split.size(); ++i) perm.push_back(i);
  Shape folded{w.dim(0) / groups, groups * w.dim(1)};
  for (int i = 2; i < w.rank(); ++i) folded.push_back(w.dim(i));
  return reshape(transpose(reshape(w, split), perm), folded);
}

Tensor conv_input_grad(const ConvAttrs& a, const Tensor& x, const Tensor& w, const Tensor& g) {
  const int spatial = x.rank() - 2;
  const std::int64_t groups = std::max(a.feature_groups, a.batch_groups);
  const Tensor kernel = groups > 1 ? fold_groups_into_inputs(w, groups) : w;
  Axes spatial_axes;
  for (int i = 0; i < spatial; ++i) spatial_axes.push_back(i + 2);
  ConvOptions o;
  for (int i = 0; i < spatial; ++i) {
    const std::int64_t in = dilate(x.dim(i + 2), a.input_dilation[i]);
    const std::int64_t k = dilate(w.dim(i + 2), a.kernel_dilation[i]);
    const std::int64_t out = dilate(g.dim(i + 2), a.strides[i]);
    const std::int64_t before = k - a.pad_low[i] - 1;
    o.padding.emplace_back(before, in + k - 1 - out - before);
  }
  o.strides = a.input_dilation;
  o.input_dilation = a.strides;
  o.kernel_dilation = a.kernel_dilation;
  o.feature_group_size = groups;
  o.kernel_permutation = swap01(w.rank());
  o.precision = a.precision;
  const Tensor dx = conv(g, reverse(kernel, spatial_axes), o);
  if (a.batch_groups == 1) return dx;
  // [N / B, B * C, s...] -> [B, N / B, C, s...] -> [N, C, s...]: the batch groups return to the batch axis.
  Shape split{dx.dim(0), a.batch_groups, x.dim(1)};
  for (int i = 2; i < dx.rank(); ++i) split.push_back(dx.dim(i));
  Axes perm{1, 0};
  for (int i = 2; i < split.size(); ++i) perm.push_back(i);
  return reshape(transpose(reshape(dx, split), perm), x.shape());
}

Tensor conv_kernel_grad(const ConvAttrs& a, const Tensor& x, const Tensor& w, const Tensor& g) {
  const int spatial = x.rank() - 2;
  ConvOptions o;
  for (int i = 0; i < spatial; ++i) {
    const std::int64_t in = dilate(x.dim(i + 2), a.input_dilation[i]);
    const std::int64_t k = dilate(w.dim(i + 2), a.kernel_dilation[i]);
    const std::int64_t out = dilate(g.dim(i + 2), a.strides[i]);
    o.padding.emplace_back(a.pad_low[i], out - in + k - a.pad_low[i] - 1);
  }
  o.strides = a.kernel_dilation;
  o.input_dilation = a.input_dilation;
  o.kernel_dilation = a.strides;
  o.feature_group_size = a.batch_groups;
  o.batch_group_size = a.feature_groups;
  o.input_permutation = o.kernel_permutation = o.output_permutation = swap01(x.rank());
  o.precision = a.precision;
  return conv(x, g, o);
}

WindowOptions window_options(const WindowAttrs& a) {
  WindowOptions o;
  o.strides = a.strides;
  o.window_dilations = a.window_dilation;
  for (int i = 0; i < a.pad_low.size(); ++i) o.padding.emplace_back(a.pad_low[i], a.pad_high[i]);
  return o;
}

// window_sum's transpose (JAX's _reduce_window_sum_transpose_rule): g spread back by a pad (interior = stride
// - 1) and a window_sum with stride 1.
Tensor window_sum_transpose(const WindowAttrs& a, const Shape& x_shape, const Tensor& g) {
  std::vector<PadConfig> config;
  for (int i = 0; i < x_shape.size(); ++i) {
    const std::int64_t k = dilate(a.window[i], a.window_dilation[i]);
    const std::int64_t before = k - a.pad_low[i] - 1;
    const std::int64_t after = x_shape[i] + k - 1 - dilate(g.dim(i), a.strides[i]) - before;
    config.push_back({before, after, a.strides[i] - 1});
  }
  WindowOptions o;
  o.window_dilations = a.window_dilation;
  return window_sum(pad(g, 0.0, config), a.window, o);
}

// d out / d source of window_scatter: each window's cotangent is g at the element the window selected. Per window
// offset k (row-major), the strided slice of x at that offset; the last offset equal to the window's max (min),
// or NaN, among the in-bounds ones takes g there (a later match replaces an earlier one: the kernels' tie rule).
Tensor window_scatter_source_grad(const WindowAttrs& a, const Tensor& x, const Tensor& g, const Shape& windows) {
  const bool is_max = a.fn == ReduceFn::max;
  const WindowOptions o = window_options(a);
  const Tensor best = is_max ? window_max(x, a.window, o) : window_min(x, a.window, o);
  std::vector<PadConfig> config;
  for (int i = 0; i < x.rank(); ++i) config.push_back({a.pad_low[i], a.pad_high[i], 0});
  const Tensor xp = pad(x, 0.0, config), gp = pad(g, 0.0, config);
  const Tensor inside = pad(broadcast(scalar_like(1.0, x), x.shape()), 0.0, config);
  Tensor result = broadcast(scalar_like(0.0, g), windows);
  Shape starts = Shape::filled(x.rank(), 0);
  auto at = [&](const Tensor& t) { return slice(t, starts, windows, a.strides); };
  while (true) {
    const Tensor here = at(xp);
    const Tensor chosen = logical_and(not_equal(at(inside), 0.0), logical_or(equal(here, best), is_nan(here)));
    result = select(chosen, at(gp), result);
    int d = x.rank() - 1;  // next window offset, row-major
    for (; d >= 0; --d) {
      starts[d] += a.window_dilation[d];
      if (starts[d] < a.window[d] * a.window_dilation[d]) break;
      starts[d] = 0;
    }
    if (d < 0) return result;
  }
}

}  // namespace

std::vector<Tensor> conv_vjp(const Vjp& v) {
  const Tensor& x = v.x[0];
  const Tensor& w = v.x[1];
  const ConvAttrs& a = v.call.attrs_as<ConvAttrs>();
  return {v.needs[0] ? conv_input_grad(a, x, w, v.g) : Tensor(),
          v.needs[1] ? conv_kernel_grad(a, x, w, v.g) : Tensor()};
}

std::vector<Tensor> window_vjp(const Vjp& v) {
  const WindowAttrs& a = v.call.attrs_as<WindowAttrs>();
  const Tensor& x = v.x[0];
  if (v.call.code == OpCode::window_scatter) {
    // x only chooses positions (no gradient); out = init + scattered source.
    return {Tensor(), v.needs[1] ? window_scatter_source_grad(a, x, v.g, v.x[1].shape()) : Tensor(),
            v.needs[2] ? sum(v.g) : Tensor()};
  }
  switch (a.fn) {
    case ReduceFn::sum:
      return {window_sum_transpose(a, x.shape(), v.g)};
    // d prod / dx_i = sum over the windows holding x_i of g * prod / x_i (NaN where x_i = 0, as reduce's rule).
    case ReduceFn::product:
      return {window_sum_transpose(a, x.shape(), v.g * v.y) / x};
    case ReduceFn::max:
      return {window_scatter_max(x, v.g, scalar_like(0.0, v.g), a.window, window_options(a))};
    case ReduceFn::min:
      return {window_scatter_min(x, v.g, scalar_like(0.0, v.g), a.window, window_options(a))};
    default:
      return {Tensor()};
  }
}

}  // namespace nxv::rules
