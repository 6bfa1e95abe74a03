// Precision::fast for conv (include/nxv/conv.hpp, include/nxv/precision.hpp) on the Vulkan backend: every output
// within gamma(K) * sum_k |x_k w_k| of the exact value over 1-3 spatial axes, strides, padding (negative too),
// both dilations, feature and batch groups, contractions of one and many chunks (split and unsplit), f32, f64 and
// the 16-bit floats (which convolve in f32 and round once); the same bits run after run; inf and NaN where exact
// has them; the gradient convs keep the forward's mode; fused (jit) = eager within the mode. The exact mode's bit
// parity is conv_test.cpp's and the parity suites'.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "nxv/conv.hpp"
#include "nxv/defn.hpp"
#include "nxv/grad.hpp"
#include "support/conv_split.hpp"
#include "support/kernels.hpp"
#include "vulkan/kernels/kernels.hpp"

namespace nxv::vulkan::test {
namespace {

using kernels::ConvSplit;
using nxv::testing::test_uniform;

struct Case {
  std::string name;
  Shape x, w;
  ConvOptions options;
};

std::vector<Case> cases() {
  std::vector<Case> c;
  c.push_back({"1d", {2, 3, 17}, {4, 3, 5}, {}});
  c.push_back({"2d-same-strided", {2, 5, 15, 16}, {7, 5, 3, 3}, {.strides = {2, 1}, .padding = {{1, 1}, {1, 1}}}});
  c.push_back({"2d-dilated",
               {1, 4, 12, 11},
               {3, 4, 3, 2},
               {.padding = {{2, 0}, {-1, 3}}, .input_dilation = {2, 1}, .kernel_dilation = {1, 2}}});
  c.push_back({"3d", {1, 2, 5, 6, 7}, {3, 2, 2, 3, 2}, {.padding = {{1, 0}, {0, 1}, {1, 1}}}});
  c.push_back({"feature-groups", {2, 6, 9, 9}, {9, 2, 3, 3}, {.feature_group_size = 3}});
  c.push_back({"batch-groups", {4, 3, 8, 8}, {6, 3, 3, 3}, {.batch_group_size = 2}});
  // 12 * 7 * 7 = 588 terms: three chunks of 256, 256 and 76.
  c.push_back({"long", {2, 12, 20, 20}, {5, 12, 7, 7}, {.padding = {{3, 3}, {3, 3}}}});
  // A kernel gradient's shape: few outputs, 4 * 26 * 26 = 2704 terms.
  c.push_back({"few-outputs-long", {3, 4, 28, 28}, {2, 4, 26, 26}, {}});
  return c;
}

// The f64 conv of the values as doubles: exact products of f32 (or 16-bit) values, summed with f64's rounding.
Tensor oracle(const Tensor& x, const Tensor& w, const ConvOptions& options) {
  ConvOptions o = options;
  o.precision = Precision::exact;
  return conv(as_type(x.to_host(), DType::f64), as_type(w.to_host(), DType::f64), o);
}

// Every output of `got` within gamma(K) * sum|x_k w_k| of the oracle's value (16-bit results: plus their own unit
// roundoff of the result and half their smallest subnormal; f64: twice, the oracle's own error being as large).
void expect_within_bound(const Tensor& x, const Tensor& w, const ConvOptions& options, const Tensor& got,
                         const std::string& what) {
  const DType t = got.dtype();
  // K: the terms of one output, the kernel's elements per output channel (canonical axis 0).
  const std::int64_t out_channels = w.dim(options.kernel_permutation ? (*options.kernel_permutation)[0] : 0);
  const std::int64_t k = num_elements(w.shape()) / out_channels;
  const double u = t == DType::f64 ? 0x1p-53 : 0x1p-24;
  const double gamma = static_cast<double>(k) * u / (1.0 - static_cast<double>(k) * u) * (t == DType::f64 ? 2 : 1);
  const double rounding = t == DType::f16 ? 0x1p-11 : t == DType::bf16 ? 0x1p-8 : 0;
  const double underflow = t == DType::f16 ? 0x1p-25 : t == DType::bf16 ? 0x1p-134 : 0;
  const std::vector<double> exact = oracle(x, w, options).to_vector<double>();
  const std::vector<double> magnitude = oracle(abs(x.to_host()), abs(w.to_host()), options).to_vector<double>();
  const std::vector<double> values = as_type(got.to_host(), DType::f64).to_vector<double>();
  ASSERT_EQ(values.size(), exact.size()) << what;
  int reported = 0;
  for (std::size_t i = 0; i < values.size(); ++i) {
    const double accumulated = gamma * magnitude[i];
    const double bound = accumulated + rounding * (std::abs(exact[i]) + accumulated) + underflow;
    const double error = std::abs(values[i] - exact[i]);
    if (!(error <= bound) && reported++ < 3)
      ADD_FAILURE() << what << " output " << i << ": " << values[i] << " is " << error << " from " << exact[i]
                    << ", more than the bound " << bound;
  }
}

TEST(VulkanConvFast, EveryOptionAndSplitIsWithinTheBound) {
  NXV_REQUIRE_VULKAN();
  for (ConvSplit policy : {ConvSplit::never, ConvSplit::always, ConvSplit::automatic}) {
    const SplitPolicy scope(policy);
    std::uint64_t seed = 1;
    for (const Case& c : cases())
      for (DType t : {DType::f32, DType::f64, DType::bf16, DType::f16}) {
        const Tensor x = as_type(test_uniform(DType::f64, c.x, seed++, -4, 4), t);
        const Tensor w = as_type(test_uniform(DType::f64, c.w, seed++, -4, 4), t);
        ConvOptions o = c.options;
        o.precision = Precision::fast;
        const Tensor got = conv(x.to(vulkan::backend()), w.to(vulkan::backend()), o);
        EXPECT_EQ(got.dtype(), t);
        expect_within_bound(x, w, o, got, c.name + " " + std::string(name(t)));
      }
  }
}

TEST(VulkanConvFast, TheSameBitsRunAfterRun) {
  NXV_REQUIRE_VULKAN();
  for (const Case& c : cases()) {
    const Tensor x = test_uniform(DType::f32, c.x, 3, -2, 2).to(vulkan::backend());
    const Tensor w = test_uniform(DType::f32, c.w, 4, -2, 2).to(vulkan::backend());
    ConvOptions o = c.options;
    o.precision = Precision::fast;
    EXPECT_EQ(testing::compare_exact(conv(x, w, o).to_host(), conv(x, w, o).to_host()), "") << c.name;
  }
}

int value_class(double v) { return std::isnan(v) ? 0 : std::isinf(v) ? (v > 0 ? 1 : 2) : 3; }

TEST(VulkanConvFast, InfinitiesAndNaNsComeOutWhereTheExactModeHasThem) {
  NXV_REQUIRE_VULKAN();
  for (DType t : {DType::f32, DType::f64}) {
    std::vector<double> xv(2 * 3 * 10 * 10);
    std::uint64_t state = 5;
    for (std::size_t i = 0; i < xv.size(); ++i) {
      state = state * 6364136223846793005ULL + 1442695040888963407ULL;
      xv[i] = static_cast<double>(state >> 11) * 0x1p-53 * 4 - 2;
      if (i % 37 == 3) xv[i] = (i / 37) % 3 == 0 ? std::nan("") : (i / 37) % 3 == 1 ? HUGE_VAL : -HUGE_VAL;
    }
    const Tensor x = as_type(tensor(xv, {2, 3, 10, 10}, reference_backend()), t);
    const Tensor w = as_type(test_uniform(DType::f64, {4, 3, 3, 3}, 6, -1, 1), t);
    const ConvOptions o{.padding = {{1, 1}, {1, 1}}};
    ConvOptions exact = o, fast = o;
    exact.precision = Precision::exact;
    fast.precision = Precision::fast;
    const std::vector<double> want = as_type(conv(x, w, exact), DType::f64).to_vector<double>();
    const std::vector<double> got =
        as_type(conv(x.to(vulkan::backend()), w.to(vulkan::backend()), fast).to_host(), DType::f64).to_vector<double>();
    int special = 0;
    for (std::size_t i = 0; i < want.size(); ++i) {
      special += value_class(want[i]) != 3;
      EXPECT_EQ(value_class(got[i]), value_class(want[i])) << name(t) << " output " << i << ": " << got[i];
    }
    EXPECT_GT(special, 0) << "the test data should give infinities and NaNs";
  }
}

// The conv nodes of a traced function and how many of them are fast.
std::pair<int, int> conv_nodes(const std::string& graph) {
  int convs = 0, fast = 0;
  for (std::size_t at = graph.find("conv("); at != std::string::npos; at = graph.find("conv(", at + 1)) {
    ++convs;
    const std::size_t close = graph.find('\n', at);
    if (graph.substr(at, close - at).find(", fast)") != std::string::npos) ++fast;
  }
  return {convs, fast};
}

TEST(ConvPrecision, TheCallTheScopeAndTheGradientsDecideTheMode) {
  const Tensor x = test_uniform(DType::f32, {2, 3, 8, 8}, 1, -1, 1),
               w = test_uniform(DType::f32, {4, 3, 3, 3}, 2, -1, 1);
  auto scoped = [](const Tensor& x, const Tensor& w) { return sum(conv(x, w)); };
  auto named = [](const Tensor& x, const Tensor& w) {
    return sum(conv(x, w, {.strides = {2, 1}, .precision = Precision::fast}));
  };
  // Gradients with respect to the input (first argument) and to the kernel (first argument of the swapped call).
  auto by_kernel = [](auto f) { return [f](const Tensor& w, const Tensor& x) { return f(x, w); }; };
  {
    const PrecisionScope exact(Precision::exact);
    EXPECT_EQ(conv_nodes(to_string(trace(scoped, x, w))), std::make_pair(1, 0));
    // The call's mode wins over the scope's, and the gradients' convs keep it.
    EXPECT_EQ(conv_nodes(to_string(trace(named, x, w))), std::make_pair(1, 1));
    for (const std::string& g : {to_string(trace(grad(named), x, w)), to_string(trace(grad(by_kernel(named)), w, x))}) {
      const auto [convs, fast] = conv_nodes(g);
      EXPECT_GE(convs, 1) << g;
      EXPECT_EQ(fast, convs) << g;
    }
  }
  const PrecisionScope fast(Precision::fast);
  EXPECT_EQ(conv_nodes(to_string(trace(scoped, x, w))), std::make_pair(1, 1));
  const auto [convs, fast_convs] = conv_nodes(to_string(trace(grad(by_kernel(scoped)), w, x)));
  EXPECT_GE(convs, 1);
  EXPECT_EQ(fast_convs, convs);
}

TEST(ConvPrecision, TheReferenceBackendComputesTheExactOrderInBothModes) {
  const Tensor x = test_uniform(DType::f32, {2, 12, 20, 20}, 3, -3, 3),
               w = test_uniform(DType::f32, {5, 12, 7, 7}, 4, -3, 3);
  EXPECT_EQ(
      testing::compare_exact(conv(x, w, {.precision = Precision::exact}), conv(x, w, {.precision = Precision::fast})),
      "");
}

TEST(VulkanConvFast, FusedEqualsEagerAndTheGradientIsWithinTheBound) {
  NXV_REQUIRE_VULKAN();
  const Tensor x = test_uniform(DType::f32, {4, 6, 12, 12}, 5, -2, 2).to(vulkan::backend());
  const Tensor w = test_uniform(DType::f32, {8, 6, 3, 3}, 6, -2, 2).to(vulkan::backend());
  const Tensor b = test_uniform(DType::f32, {1, 8, 1, 1}, 7, -2, 2).to(vulkan::backend());
  auto layer = [](const Tensor& x, const Tensor& w, const Tensor& b) {
    return max(conv(x, w, {.padding = {{1, 1}, {1, 1}}}) + b, 0.0);
  };
  for (Precision mode : {Precision::exact, Precision::fast}) {
    const PrecisionScope scope(mode);
    EXPECT_EQ(testing::compare_exact(layer(x, w, b).to_host(), jit(layer)(x, w, b).to_host()), "") << to_string(mode);
  }
  // The kernel gradient of sum(conv(x, w)) is the conv of x with a cotangent of ones: its bound with K = N * H * W.
  const PrecisionScope fast(Precision::fast);
  auto loss = [](const Tensor& w, const Tensor& x) { return sum(conv(x, w, {.padding = {{1, 1}, {1, 1}}})); };
  const Tensor dw = grad(loss)(w, x);
  const Tensor ones = full({4, 8, 12, 12}, 1.0, DType::f32);
  const ConvOptions o{.padding = {{1, 1}, {1, 1}},
                      .feature_group_size = 1,
                      .input_permutation = Axes{1, 0, 2, 3},
                      .kernel_permutation = Axes{1, 0, 2, 3},
                      .output_permutation = Axes{1, 0, 2, 3},
                      .precision = Precision::fast};
  expect_within_bound(x.to_host(), ones, o, dw, "kernel gradient");
}

}  // namespace
}  // namespace nxv::vulkan::test
