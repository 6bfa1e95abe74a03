// Replay of compiled calls (vulkan_compiler.cpp): every call after the first replays the first call's recording,
// bit for bit what recording each call gives, reading that call's inputs; outputs handed out earlier are never
// overwritten; outputs that are inputs or constants come back as copies; a graph that reads back on the host
// while running is run stage by stage instead, with the same results.
#include <gtest/gtest.h>

#include "nxv/indexing.hpp"
#include "nxv/ops.hpp"
#include "ops/op.hpp"
#include "support/fusion.hpp"
#include "vulkan/runtime/fallback.hpp"

namespace nxv::testing {
namespace {

std::vector<Tensor> on_vulkan(std::vector<Tensor> ts) { return to_backend(ts, vulkan::backend()); }

void expect_all_exact(const std::vector<Tensor>& want, const std::vector<Tensor>& got, const std::string& what) {
  ASSERT_EQ(want.size(), got.size()) << what;
  for (std::size_t i = 0; i < want.size(); ++i)
    EXPECT_EQ(compare_exact(want[i].to_host(), got[i].to_host()), "") << what << ": output " << i;
}

// A fused region, a fused reduction with an epilogue, an eager dot and an integer region.
std::vector<Tensor> mixed(const std::vector<Tensor>& in) {
  const Tensor& a = in[0];
  const Tensor& b = in[1];
  const Tensor h = max(a * b + 1.0, 0.0);
  const Tensor row = sum(h, Axes{1}) / 7.0;
  const Tensor d = dot(h, transpose(b)) - reshape(row, {4, 1});
  return {row, d, as_type(greater(a, b), DType::s32) * 3};
}

std::vector<Tensor> call_inputs(int call) {
  return {test_data(DType::f32, {4, 6}, 100 + call), test_data(DType::f32, {4, 6}, 200 + call)};
}

TEST(CompiledReplay, LaterCallsReplayAndReadTheirOwnInputs) {
  NXV_REQUIRE_VULKAN();
  auto replayed = jit(MultiFn(mixed), {.compiler = vulkan::compiler({.replay = vulkan::Replay::always})});
  auto recorded = jit(MultiFn(mixed), {.compiler = vulkan::compiler({.replay = vulkan::Replay::never})});
  for (int call = 0; call < 4; ++call) {
    const std::vector<Tensor> inputs = on_vulkan(call_inputs(call));
    const auto before = vulkan::counters();
    const std::vector<Tensor> got = replayed(inputs);
    const auto after = vulkan::counters();
    expect_all_exact(recorded(inputs), got, "call " + std::to_string(call));
    expect_all_exact(mixed(inputs), got, "call " + std::to_string(call) + " vs eager");
    EXPECT_EQ(after.replays - before.replays, call == 0 ? 0u : 1u) << "call " << call;
  }
  const auto before = vulkan::counters();
  recorded(on_vulkan(call_inputs(9)));
  EXPECT_EQ(vulkan::counters().replays, before.replays) << "vulkan::Replay::never records every call";
}

TEST(CompiledReplay, AutomaticReplaysWhereTheRecordingOutweighsTheCopies) {
  NXV_REQUIRE_VULKAN();
  // Eight sorts (eager dispatches) of one input into one output: 8+ dispatches for 2 buffers, replayed. One sum of
  // six inputs: 1-2 dispatches for 7 buffers, recorded every call.
  const MultiFn long_chain = [](const std::vector<Tensor>& in) {
    Tensor x = in[0];
    for (int i = 0; i < 8; ++i) x = sort(x * -1.0, 1);
    return std::vector<Tensor>{x};
  };
  const MultiFn wide = [](const std::vector<Tensor>& in) {
    Tensor acc = in[0];
    for (std::size_t i = 1; i < in.size(); ++i) acc = acc + in[i];
    return std::vector<Tensor>{acc};
  };
  auto replays_on_third_call = [](const MultiFn& fn, const std::vector<Tensor>& inputs) {
    auto f = jit(fn);
    f(inputs);
    f(inputs);
    const auto before = vulkan::counters();
    const std::vector<Tensor> got = f(inputs);
    expect_all_exact(fn(inputs), got, "third call");
    return vulkan::counters().replays - before.replays;
  };
  EXPECT_EQ(replays_on_third_call(long_chain, on_vulkan({test_uniform(DType::f32, {4, 50}, 1, -1, 1)})), 1u);
  EXPECT_EQ(replays_on_third_call(wide, on_vulkan(std::vector<Tensor>(6, test_data(DType::f32, {9}, 2)))), 0u);
}

TEST(CompiledReplay, OutputsOfEarlierCallsAreNotOverwritten) {
  NXV_REQUIRE_VULKAN();
  auto f = jit(MultiFn(mixed), {.compiler = vulkan::compiler({.replay = vulkan::Replay::always})});
  std::vector<std::vector<Tensor>> kept;
  for (int call = 0; call < 3; ++call) kept.push_back(f(on_vulkan(call_inputs(call))));
  for (int call = 0; call < 3; ++call)
    expect_all_exact(mixed(call_inputs(call)), kept[call], "kept outputs of call " + std::to_string(call));
}

TEST(CompiledReplay, OutputsThatAreInputsOrConstantsAreCopies) {
  NXV_REQUIRE_VULKAN();
  const Tensor constant = test_data(DType::f32, {5}, 3);
  const MultiFn f = [&](const std::vector<Tensor>& in) {
    return std::vector<Tensor>{in[0], constant, in[0] + 1.0, in[0], in[1]};
  };
  auto jitted = jit(f, {.compiler = vulkan::compiler({.replay = vulkan::Replay::always})});
  for (int call = 0; call < 3; ++call) {
    const std::vector<Tensor> inputs =
        on_vulkan({test_data(DType::f32, {5}, 40 + call), test_data(DType::u8, {0, 3}, 50 + call)});
    const std::vector<Tensor> got = jitted(inputs);
    expect_all_exact(f(inputs), got, "call " + std::to_string(call));
    if (call > 0) EXPECT_NE(&got[0].storage(), &inputs[0].storage()) << "a replayed output is the caller's own";
  }
}

TEST(CompiledReplay, AGraphThatReadsBackIsRunStageByStage) {
  NXV_REQUIRE_VULKAN();
  const MultiFn with_argmax = [](const std::vector<Tensor>& in) {
    std::vector<Tensor> out = mixed(in);
    out.push_back(argmax(in[0] * in[1], 1) + 1);
    return out;
  };
  // The argmax stage downloads its input and uploads its result: no recording can hold that.
  vulkan::force_fallback_for_testing(OpCode::arg_reduce);
  auto f = jit(with_argmax, {.compiler = vulkan::compiler({.replay = vulkan::Replay::always})});
  const auto before = vulkan::counters();
  for (int call = 0; call < 3; ++call) {
    const std::vector<Tensor> inputs = on_vulkan(call_inputs(call));
    const std::vector<Tensor> got = f(inputs);
    vulkan::clear_forced_fallbacks();
    expect_all_exact(with_argmax(inputs), got, "call " + std::to_string(call));
    vulkan::force_fallback_for_testing(OpCode::arg_reduce);
  }
  vulkan::clear_forced_fallbacks();
  EXPECT_EQ(vulkan::counters().replays, before.replays);
}

}  // namespace
}  // namespace nxv::testing
