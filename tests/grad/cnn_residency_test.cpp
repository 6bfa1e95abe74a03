// Residency of the CNN training steps: value_and_grad of LeNet, a strided CNN and the MLP, batch 32
// on 28x28 inputs, in f32 and f64, runs on Vulkan with zero host fallbacks, and its loss and every gradient are
// bit-identical to the reference backend's. Prints the fallback counts and the eager step times.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

#include "nxv/conv.hpp"
#include "nxv/defn.hpp"
#include "nxv/fallback.hpp"
#include "nxv/grad.hpp"
#include "nxv/vulkan.hpp"
#include "support/grad_checks.hpp"
#include "support/models.hpp"

namespace nxv {
namespace {

using namespace testing::models;

std::string first_difference(const Tensor& got, const Tensor& want) {
  const std::vector<double> g = testing::detail::values_f64(got), w = testing::detail::values_f64(want);
  for (std::size_t i = 0; i < g.size(); ++i)
    if (g[i] != w[i] && !(std::isnan(g[i]) && std::isnan(w[i])))
      return "element " + std::to_string(i) + ": " + std::to_string(g[i]) + " vs " + std::to_string(w[i]);
  return "";
}

class CnnResidency : public ::testing::TestWithParam<std::tuple<int, DType>> {};

TEST_P(CnnResidency, ValueAndGradIsResidentAndMatchesTheReference) {
  if (!vulkan::available()) GTEST_SKIP() << "no usable Vulkan device";
  const Model& m = k_models[std::get<0>(GetParam())];
  const DType dtype = std::get<1>(GetParam());
  Backend& vk = vulkan::backend();
  Backend& host = reference_backend();
  const Params params = make_params(m, dtype);
  const Tensor images = uniform(key(3), {kBatch, 1, 28, 28}, dtype, 0.0, 1.0, host);
  const Tensor labels = remainder(iota({kBatch}, 0, DType::s64, host) * 7, 10);
  const Params on_vk = moved(params, vk);
  const Tensor images_vk = images.to(vk), labels_vk = labels.to(vk);

  std::pair<Tensor, Params> got;
  const fallback::Counts counts = fallback::count([&] {
    got = value_and_grad(m.loss)(on_vk, images_vk, labels_vk);
    vulkan::flush();
  });
  std::uint64_t total = 0;
  std::string listed;
  for (const auto& [op, n] : counts) {
    total += n;
    listed += " " + op + "=" + std::to_string(n);
  }
  std::printf("[ residency ] %s %s: %llu host fallbacks%s\n", m.name, std::string(name(dtype)).c_str(),
              static_cast<unsigned long long>(total), listed.c_str());
  EXPECT_EQ(total, 0u) << listed;
  for (const auto& [param, g] : got.second) EXPECT_EQ(&g.backend(), &vk) << param;

  const auto want = value_and_grad(m.loss)(params, images, labels);
  EXPECT_EQ(first_difference(got.first, want.first), "") << "loss";
  for (const auto& [param, g] : want.second) EXPECT_EQ(first_difference(got.second.at(param), g), "") << param;
}

INSTANTIATE_TEST_SUITE_P(Models, CnnResidency,
                         ::testing::Combine(::testing::Values(0, 1, 2), ::testing::Values(DType::f32, DType::f64)),
                         [](const ::testing::TestParamInfo<std::tuple<int, DType>>& info) {
                           return std::string(k_models[std::get<0>(info.param)].name) + "_" +
                                  std::string(name(std::get<1>(info.param)));
                         });

TEST(CnnResidency, JittedLenetStepStaysOnTheGpu) {
  if (!vulkan::available()) GTEST_SKIP() << "no usable Vulkan device";
  Backend& vk = vulkan::backend();
  const Params params = moved(make_params(k_models[0], DType::f32), vk);
  const Tensor images = uniform(key(3), {kBatch, 1, 28, 28}, DType::f32, 0.0, 1.0, reference_backend()).to(vk);
  const Tensor labels = remainder(iota({kBatch}, 0, DType::s64, reference_backend()) * 7, 10).to(vk);
  auto step = jit(value_and_grad(lenet_loss));
  const auto eager = value_and_grad(lenet_loss)(params, images, labels);
  std::pair<Tensor, Params> jitted;
  EXPECT_EQ(fallback::count_total([&] {
              step(params, images, labels);
              jitted = step(params, images, labels);
              vulkan::flush();
            }),
            0u);
  EXPECT_EQ(first_difference(jitted.first, eager.first), "");
  for (const auto& [param, g] : eager.second) EXPECT_EQ(first_difference(jitted.second.at(param), g), "") << param;
}

}  // namespace
}  // namespace nxv
