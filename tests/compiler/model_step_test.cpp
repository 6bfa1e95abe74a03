// The compiled training step (value_and_grad + SGD update, batch 32) of the MLP and LeNet: bit-identical to the
// eager step, zero host fallbacks, one submit per step, and fewer dispatches than eager; NXV_FUSION=0 gives the
// eager dispatch count. Prints dispatches, submits and step times (lavapipe here; the same test on the H200 with
// --gtest_filter='CompiledStep.*').
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "compiler/fusion_testing.hpp"
#include "nxv/conv.hpp"
#include "nxv/grad.hpp"
#include "nxv/ops.hpp"

namespace nxv::testing {
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
Tensor cross_entropy(const Tensor& logits, const Tensor& labels) {
  const Tensor shifted = logits - stop_gradient(reduce_max(logits, Axes{1}, true));
  const Tensor log_probs = shifted - log(sum(exp(shifted), Axes{1}, true));
  const Tensor one_hot = as_type(equal(expand_dims(labels, 1), iota({1, 10}, 1, labels.dtype(), labels.backend())),
                                 logits.dtype());
  return negate(mean(sum(one_hot * log_probs, Axes{1})));
}
Tensor mlp_loss(const Params& p, const Tensor& images, const Tensor& labels) {
  return cross_entropy(dense(relu(dense(images, p, "fc1")), p, "fc2"), labels);
}
Tensor lenet_loss(const Params& p, const Tensor& images, const Tensor& labels) {
  ConvOptions pad2;
  pad2.padding = {{2, 2}, {2, 2}};
  Tensor h = max_pool_2x2(relu(conv_bias(images, p, "conv1", pad2)));
  h = max_pool_2x2(relu(conv_bias(h, p, "conv2", {})));
  h = reshape(h, {kBatch, 400});
  h = relu(dense(h, p, "fc1"));
  h = relu(dense(h, p, "fc2"));
  return cross_entropy(dense(h, p, "fc3"), labels);
}

using Loss = Tensor (*)(const Params&, const Tensor&, const Tensor&);
struct Model {
  const char* name;
  Loss loss;
  std::vector<std::pair<std::string, Shape>> weights;
  Shape images;
};
const Model k_mlp{"mlp", mlp_loss, {{"fc1", {784, 128}}, {"fc2", {128, 10}}}, {kBatch, 784}};
const Model k_lenet{"lenet",
                    lenet_loss,
                    {{"conv1", {6, 1, 5, 5}}, {"conv2", {16, 6, 5, 5}}, {"fc1", {400, 120}}, {"fc2", {120, 84}},
                     {"fc3", {84, 10}}},
                    {kBatch, 1, 28, 28}};

Params make_params(const Model& m, Backend& backend) {
  Params p;
  std::uint64_t seed = 11;
  for (const auto& [layer, shape] : m.weights) {
    const bool is_conv = shape.size() == 4;
    const std::int64_t fan_in = is_conv ? shape[1] * shape[2] * shape[3] : shape[0];
    const std::int64_t outputs = is_conv ? shape[0] : shape[1];
    p[layer + ".w"] =
        normal(key(seed++), shape, DType::f32, 0.0, std::sqrt(2.0 / static_cast<double>(fan_in)), reference_backend())
            .to(backend);
    p[layer + ".b"] = normal(key(seed++), {outputs}, DType::f32, 0.0, 0.01, reference_backend()).to(backend);
  }
  return p;
}

// One SGD step: the loss and the updated parameters.
auto sgd_step(Loss loss) {
  return [loss](const Params& p, const Tensor& images, const Tensor& labels) {
    auto [value, grads] = value_and_grad(loss)(p, images, labels);
    Params next;
    for (const auto& [name, w] : p) next[name] = w - 0.05 * grads.at(name);
    return std::make_pair(value, next);
  };
}

struct StepCounts {
  std::uint64_t dispatches = 0, submits = 0;
  double ms = 0;  // the fastest of the timed steps
};

// Runs `step` once to warm up (trace, compile, constants), then `runs` more times, each until all its work is done
// (reading the loss waits only for the batch that computes it: eager code submits the rest later).
template <class Step>
StepCounts measure(Step& step, const Params& p, const Tensor& x, const Tensor& y, int runs,
                   std::pair<Tensor, Params>* result) {
  *result = step(p, x, y);
  result->first.item();
  StepCounts c;
  c.ms = 1e30;
  for (int r = 0; r < runs; ++r) {
    vulkan::flush();
    const auto before = vulkan::counters();
    const auto start = std::chrono::steady_clock::now();
    *result = step(p, x, y);
    result->first.item();
    vulkan::flush();
    c.ms = std::min(c.ms, std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
    const auto after = vulkan::counters();
    c.dispatches = after.dispatches - before.dispatches;
    c.submits = after.submits - before.submits;
  }
  return c;
}

void expect_same(const std::pair<Tensor, Params>& got, const std::pair<Tensor, Params>& want) {
  EXPECT_EQ(compare_exact(want.first.to_host(), got.first.to_host()), "") << "loss";
  for (const auto& [name, w] : want.second)
    EXPECT_EQ(compare_exact(w.to_host(), got.second.at(name).to_host()), "") << name;
}

// The compiled step must take fewer dispatches than the same graph evaluated op by op and at most
// `max_compiled_dispatches`, in exactly one submit; NXV_FUSION=0 must give the evaluator's count.
void check_model(const Model& m, int runs, std::uint64_t max_compiled_dispatches) {
  Backend& vk = vulkan::backend();
  const Params params = make_params(m, vk);
  const Tensor images = uniform(key(3), m.images, DType::f32, 0.0, 1.0, reference_backend()).to(vk);
  const Tensor labels = remainder(iota({kBatch}, 0, DType::s64, reference_backend()) * 7, 10).to(vk);

  auto eager = sgd_step(m.loss);
  auto compiled = jit(sgd_step(m.loss), {.compiler = vulkan_compiler()});
  std::pair<Tensor, Params> want, got, unfused_result;
  StepCounts e, c, u;
  EXPECT_EQ(fallback::count_total([&] {
              e = measure(eager, params, images, labels, runs, &want);
              c = measure(compiled, params, images, labels, runs, &got);
            }),
            0u);
  expect_same(got, want);

  // The same traced graph run op by op: by the evaluator (plain jit), and by the compiler with NXV_FUSION=0.
  std::pair<Tensor, Params> evaluated_result;
  auto evaluated = jit(sgd_step(m.loss));
  const StepCounts v = measure(evaluated, params, images, labels, runs, &evaluated_result);
  expect_same(evaluated_result, want);
  setenv("NXV_FUSION", "0", 1);
  auto unfused = jit(sgd_step(m.loss), {.compiler = vulkan_compiler()});
  u = measure(unfused, params, images, labels, runs, &unfused_result);
  unsetenv("NXV_FUSION");
  expect_same(unfused_result, want);

  auto line = [](const char* what, const StepCounts& s) {
    std::printf("  %-28s %4llu dispatches, %llu submits, %8.2f ms\n", what,
                static_cast<unsigned long long>(s.dispatches), static_cast<unsigned long long>(s.submits), s.ms);
  };
  std::printf("[ %s step, batch %lld, f32, best of %d ]\n", m.name, static_cast<long long>(kBatch), runs);
  line("eager value_and_grad + sgd", e);
  line("jit, evaluator", v);
  line("jit, vulkan compiler", c);
  line("jit, compiler NXV_FUSION=0", u);
  EXPECT_LT(c.dispatches, v.dispatches);
  EXPECT_LE(c.dispatches, max_compiled_dispatches);
  EXPECT_EQ(c.submits, 1u);
  EXPECT_EQ(u.dispatches, v.dispatches);
  EXPECT_EQ(u.submits, 1u);
}

// 62 = 23 fused kernels + 39 dispatches of the 38 eager stages (convolutions and their gradients, pooling and
// its scatter, dots, reductions, the transposes that feed conv's gradients; reshapes take none, some take
// several); the evaluator takes 141.
constexpr std::uint64_t kLenetCompiledDispatches = 62;

int timed_runs() {
  const char* v = std::getenv("NXV_STEP_RUNS");
  return v != nullptr && *v != '\0' ? std::max(1, std::atoi(v)) : 2;
}

TEST(CompiledStep, MlpMatchesEagerWithFewerDispatchesAndOneSubmit) {
  NXV_REQUIRE_VULKAN();
  // 23 = 5 dots + 7 reductions (eager) + 11 fused kernels: relu forward (+ its gradient mask), bias add,
  // shift+exp, log-softmax/one-hot/loss-gradient, the scalar loss, the softmax gradient, the relu gradient, and
  // the four SGD updates (the transposed weight gradients read strided). The evaluator takes 60.
  check_model(k_mlp, timed_runs(), 23);
}

TEST(CompiledStep, LenetMatchesEagerWithFewerDispatchesAndOneSubmit) {
  NXV_REQUIRE_VULKAN();
  check_model(k_lenet, timed_runs(), kLenetCompiledDispatches);
}

}  // namespace
}  // namespace nxv::testing
