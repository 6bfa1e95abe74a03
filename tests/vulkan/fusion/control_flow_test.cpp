// Control flow on Vulkan: eager, the evaluator and the fusion compiler (whose eager stages run the bodies) give the
// reference's bits with no host fallback, and the loops' dispatches and read-backs are what
// include/nxv/control_flow.hpp states.
#include <gtest/gtest.h>

#include "nxv/control_flow.hpp"
#include "nxv/vectorize.hpp"
#include "nxv/vulkan.hpp"
#include "support/fusion.hpp"

namespace nxv {
namespace {

using testing::expect_fused_exact;

Tensor rand(const Shape& s, std::uint64_t seed) {
  return uniform(key(seed), s, DType::f32, -1.0, 1.0, reference_backend());
}

// One function of every kind of control node: a fori_loop with a cond inside, a scan, a while_loop.
std::vector<Tensor> mixed(const std::vector<Tensor>& in) {
  const Tensor& x = in[0];
  const Tensor& w = in[1];
  const Tensor a = fori_loop(
      0, 7,
      [&](const Tensor& i, const Tensor& c) {
        return cond(
            equal(remainder(i, 2), 0), [&](const Tensor& v) { return tanh(v * w) + 0.25; },
            [](const Tensor& v) { return exp(v) * 0.5; }, c);
      },
      x);
  const auto [b, ys] =
      scan([](const Tensor& c, const Tensor& r) { return std::pair(c * r + 1.0, sin(c) + r); }, x, in[2]);
  using C = std::pair<Tensor, Tensor>;
  const C d = while_loop([](const C& c) { return less(c.second, 5); },
                         [&](const C& c) { return C(c.first * 1.5 - w, c.second + 1); },
                         C(b, scalar(0, DType::s32, x.backend())));
  return {a, b, ys, d.first, d.second};
}

TEST(VulkanControlFlow, EagerEvaluatorAndCompilerMatchTheReferenceBitForBit) {
  if (!vulkan::available()) GTEST_SKIP() << "no usable Vulkan device";
  const std::vector<Tensor> inputs{rand({5}, 1), rand({5}, 2), rand({4, 5}, 3)};
  expect_fused_exact("mixed control flow", mixed, inputs, -1);
  Backend& vk = vulkan::backend();
  const std::vector<Tensor> on_vk = testing::to_backend(inputs, vk);
  const std::vector<Tensor> eager = mixed(on_vk), evaluated = jit(mixed, {.compiler = evaluator()})(on_vk);
  ASSERT_EQ(evaluated.size(), eager.size());
  for (std::size_t i = 0; i < eager.size(); ++i)
    EXPECT_EQ(testing::compare_exact(eager[i].to_host(), evaluated[i].to_host()), "") << "output " << i;
}

Tensor decay(const Tensor& x) {
  return fori_loop(
      0, 1000, [](const Tensor&, const Tensor& c) { return c * 0.999 + 0.001; }, x);
}

// Runs f on x twice (the first traces, compiles and places constants); the second call's counters.
template <class F>
vulkan::Counters second_call(F& f, const Tensor& x, Tensor& y) {
  f(x).to_host();
  vulkan::flush();
  const vulkan::Counters before = vulkan::counters();
  y = f(x);
  const vulkan::Counters during = vulkan::counters();
  return {during.dispatches - before.dispatches,
          during.submits - before.submits,
          during.fence_waits - before.fence_waits,
          0,
          0,
          0,
          0,
          during.replays - before.replays};
}

TEST(VulkanControlFlow, AThousandIterationFusedBodyIsOneDispatchWithoutRoundTrips) {
  if (!vulkan::available()) GTEST_SKIP() << "no usable Vulkan device";
  const Tensor x = rand({300}, 5);  // two workgroups
  const Tensor want = decay(x);
  auto once = jit(decay, {.compiler = vulkan::compiler({.replay = vulkan::Replay::never})});
  Tensor y;
  const vulkan::Counters c = second_call(once, x.to(vulkan::backend()), y);
  EXPECT_EQ(c.dispatches, 1u) << "the loop runs inside one generated kernel";
  EXPECT_EQ(c.fence_waits, 0u) << "no host round trip";
  EXPECT_EQ(testing::compare_exact(y.to_host(), want), "");
  auto replayed = jit(decay);  // the default compiler: replay where it pays
  const vulkan::Counters r = second_call(replayed, x.to(vulkan::backend()), y);
  EXPECT_EQ(testing::compare_exact(y.to_host(), want), "");
  std::cerr << "1000-iteration fori_loop, one fused body: " << c.dispatches << " dispatch, " << c.fence_waits
            << " fence waits, " << c.submits << " submits without replay; with the default compiler " << r.dispatches
            << " dispatches, " << r.replays << " replays, " << r.fence_waits << " fence waits\n";
}

TEST(VulkanControlFlow, HundredThousandIterationsInFourDispatches) {
  if (!vulkan::available()) GTEST_SKIP() << "no usable Vulkan device";
  auto f = [](const Tensor& x) {
    return fori_loop(
        0, 100000, [](const Tensor&, const Tensor& c) { return c * 0.99999 + 0.00001; }, x);
  };
  const Tensor x = rand({3}, 8);
  auto jitted = jit(f, {.compiler = vulkan::compiler({.replay = vulkan::Replay::never})});
  Tensor y;
  const vulkan::Counters c = second_call(jitted, x.to(vulkan::backend()), y);
  EXPECT_EQ(testing::compare_exact(y.to_host(), f(x)), "");
  EXPECT_EQ(c.dispatches, 4u) << "chunks of at most 32768 iterations (lavapipe's loop limit)";
}

TEST(VulkanControlFlow, LoopedKernelWithCounterCapturesAndSeveralDtypesMatchesTheReference) {
  if (!vulkan::available()) GTEST_SKIP() << "no usable Vulkan device";
  auto f = [](const Tensor& x, const Tensor& w) {
    using C = std::pair<Tensor, Tensor>;
    return fori_loop(
        -5, 250,
        [&](const Tensor& i, const C& c) {
          return C(c.first * w + as_type(broadcast(i, c.first.shape()), DType::f32) * 0.001,
                   c.second + as_type(broadcast(i, c.second.shape()), DType::s32));
        },
        C(x, zeros(x.shape(), DType::s32, x.backend())));
  };
  const Tensor x = rand({7}, 6), w = rand({7}, 7);
  const auto want = f(x, w);
  auto jitted = jit(f, {.compiler = vulkan::compiler({.replay = vulkan::Replay::never})});
  Backend& vk = vulkan::backend();
  jitted(x.to(vk), w.to(vk));
  vulkan::flush();
  const vulkan::Counters before = vulkan::counters();
  const auto got = jitted(x.to(vk), w.to(vk));
  const std::uint64_t dispatches = vulkan::counters().dispatches - before.dispatches;
  EXPECT_EQ(testing::compare_exact(got.first.to_host(), want.first), "");
  EXPECT_EQ(testing::compare_exact(got.second.to_host(), want.second), "");
  EXPECT_LE(dispatches, 3u) << "the looped kernel (and the inputs' copies)";
}

TEST(VulkanControlFlow, WhileLoopReadsItsConditionOncePerChunk) {
  if (!vulkan::available()) GTEST_SKIP() << "no usable Vulkan device";
  Backend& vk = vulkan::backend();
  auto count_to = [](const Tensor& limit) {
    return while_loop([&](const Tensor& c) { return less(c, limit); }, [](const Tensor& c) { return c + 1.0; },
                      scalar(0.0, DType::f32, limit.backend()));
  };
  const Tensor limit = scalar(100.0, DType::f32, vk);
  vulkan::flush();
  const vulkan::Counters before = vulkan::counters();
  const Tensor n = jit(count_to)(limit);
  const std::uint64_t waits = vulkan::counters().fence_waits - before.fence_waits;
  EXPECT_EQ(n.item(), 100.0);
  std::cerr << "100-iteration while_loop on Vulkan: " << waits << " condition read-backs\n";
  // Chunks that double while a read-back costs more than the iterations a chunk may waste (next_while_chunk; a
  // cheap step's chunks grow about as sqrt(18 x iterations so far)): 8 or 9 chunks cover the 101 condition checks.
  EXPECT_LE(waits, 10u);
  EXPECT_GE(waits, 1u);
}

// A while_loop vectorized over examples of different trip counts (a NUTS transition over chains): each guarded
// iteration -- the condition, the body, and the select that keeps a finished example's carry -- compiles into one
// graph, so its dispatches are the condition's reduction and a fused kernel per domain ([8] and [8, 3]), not the
// condition and a select per carry besides (6 per iteration before).
TEST(VulkanControlFlow, VectorizedWhileLoopFusesItsGuardIntoTheBody) {
  if (!vulkan::available()) GTEST_SKIP() << "no usable Vulkan device";
  Backend& vk = vulkan::backend();
  using C = std::tuple<Tensor, Tensor, Tensor>;
  const auto per_example = [](const Tensor& limit, const Tensor& x) {
    const C out =
        while_loop([&](const C& c) { return less(std::get<0>(c), limit); },
                   [](const C& c) { return C(std::get<0>(c) + 1.0, std::get<1>(c) * 1.5 - 0.25, std::get<2>(c) + 2); },
                   C(scalar(0.0, DType::f32, x.backend()), x, scalar(0, DType::s32, x.backend())));
    return std::vector<Tensor>{std::get<0>(out), std::get<1>(out), std::get<2>(out)};
  };
  const auto batched = [&](const std::vector<Tensor>& in) { return vectorize(per_example, {0, 0})(in[0], in[1]); };
  const Tensor limits = tensor<float>({1, 8, 3, 5, 2, 7, 4, 6}, {8}, reference_backend());
  const std::vector<Tensor> inputs{limits, rand({8, 3}, 9)};
  const std::vector<Tensor> want = batched(inputs);
  auto f = jit(batched, {.compiler = vulkan::compiler({.replay = vulkan::Replay::never})});
  const std::vector<Tensor> on_vk = testing::to_backend(inputs, vk);
  f(on_vk);
  vulkan::flush();
  const vulkan::Counters before = vulkan::counters();
  const std::vector<Tensor> got = f(on_vk);
  for (std::size_t i = 0; i < want.size(); ++i)
    EXPECT_EQ(testing::compare_exact(want[i], got[i].to_host()), "") << "output " << i;
  const std::uint64_t dispatches = vulkan::counters().dispatches - before.dispatches;
  // Chunks of at most 1, 2, 4 and 8 guarded iterations cover the 9 checks of the longest example: at most 15.
  std::cerr << "vectorized while_loop, at most 15 guarded iterations: " << dispatches << " dispatches\n";
  EXPECT_LE(dispatches, 3u * 15u + 8u) << "the condition's reduction and two fused kernels per iteration";
}

// The guarded step of a while_loop replays its own recording (the enclosing call's capture is spoiled by the
// condition's read-back): in the first call its first iteration runs inside that capture, stage by stage, its
// second is recorded and the rest replay; from the second call on every guarded iteration is one replay -- with
// the reference's bits, also when the loop's captured data changes (copy_inputs skips only an unchanged buffer).
TEST(VulkanControlFlow, WhileLoopStepReplaysItsRecording) {
  if (!vulkan::available()) GTEST_SKIP() << "no usable Vulkan device";
  Backend& vk = vulkan::backend();
  using C = std::tuple<Tensor, Tensor, Tensor>;
  // Enough stages that replay pays (a reduction per iteration into the carry, elementwise work on two domains).
  const auto per_example = [](const Tensor& limit, const Tensor& x, const Tensor& w) {
    const C out = while_loop([&](const C& c) { return less(std::get<0>(c), limit); },
                             [&](const C& c) {
                               const Tensor& v = std::get<1>(c);
                               const Tensor s = sum(v * w);
                               return C(std::get<0>(c) + 1.0, tanh(v * 1.5 - s * 0.125) + w,
                                        std::get<2>(c) + as_type(greater(s, 0.0), DType::s32));
                             },
                             C(scalar(0.0, DType::f32, x.backend()), x, scalar(0, DType::s32, x.backend())));
    return std::vector<Tensor>{std::get<0>(out), std::get<1>(out), std::get<2>(out)};
  };
  const auto batched = [&](const std::vector<Tensor>& in) {
    return vectorize(per_example, {0, 0, not_batched})(in[0], in[1], in[2]);
  };
  const Tensor limits = tensor<float>({1, 8, 3, 5, 2, 7, 4, 6}, {8}, reference_backend());
  auto f = jit(batched, {.compiler = vulkan::compiler({.replay = vulkan::Replay::always})});
  std::vector<std::uint64_t> replays, waits;
  for (int call = 0; call < 4; ++call) {
    // The data changes on the last call: its step must read the new w.
    const std::vector<Tensor> inputs{limits, rand({8, 3}, 9), rand({3}, call < 3 ? 10 : 11)};
    const std::vector<Tensor> want = batched(inputs);
    vulkan::flush();
    const vulkan::Counters before = vulkan::counters();
    const std::vector<Tensor> got = f(testing::to_backend(inputs, vk));
    for (std::size_t i = 0; i < want.size(); ++i)
      EXPECT_EQ(testing::compare_exact(want[i], got[i].to_host()), "") << "call " << call << ", output " << i;
    replays.push_back(vulkan::counters().replays - before.replays);
    waits.push_back(vulkan::counters().fence_waits - before.fence_waits);
  }
  std::cerr << "guarded steps replayed per call: " << replays[0] << ", " << replays[1] << ", " << replays[2] << ", "
            << replays[3] << "; fence waits: " << waits[0] << ", " << waits[1] << ", " << waits[2] << ", " << waits[3]
            << "\n";
  // The first call: chunks of 1, 2, 4, 8 guarded iterations cover the 9 checks of the longest example, one step
  // inside the capture, one recorded.
  EXPECT_GE(replays[0] + 2, 9u);
  EXPECT_LE(replays[0] + 2, 15u);
  // Later calls start with a chunk of most of what the last one needed (WhileHistory): every step a replay, fewer
  // read-backs, and at most a chunk (here shorter than the 9 checks) wasted past the end.
  for (int call = 1; call < 4; ++call) {
    EXPECT_GE(replays[call], 9u) << "call " << call;
    EXPECT_LE(replays[call], 18u) << "call " << call;
    EXPECT_LT(waits[call], waits[0]) << "call " << call;
  }
}

// NXV_REPLAY's `never` (here by the compiler's options) reaches the loop's step: no replay, the same bits.
TEST(VulkanControlFlow, WhileLoopStepFollowsTheReplayOption) {
  if (!vulkan::available()) GTEST_SKIP() << "no usable Vulkan device";
  Backend& vk = vulkan::backend();
  const auto f = [](const std::vector<Tensor>& in) {
    using C = std::pair<Tensor, Tensor>;
    const C out = while_loop([&](const C& c) { return less(c.first, 12.0); },
                             [&](const C& c) { return C(c.first + 1.0, tanh(c.second * in[1] - sum(c.second))); },
                             C(scalar(0.0, DType::f32, in[0].backend()), in[0]));
    return std::vector<Tensor>{out.first, out.second};
  };
  const std::vector<Tensor> inputs{rand({6}, 12), rand({6}, 13)};
  const std::vector<Tensor> want = f(inputs);
  auto never = jit(f, {.compiler = vulkan::compiler({.replay = vulkan::Replay::never})});
  for (int call = 0; call < 2; ++call) {
    const vulkan::Counters before = vulkan::counters();
    const std::vector<Tensor> got = never(testing::to_backend(inputs, vk));
    for (std::size_t i = 0; i < want.size(); ++i) EXPECT_EQ(testing::compare_exact(want[i], got[i].to_host()), "");
    EXPECT_EQ(vulkan::counters().replays - before.replays, 0u);
  }
}

}  // namespace
}  // namespace nxv
