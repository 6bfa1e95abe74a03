// Residency: a training step's value_and_grad runs entirely on Vulkan — zero host fallbacks — in f32 and
// f64. (The original nx_vulkan silently ran its training step on the CPU; this test is why that can't recur.)
#include <gtest/gtest.h>

#include "nxv/defn.hpp"
#include "nxv/fallback.hpp"
#include "nxv/grad.hpp"
#include "nxv/vulkan.hpp"
#include "support/grad_checks.hpp"
#include "support/models.hpp"

namespace nxv {
namespace {

// The MLP 784 -> 128 relu -> 10 with softmax cross-entropy, batch 32 (tests/support/models.hpp).
namespace models = testing::models;
using models::mlp_loss;

struct Batch {
  Params params;
  Tensor images, labels;
};

// Made on the reference backend and moved, so that only the gradient is under test here.
Batch make_batch(DType dtype, Backend& backend) {
  Backend& host = reference_backend();
  const Tensor images = uniform(key(3), {models::kBatch, 784}, dtype, 0.0, 1.0, host).to(backend);
  const Tensor labels = remainder(iota({models::kBatch}, 0, DType::s64, host) * 7, 10).to(backend);
  return {models::moved(models::make_params(models::k_mlp, dtype), backend), images, labels};
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
  // The jitted step (traced once, run by the fusion compiler) stays on the GPU as well.
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
    const std::vector<double> want = testing::detail::values_f64(g),
                              got = testing::detail::values_f64(result.second[name]);
    EXPECT_TRUE(testing::detail::compare(got, want, f32 ? 1e-3 : 1e-9, f32 ? 1e-6 : 1e-14, name));
  }
}

INSTANTIATE_TEST_SUITE_P(GradMlp, GradResidency, ::testing::Values(DType::f32, DType::f64),
                         [](const ::testing::TestParamInfo<DType>& info) { return std::string(name(info.param)); });

}  // namespace
}  // namespace nxv
