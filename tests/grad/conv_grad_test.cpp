// Gradients of conv and the window ops: finite differences (check_grads, reference backend, f64) for every conv
// option and window op, and gradient parity of Vulkan against the reference in f32 and f64 (bit-identical: the
// tolerance is zero).
#include "nxv/conv.hpp"
#include "nxv/vulkan.hpp"
#include "support/grad_checks.hpp"

namespace nxv::testing {
namespace {

Tensor data(const Shape& s, std::uint64_t seed) {
  return uniform(key(seed), s, DType::f64, -1.0, 1.0, reference_backend());
}

struct ConvGradCase {
  const char* name;
  Shape x, w;
  ConvOptions options;
};

ConvOptions with(auto&& set) {
  ConvOptions o;
  set(o);
  return o;
}

const ConvGradCase k_conv_cases[] = {
    {"1d-plain", {2, 2, 7}, {3, 2, 3}, {}},
    {"2d-strided-padded", {2, 2, 6, 5}, {3, 2, 3, 2}, with([](ConvOptions& o) {
       o.strides = {2, 2};
       o.padding = {{1, 1}, {1, 0}};
     })},
    {"stride-not-dividing", {1, 1, 8, 7}, {2, 1, 3, 3}, with([](ConvOptions& o) {
       o.strides = {3, 2};
     })},
    {"input-dilation", {1, 2, 4, 3}, {2, 2, 2, 2}, with([](ConvOptions& o) {
       o.input_dilation = {2, 3};
       o.padding = {{1, 0}, {0, 2}};
     })},
    {"kernel-dilation", {1, 2, 7, 7}, {2, 2, 2, 3}, with([](ConvOptions& o) {
       o.kernel_dilation = {3, 2};
     })},
    {"negative-padding", {1, 1, 7, 6}, {2, 1, 2, 2}, with([](ConvOptions& o) {
       o.padding = {{-1, 1}, {2, -1}};
     })},
    {"grouped", {2, 4, 5, 5}, {6, 2, 3, 3}, with([](ConvOptions& o) { o.feature_group_size = 2; })},
    {"depthwise", {1, 3, 5, 5}, {6, 1, 3, 3}, with([](ConvOptions& o) {
       o.feature_group_size = 3;
       o.padding = {{1, 1}, {1, 1}};
     })},
    {"batch-groups", {4, 2, 5, 5}, {4, 2, 2, 2}, with([](ConvOptions& o) { o.batch_group_size = 2; })},
    {"3d", {1, 2, 4, 4, 3}, {2, 2, 2, 3, 2}, with([](ConvOptions& o) {
       o.strides = {2, 1, 1};
       o.padding = {{1, 0}, {0, 1}, {1, 1}};
     })},
    {"nhwc", {2, 5, 5, 2}, {3, 3, 2, 3}, with([](ConvOptions& o) {
       o.input_permutation = Axes{0, 3, 1, 2};
       o.kernel_permutation = Axes{3, 2, 0, 1};
       o.output_permutation = Axes{0, 3, 1, 2};
       o.strides = {2, 1};
     })},
};

MultiFn conv_fn(const ConvOptions& o) {
  return [o](const std::vector<Tensor>& xs) { return conv(xs[0], xs[1], o); };
}

TEST(ConvGrad, FiniteDifferencesForEveryOption) {
  for (const ConvGradCase& c : k_conv_cases) {
    SCOPED_TRACE(c.name);
    EXPECT_TRUE(check_grads(conv_fn(c.options), {data(c.x, 501), data(c.w, 502)}));
  }
}

TEST(ConvGrad, VulkanMatchesTheReferenceBitForBit) {
  if (!vulkan::available()) GTEST_SKIP() << "no Vulkan device";
  for (DType t : {DType::f32, DType::f64})
    for (const ConvGradCase& c : k_conv_cases) {
      SCOPED_TRACE(std::string(c.name) + " " + std::string(name(t)));
      EXPECT_TRUE(grad_parity(conv_fn(c.options), {data(c.x, 503), data(c.w, 504)}, vulkan::backend(), t, 0, 0));
    }
}

struct WindowGradCase {
  const char* name;
  Shape x, window;
  WindowOptions options;
};

WindowOptions window_with(auto&& set) {
  WindowOptions o;
  set(o);
  return o;
}

const WindowGradCase k_window_cases[] = {
    {"pool", {2, 2, 4, 6}, {1, 1, 2, 2}, window_with([](WindowOptions& o) {
       o.strides = {1, 1, 2, 2};
     })},
    {"overlap-padded", {1, 2, 5, 5}, {1, 1, 3, 3}, window_with([](WindowOptions& o) {
       o.padding = {{0, 0}, {0, 0}, {1, 1}, {2, 0}};
     })},
    {"strided-dilated", {2, 9, 7}, {2, 2, 2}, window_with([](WindowOptions& o) {
       o.strides = {1, 2, 2};
       o.window_dilations = {1, 2, 3};
       o.padding = {{0, 1}, {1, 0}, {0, 0}};
     })},
};

using WindowFn = Tensor (*)(const Tensor&, const Shape&, const WindowOptions&);

TEST(WindowGrad, FiniteDifferencesForEveryReduction) {
  for (const WindowGradCase& c : k_window_cases) {
    for (WindowFn op : {WindowFn(window_sum), WindowFn(window_mean), WindowFn(window_max), WindowFn(window_min),
                        WindowFn(window_product)}) {
      SCOPED_TRACE(c.name);
      // Random values almost surely have no ties, so max/min are differentiable there.
      EXPECT_TRUE(
          check_grads([&](const std::vector<Tensor>& xs) { return op(xs[0], c.window, c.options); }, {data(c.x, 505)}));
    }
  }
}

TEST(WindowGrad, ScatterSourceAndInitGradients) {
  for (const WindowGradCase& c : k_window_cases) {
    SCOPED_TRACE(c.name);
    const Tensor x = data(c.x, 506);
    const Shape windows = window_max(x, c.window, c.options).shape();
    for (bool is_max : {true, false}) {
      auto fn = [&](const std::vector<Tensor>& xs) {
        return is_max ? window_scatter_max(x, xs[0], xs[1], c.window, c.options)
                      : window_scatter_min(x, xs[0], xs[1], c.window, c.options);
      };
      EXPECT_TRUE(check_grads(fn, {data(windows, 507), scalar(0.5, DType::f64, reference_backend())}));
    }
  }
}

TEST(WindowGrad, MaxPoolGradientGoesToTheLastOfTiedElements) {
  // An all-zero input (relu's dead units): each 2x2 window sends its cotangent to its bottom-right element, the
  // last in row-major window order (Nx's reference's tie rule).
  WindowOptions o;
  o.strides = {2, 2};
  const auto pooled_sum = [&](const Tensor& t) { return sum(window_max(t, {2, 2}, o)); };
  const std::vector<float> want{0, 0, 0, 0, 0, 1, 0, 1, 0, 0, 0, 0, 0, 1, 0, 1};
  EXPECT_EQ(grad(pooled_sum)(zeros({4, 4}, DType::f32, reference_backend())).to_vector<float>(), want);
  if (vulkan::available())
    EXPECT_EQ(grad(pooled_sum)(zeros({4, 4}, DType::f32, vulkan::backend())).to_vector<float>(), want);
}

TEST(WindowGrad, VulkanMatchesTheReferenceBitForBit) {
  if (!vulkan::available()) GTEST_SKIP() << "no Vulkan device";
  for (DType t : {DType::f32, DType::f64})
    for (const WindowGradCase& c : k_window_cases)
      for (WindowFn op : {WindowFn(window_sum), WindowFn(window_max), WindowFn(window_min), WindowFn(window_product)}) {
        SCOPED_TRACE(std::string(c.name) + " " + std::string(name(t)));
        EXPECT_TRUE(grad_parity([&](const std::vector<Tensor>& xs) { return op(max(xs[0], 0.0), c.window, c.options); },
                                {data(c.x, 508)}, vulkan::backend(), t, 0, 0));
      }
}

}  // namespace
}  // namespace nxv::testing
