// The compiled training step (value_and_grad + SGD update, batch 32) of the MLP and LeNet: bit-identical to the
// eager step, zero host fallbacks, one submit per step, replayed after the first call with its intermediates
// sharing memory by liveness, and fewer dispatches than eager; NXV_FUSION=0 gives the
// eager dispatch count, NXV_FUSION=elementwise (no reduction or epilogue fusion) more than the full compiler. Prints
// dispatches, submits and step times (lavapipe here; the same test on the H200 with
// --gtest_filter='CompiledStep.*').
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "nxv/conv.hpp"
#include "nxv/grad.hpp"
#include "nxv/ops.hpp"
#include "support/env.hpp"
#include "support/fusion.hpp"
#include "support/models.hpp"

namespace nxv::testing {
namespace {

using namespace models;

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
  std::uint64_t dispatches = 0, submits = 0, replays = 0;
};

// Runs `step` once to warm up (trace, compile, constants), then `runs` more times, each until all its work is done
// (reading the loss waits only for the batch that computes it: eager code submits the rest later).
template <class Step>
StepCounts measure(Step& step, const Params& p, const Tensor& x, const Tensor& y, int runs,
                   std::pair<Tensor, Params>* result) {
  *result = step(p, x, y);
  result->first.item();
  StepCounts c;
  for (int r = 0; r < runs; ++r) {
    vulkan::flush();
    const auto before = vulkan::counters();
    *result = step(p, x, y);
    result->first.item();
    vulkan::flush();
    const auto after = vulkan::counters();
    c.dispatches = after.dispatches - before.dispatches;
    c.submits = after.submits - before.submits;
    c.replays = after.replays - before.replays;
  }
  return c;
}

void expect_same(const std::pair<Tensor, Params>& got, const std::pair<Tensor, Params>& want) {
  EXPECT_EQ(compare_exact(want.first.to_host(), got.first.to_host()), "") << "loss";
  for (const auto& [name, w] : want.second)
    EXPECT_EQ(compare_exact(w.to_host(), got.second.at(name).to_host()), "") << name;
}

// The compiled step must take fewer dispatches than the same graph evaluated op by op, than the compiler fusing
// elementwise regions only, and at most `max_compiled_dispatches`, in exactly one submit; NXV_FUSION=0 must give
// the evaluator's count; once warm it allocates no device memory.
void check_model(const Model& m, int runs, std::uint64_t max_compiled_dispatches) {
  Backend& vk = vulkan::backend();
  const Params params = moved(make_params(m, DType::f32), vk);
  const Tensor images = uniform(key(3), {kBatch, 1, 28, 28}, DType::f32, 0.0, 1.0, reference_backend()).to(vk);
  const Tensor labels = remainder(iota({kBatch}, 0, DType::s64, reference_backend()) * 7, 10).to(vk);

  auto eager = sgd_step(m.loss);
  auto compiled = jit(sgd_step(m.loss), {.compiler = vulkan::compiler({.replay = vulkan::Replay::always})});
  std::pair<Tensor, Params> want, got, unfused_result, elementwise_result;
  StepCounts e, c, u, r;
  EXPECT_EQ(fallback::count_total([&] {
              e = measure(eager, params, images, labels, runs, &want);
              c = measure(compiled, params, images, labels, runs, &got);
            }),
            0u);
  expect_same(got, want);

  // The same traced graph run op by op: by the evaluator, and by the compiler with NXV_FUSION=0.
  std::pair<Tensor, Params> evaluated_result;
  auto evaluated = jit(sgd_step(m.loss), {.compiler = evaluator()});
  const StepCounts v = measure(evaluated, params, images, labels, runs, &evaluated_result);
  expect_same(evaluated_result, want);
  {
    const nxv::test::EnvGuard unfused_env("NXV_FUSION", "0");
    auto unfused = jit(sgd_step(m.loss), {.compiler = vulkan::compiler({.replay = vulkan::Replay::always})});
    u = measure(unfused, params, images, labels, runs, &unfused_result);
  }
  {
    const nxv::test::EnvGuard elementwise_env("NXV_FUSION", "elementwise");
    auto elementwise_only = jit(sgd_step(m.loss), {.compiler = vulkan::compiler({.replay = vulkan::Replay::always})});
    r = measure(elementwise_only, params, images, labels, runs, &elementwise_result);
  }
  expect_same(unfused_result, want);
  expect_same(elementwise_result, want);

  auto line = [](const char* what, const StepCounts& s) {
    std::printf("  %-28s %4llu dispatches, %llu submits\n", what, static_cast<unsigned long long>(s.dispatches),
                static_cast<unsigned long long>(s.submits));
  };
  std::printf("[ %s step, batch %lld, f32 ]\n", m.name, static_cast<long long>(kBatch));
  line("eager value_and_grad + sgd", e);
  line("jit, evaluator", v);
  line("jit, vulkan compiler", c);
  line("jit, NXV_FUSION=elementwise", r);
  line("jit, compiler NXV_FUSION=0", u);
  // A replayed step copies its outputs out, 8 buffers per dispatch (copy_buffers), and its inputs in, but only those
  // in other buffers than the last call's: measure() passes the same tensors every run, so none.
  const auto eighths = [](std::size_t n) { return static_cast<std::uint64_t>((n + 7) / 8); };
  const std::uint64_t copies = eighths(params.size() + 1);
  EXPECT_LT(c.dispatches, v.dispatches);
  EXPECT_LT(c.dispatches, r.dispatches);
  EXPECT_EQ(r.submits, 1u);
  EXPECT_LE(c.dispatches - copies, max_compiled_dispatches);
  EXPECT_EQ(c.submits, 1u);
  EXPECT_EQ(c.replays, 1u) << "a warm compiled step replays its recording";
  EXPECT_EQ(v.replays, 0u);
  EXPECT_EQ(u.dispatches, v.dispatches + copies);
  EXPECT_EQ(u.submits, 1u);

  // After the first calls, a compiled step allocates no device memory: its intermediates live in its recording's
  // memory, and its outputs come from the caching allocator's free lists, refilled by the previous step's.
  const std::uint64_t allocations = vulkan::memory_stats().device_allocations;
  for (int i = 0; i < 3; ++i) compiled(params, images, labels).first.item();
  vulkan::flush();
  EXPECT_EQ(vulkan::memory_stats().device_allocations, allocations) << m.name << ": device allocations in steady state";

  // The recording's memory: values that die during the step share buffers, so it holds fewer bytes than the
  // step's allocations asked for (NXV_DEBUG's "recorded for replay" line).
  setenv("NXV_DEBUG", "1", 1);
  ::testing::internal::CaptureStderr();
  auto debug_step = jit(sgd_step(m.loss), {.compiler = vulkan::compiler({.replay = vulkan::Replay::always})});
  debug_step(params, images, labels).first.item();
  const std::string debug = ::testing::internal::GetCapturedStderr();
  unsetenv("NXV_DEBUG");
  const std::size_t at = debug.find("recorded for replay:");
  ASSERT_NE(at, std::string::npos) << debug;
  unsigned long long dispatches = 0, barriers = 0, buffers = 0, bytes = 0, requests = 0, requested = 0;
  ASSERT_EQ(std::sscanf(debug.c_str() + at,
                        "recorded for replay: %llu dispatches, %llu barriers; %llu buffers of %llu bytes for %llu "
                        "allocations of %llu bytes",
                        &dispatches, &barriers, &buffers, &bytes, &requests, &requested),
            6)
      << debug.substr(at);
  std::printf(
      "  %s recording: %llu dispatches, %llu barriers; %llu buffers of %llu bytes for %llu allocations of %llu "
      "bytes\n",
      m.name, dispatches, barriers, buffers, bytes, requests, requested);
  EXPECT_EQ(dispatches + copies, c.dispatches);
  EXPECT_LT(buffers, requests);
  EXPECT_LT(bytes, requested);

  // jit's default replays only where the recording outweighs the copies (1.5 dispatches per copied buffer): the
  // LeNet step (44 dispatches, 23 buffers) replays, the MLP step (11 dispatches, 11 buffers) records every call.
  auto automatic = jit(sgd_step(m.loss));
  automatic(params, images, labels).first.item();
  const auto before = vulkan::counters();
  const auto result = automatic(params, images, labels);
  expect_same(result, want);
  const bool pays = 2 * dispatches >= 3 * (2 * params.size() + 3);
  EXPECT_EQ(vulkan::counters().replays - before.replays, pays ? 1u : 0u) << m.name;
  EXPECT_EQ(pays, std::string(m.name) == "lenet") << m.name;
}

// 44 = 17 dispatches of generated kernels + 27 of the 25 eager stages. Generated: the two dense layers' dots and
// conv1's and conv2's forward convs with their bias add and relu (and gradient masks) as epilogues, the
// cross-entropy's 3 reductions (max with the bias add, sum of exp, and the row sums of the one-hot product (with
// the softmax gradient) nested in the mean, its division as epilogue), the 5 bias gradients (the fc ones and conv2's
// with their SGD updates as epilogues; conv1's, of 2 chunks per output, with the second pass as one more dispatch and
// its update as a kernel of its own), the row sum of the cross-entropy gradient, the three dense weight gradients
// computed transposed with their SGD updates as epilogues, and the 2 conv weight updates. Eager: convolutions and their
// gradients, pooling and its scatter, the other dots, the transposes that feed conv's gradients (reshapes take
// none, some take several). The evaluator takes 144, elementwise fusion alone 65.
constexpr std::uint64_t kLenetCompiledDispatches = 44;

// Each arm runs twice after its warm-up: the second call of a replayed step is the first that replays.
constexpr int kRuns = 2;

TEST(CompiledStep, MlpMatchesEagerWithFewerDispatchesAndOneSubmit) {
  NXV_REQUIRE_VULKAN();
  // 11 = 5 dots (fc1's with its bias add, relu and gradient mask as epilogue; the two weight gradients computed
  // transposed with their SGD updates as epilogues) + 6 generated kernels: the max with the bias add; the sum of
  // exp(shifted); the mean's sum with the row sums of one_hot * log_probs (and the loss gradient) nested in it and
  // its division and negation as epilogue; the row sum of the loss gradient; the fc2 bias gradient with its SGD update
  // as epilogue, and the same for fc1 (reading the relu mask). The evaluator takes 60, elementwise fusion alone 23.
  check_model(k_mlp, kRuns, 11);
}

TEST(CompiledStep, LenetMatchesEagerWithFewerDispatchesAndOneSubmit) {
  NXV_REQUIRE_VULKAN();
  check_model(k_lenet, kRuns, kLenetCompiledDispatches);
}

}  // namespace
}  // namespace nxv::testing
