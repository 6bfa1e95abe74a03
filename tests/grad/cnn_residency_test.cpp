// Residency of the CNN training steps (issue 4): value_and_grad of LeNet, a strided CNN and the MLP, batch 32
// on 28x28 inputs, in f32 and f64, runs on Vulkan with zero host fallbacks, and its loss and every gradient are
// bit-identical to the reference backend's. Prints the fallback counts and the eager step times.
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <cstdio>

#include "grad/check_grads.hpp"
#include "nxv/conv.hpp"
#include "nxv/defn.hpp"
#include "nxv/fallback.hpp"
#include "nxv/grad.hpp"
#include "nxv/vulkan.hpp"

namespace nxv {
namespace {

constexpr std::int64_t kBatch = 32;

Tensor relu(const Tensor& x) { return max(x, 0.0); }
Tensor dense(const Tensor& x, const Params& p, const std::string& layer) {
  return dot(x, p.at(layer + ".w")) + p.at(layer + ".b");
}
Tensor conv_bias(const Tensor& x, const Params& p, const std::string& layer, const ConvOptions& o) {
  const Tensor b = p.at(layer + ".b");
  return conv(x, p.at(layer + ".w"), o) + reshape(b, {1, b.dim(0), 1, 1});
}
Tensor max_pool_2x2(const Tensor& x) {
  WindowOptions o;
  o.strides = {1, 1, 2, 2};
  return window_max(x, {1, 1, 2, 2}, o);
}

// Softmax cross-entropy: log-sum-exp with the max subtracted, one-hot labels from equal(iota, labels).
Tensor cross_entropy(const Tensor& logits, const Tensor& labels) {
  const Tensor shifted = logits - stop_gradient(reduce_max(logits, Axes{1}, true));
  const Tensor log_probs = shifted - log(sum(exp(shifted), Axes{1}, true));
  const Tensor one_hot = as_type(equal(expand_dims(labels, 1), iota({1, 10}, 1, labels.dtype(), labels.backend())),
                                 logits.dtype());
  return negate(mean(sum(one_hot * log_probs, Axes{1})));
}

Tensor lenet_loss(const Params& p, const Tensor& images, const Tensor& labels) {
  ConvOptions pad2;
  pad2.padding = {{2, 2}, {2, 2}};
  Tensor h = max_pool_2x2(relu(conv_bias(images, p, "conv1", pad2)));  // [32, 6, 14, 14]
  h = max_pool_2x2(relu(conv_bias(h, p, "conv2", {})));                // [32, 16, 5, 5]
  h = reshape(h, {kBatch, 400});
  h = relu(dense(h, p, "fc1"));
  h = relu(dense(h, p, "fc2"));
  return cross_entropy(dense(h, p, "fc3"), labels);
}

Tensor strided_loss(const Params& p, const Tensor& images, const Tensor& labels) {
  ConvOptions o;
  o.strides = {2, 2};
  o.padding = padding_same({3, 3});
  Tensor h = relu(conv_bias(images, p, "conv1", o));  // [32, 8, 14, 14]
  h = relu(conv_bias(h, p, "conv2", o));              // [32, 16, 7, 7]
  return cross_entropy(dense(reshape(h, {kBatch, 784}), p, "fc1"), labels);
}

Tensor mlp_loss(const Params& p, const Tensor& images, const Tensor& labels) {
  const Tensor h = relu(dense(reshape(images, {kBatch, 784}), p, "fc1"));
  return cross_entropy(dense(h, p, "fc2"), labels);
}

using Loss = Tensor (*)(const Params&, const Tensor&, const Tensor&);

struct Model {
  const char* name;
  Loss loss;
  std::vector<std::pair<std::string, Shape>> weights;  // biases get the weight's leading dimension (or last, dense)
};

const Model k_models[] = {
    {"lenet", lenet_loss,
     {{"conv1", {6, 1, 5, 5}}, {"conv2", {16, 6, 5, 5}}, {"fc1", {400, 120}}, {"fc2", {120, 84}}, {"fc3", {84, 10}}}},
    {"strided", strided_loss, {{"conv1", {8, 1, 3, 3}}, {"conv2", {16, 8, 3, 3}}, {"fc1", {784, 10}}}},
    {"mlp", mlp_loss, {{"fc1", {784, 128}}, {"fc2", {128, 10}}}},
};

// He-style initialisation, made on the reference backend (so that both backends start from the same bits).
Params make_params(const Model& m, DType dtype) {
  Params p;
  std::uint64_t seed = 11;
  for (const auto& [layer, shape] : m.weights) {
    const bool is_conv = shape.size() == 4;
    const std::int64_t fan_in = is_conv ? shape[1] * shape[2] * shape[3] : shape[0];
    const std::int64_t outputs = is_conv ? shape[0] : shape[1];
    p[layer + ".w"] = normal(key(seed++), shape, dtype, 0.0, std::sqrt(2.0 / static_cast<double>(fan_in)),
                             reference_backend());
    p[layer + ".b"] = normal(key(seed++), {outputs}, dtype, 0.0, 0.01, reference_backend());
  }
  return p;
}

Params moved(const Params& p, Backend& backend) {
  Params out;
  for (const auto& [name, t] : p) out[name] = t.to(backend);
  return out;
}

std::string first_difference(const Tensor& got, const Tensor& want) {
  const std::vector<double> g = testing::detail::values_f64(got), w = testing::detail::values_f64(want);
  for (std::size_t i = 0; i < g.size(); ++i)
    if (g[i] != w[i] && !(std::isnan(g[i]) && std::isnan(w[i])))
      return "element " + std::to_string(i) + ": " + std::to_string(g[i]) + " vs " + std::to_string(w[i]);
  return "";
}

double milliseconds(const std::function<void()>& f) {
  const auto start = std::chrono::steady_clock::now();
  f();
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
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
  std::printf("[ residency ] %s %s: %llu host fallbacks%s\n", m.name, std::string(name(dtype)).c_str(), static_cast<unsigned long long>(total),
              listed.c_str());
  EXPECT_EQ(total, 0u) << listed;
  for (const auto& [param, g] : got.second) EXPECT_EQ(&g.backend(), &vk) << param;

  const auto want = value_and_grad(m.loss)(params, images, labels);
  EXPECT_EQ(first_difference(got.first, want.first), "") << "loss";
  for (const auto& [param, g] : want.second) EXPECT_EQ(first_difference(got.second.at(param), g), "") << param;

  // Eager step times (the first Vulkan run above compiled the pipelines).
  const double vk_ms = milliseconds([&] {
    value_and_grad(m.loss)(on_vk, images_vk, labels_vk).first.item();
  });
  const double ref_ms = milliseconds([&] { value_and_grad(m.loss)(params, images, labels).first.item(); });
  std::printf("[ step time ] %s %s: vulkan %.1f ms, reference %.1f ms\n", m.name, std::string(name(dtype)).c_str(), vk_ms, ref_ms);
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
