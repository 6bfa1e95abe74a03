// Residency: a training step's value_and_grad runs entirely on Vulkan — zero host fallbacks — in f32 and
// f64. (The original nx_vulkan silently ran its training step on the CPU; this test is why that can't recur.)
#include <gtest/gtest.h>

#include "grad/check_grads.hpp"
#include "nxv/defn.hpp"
#include "nxv/fallback.hpp"
#include "nxv/grad.hpp"
#include "nxv/vulkan.hpp"

namespace nxv {
namespace {

// 784 -> 128 relu -> 10, softmax cross-entropy (log-sum-exp with the max subtracted), batch 32.
Tensor mlp_loss(const Params& p, const Tensor& images, const Tensor& labels) {
  const Tensor hidden = max(dot(images, p.at("w1")) + p.at("b1"), 0.0);
  const Tensor logits = dot(hidden, p.at("w2")) + p.at("b2");
  const Tensor shifted = logits - stop_gradient(reduce_max(logits, Axes{1}, true));
  const Tensor log_probs = shifted - log(sum(exp(shifted), Axes{1}, true));
  const Tensor one_hot = as_type(equal(expand_dims(labels, 1), iota({1, 10}, 1, labels.dtype(), labels.backend())),
                                 logits.dtype());
  return negate(mean(sum(one_hot * log_probs, Axes{1})));
}

struct Batch {
  Params params;
  Tensor images, labels;
};

// Made on the reference backend and moved, so that only the gradient is under test here.
Batch make_batch(DType dtype, Backend& backend) {
  Backend& host = reference_backend();
  Params p{{"w1", normal(key(1), {784, 128}, dtype, 0.0, 0.05, host).to(backend)},
           {"b1", zeros({128}, dtype, host).to(backend)},
           {"w2", normal(key(2), {128, 10}, dtype, 0.0, 0.1, host).to(backend)},
           {"b2", zeros({10}, dtype, host).to(backend)}};
  const Tensor images = uniform(key(3), {32, 784}, dtype, 0.0, 1.0, host).to(backend);
  const Tensor labels = remainder(iota({32}, 0, DType::s64, host) * 7, 10).to(backend);
  return {std::move(p), images, labels};
}

class GradResidency : public ::testing::TestWithParam<DType> {};

TEST_P(GradResidency, MlpValueAndGradHasNoHostFallbacks) {
  if (!vulkan::available()) GTEST_SKIP() << "no usable Vulkan device";
  Backend& vk = vulkan::backend();
  const Batch b = make_batch(GetParam(), vk);
  std::pair<Tensor, Params> result;
  const std::uint64_t fallbacks = fallback::count_total([&] {
    result = value_and_grad(mlp_loss)(b.params, b.images, b.labels);
    vulkan::flush();
  });
  EXPECT_EQ(fallbacks, 0u);
  for (const auto& [name, g] : result.second) EXPECT_EQ(&g.backend(), &vk) << name;
  // The jitted step (traced once, replayed by the evaluator) stays on the GPU as well.
  auto step = jit(value_and_grad(mlp_loss));
  EXPECT_EQ(fallback::count_total([&] {
              step(b.params, b.images, b.labels);
              step(b.params, b.images, b.labels);
              vulkan::flush();
            }),
            0u);
  // And the numbers agree with the reference backend.
  Params on_host;
  for (const auto& [name, t] : b.params) on_host[name] = t.to_host();
  const auto [ref_value, ref_grads] = value_and_grad(mlp_loss)(on_host, b.images.to_host(), b.labels.to_host());
  const bool f32 = GetParam() == DType::f32;
  EXPECT_NEAR(result.first.item(), ref_value.item(), f32 ? 1e-5 : 1e-12);
  for (const auto& [name, g] : ref_grads) {
    const std::vector<double> want = testing::detail::values_f64(g), got = testing::detail::values_f64(result.second[name]);
    EXPECT_TRUE(testing::detail::compare(got, want, f32 ? 1e-3 : 1e-9, f32 ? 1e-6 : 1e-14, name));
  }
}

INSTANTIATE_TEST_SUITE_P(GradMlp, GradResidency, ::testing::Values(DType::f32, DType::f64),
                         [](const ::testing::TestParamInfo<DType>& info) { return std::string(name(info.param)); });

}  // namespace
}  // namespace nxv
