// conv2d, max_pool2d and avg_pool2d over NCHW tensors (nxv/conv.hpp does the work), as functions and as layers.
#include "nn/layer_helpers.hpp"

namespace nxv::nn {

namespace {

Shape dilated(const Shape& window, const Shape& dilation) {
  Shape out;
  for (int i = 0; i < window.size(); ++i) out.push_back((window[i] - 1) * dilation[i] + 1);
  return out;
}

void check_2d(const char* op, const char* what, const Shape& s) {
  NXV_CHECK(s.size() == 2 && s[0] > 0 && s[1] > 0, op, "got ", what, " ", to_string(s), ", expected two sizes >= 1");
}

// The window options of a 2-d pooling over NCHW: the batch and channel axes have windows of 1.
WindowOptions pool_window_options(const Shape& window, const Pool2dOptions& o) {
  const Shape strides = o.strides.empty() ? window : o.strides;
  check_2d("pool2d", "window", window);
  check_2d("pool2d", "strides", strides);
  WindowOptions w;
  w.strides = {1, 1, strides[0], strides[1]};
  w.padding = resolve_padding(o.padding, window);
  w.padding.insert(w.padding.begin(), 2, {0, 0});
  return w;
}

void check_nchw(const char* op, const Tensor& x) {
  NXV_CHECK(x.rank() == 4, op, "got x ", to_string(x.type()), ", expected NCHW [N, C, H, W]");
}

}  // namespace

Padding resolve_padding(const PaddingSpec& spec, const Shape& window) {
  if (const Padding* explicit_pads = std::get_if<Padding>(&spec)) {
    NXV_CHECK(static_cast<int>(explicit_pads->size()) == window.size(), "padding", "got ", explicit_pads->size(),
              " (low, high) pairs for ", window.size(), " spatial axes");
    return *explicit_pads;
  }
  return std::get<PaddingMode>(spec) == PaddingMode::same ? padding_same(window) : padding_valid(window.size());
}

Tensor conv2d(const Tensor& x, const Tensor& kernel, const Tensor& bias, const Conv2dOptions& o) {
  check_nchw("conv2d", x);
  NXV_CHECK(kernel.rank() == 4, "conv2d", "got kernel ", to_string(kernel.type()), ", expected OIHW [O, I, kh, kw]");
  ConvOptions c;
  c.strides = Axes(o.strides.begin(), o.strides.end());
  c.input_dilation = Axes(o.input_dilation.begin(), o.input_dilation.end());
  c.kernel_dilation = Axes(o.kernel_dilation.begin(), o.kernel_dilation.end());
  c.padding = resolve_padding(o.padding, dilated({kernel.dim(2), kernel.dim(3)}, o.kernel_dilation));
  c.feature_group_size = o.feature_group_size;
  c.batch_group_size = o.batch_group_size;
  const Tensor y = conv(x, kernel, c);
  if (!bias.defined()) return y;
  NXV_CHECK(bias.shape() == Shape{kernel.dim(0)}, "conv2d", "got bias ", to_string(bias.type()), " for kernel ",
            to_string(kernel.type()), ", expected [", kernel.dim(0), "]");
  return y + reshape(bias, {1, kernel.dim(0), 1, 1});
}

Tensor max_pool2d(const Tensor& x, const Shape& window, const Pool2dOptions& options) {
  check_nchw("max_pool2d", x);
  return window_max(x, {1, 1, window[0], window[1]}, pool_window_options(window, options));
}

Tensor avg_pool2d(const Tensor& x, const Shape& window, const Pool2dOptions& options) {
  check_nchw("avg_pool2d", x);
  return window_mean(x, {1, 1, window[0], window[1]}, pool_window_options(window, options));
}

Layer conv2d(std::int64_t filters, const Shape& kernel_size, const Conv2dOptions& options) {
  NXV_CHECK(filters > 0, "nn::conv2d", "got ", filters, " filters, expected > 0");
  check_2d("nn::conv2d", "kernel size", kernel_size);
  Layer layer{"conv", {}, {}};
  layer.init = [=](Key key, const Shape& in, DType dtype, Backend& backend, Params& params, Params&) {
    NXV_CHECK(in.size() == 4 && in[1] % options.feature_group_size == 0, "nn::conv2d", "got inputs of shape ",
              to_string(in), ", expected NCHW with C divisible by feature_group_size ", options.feature_group_size);
    const auto [k_kernel, k_bias] = split(key);
    const Shape kernel_shape{filters, in[1] / options.feature_group_size, kernel_size[0], kernel_size[1]};
    params["kernel"] = options.kernel_init(k_kernel, kernel_shape, dtype, backend);
    if (options.use_bias) params["bias"] = options.bias_init(k_bias, {filters}, dtype, backend);
  };
  layer.apply = [options](const Params& p, const Params&, const Tensor& x, const ApplyOptions&, Params&) {
    const auto bias = p.find("bias");
    return conv2d(x, p.at("kernel"), bias == p.end() ? Tensor() : bias->second, options);
  };
  return layer;
}

Layer max_pool2d(const Shape& window, const Pool2dOptions& options) {
  return stateless("max_pool2d", [=](const Tensor& x) { return max_pool2d(x, window, options); });
}

Layer avg_pool2d(const Shape& window, const Pool2dOptions& options) {
  return stateless("avg_pool2d", [=](const Tensor& x) { return avg_pool2d(x, window, options); });
}

}  // namespace nxv::nn
