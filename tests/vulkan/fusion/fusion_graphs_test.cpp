// Graph shapes the region planner must handle: shared subexpressions, several outputs, values used inside and
// outside a region, broadcasting and folded views, mixed dtypes, integer regions, empty tensors, rank 0, and
// non-elementwise nodes between regions. Each is fused = eager = reference bit for bit with a stated dispatch count.
#include <cstdlib>

#include "nxv/ops.hpp"
#include "support/env.hpp"
#include "support/fusion.hpp"
#include "vulkan/fusion/plan.hpp"
#include "vulkan/runtime/runtime.hpp"

namespace nxv::testing {
namespace {

TEST(FusionGraphs, SharedSubexpressionIsComputedOnce) {
  NXV_REQUIRE_VULKAN();
  const MultiFn fn = [](const std::vector<Tensor>& in) {
    const Tensor e = exp(in[0] - in[1]);
    return std::vector<Tensor>{e * e + e / (e + 1.0)};
  };
  expect_fused_exact("shared", fn,
                     {test_uniform(DType::f32, {64, 33}, 1, -3, 3), test_uniform(DType::f32, {33}, 2, -1, 1)});
}

TEST(FusionGraphs, SeveralOutputsOfOneRegion) {
  NXV_REQUIRE_VULKAN();
  // t is an output and also feeds the rest of the region: one kernel writes both results (and t).
  const MultiFn fn = [](const std::vector<Tensor>& in) {
    const Tensor t = tanh(in[0]) * in[1];
    return std::vector<Tensor>{t, sigmoid(t) - in[0], greater(t, 0.25)};
  };
  expect_fused_exact("outputs", fn,
                     {test_uniform(DType::f32, {5, 7}, 3, -2, 2), test_uniform(DType::f32, {5, 7}, 4, -2, 2)});
}

TEST(FusionGraphs, ViewsAreFoldedIntoIndexArithmetic) {
  NXV_REQUIRE_VULKAN();
  // transpose, broadcast, reshape (expand_dims/squeeze) between elementwise ops: read strided, not materialised.
  const MultiFn fn = [](const std::vector<Tensor>& in) {
    const Tensor a = transpose(in[0]) + broadcast(in[1], {6, 4}, Axes{0});  // [6, 4]
    const Tensor b = squeeze(expand_dims(a, 0)) * reshape(in[2], {6, 1});   // [6, 4]
    return std::vector<Tensor>{b - transpose(in[0])};
  };
  expect_fused_exact("views", fn,
                     {test_uniform(DType::f64, {4, 6}, 5, -2, 2), test_uniform(DType::f64, {6}, 6, -2, 2),
                      test_uniform(DType::f64, {6}, 7, -2, 2)});
}

TEST(FusionGraphs, SlicesAreFoldedIntoIndexArithmetic) {
  NXV_REQUIRE_VULKAN();
  // Slices with starts and strides, of a parameter, of a transpose, under a reshape (a contiguous block) and beside
  // a plain (start 0) slice of a broadcast: all read at an offset, one dispatch (and one for the [1, 1] output). A
  // slice of a computed value reads it where its region wrote it, and a strided slice feeding a reduction is read by
  // the reduction: three dispatches, no copies.
  const MultiFn views = [](const std::vector<Tensor>& in) {
    const Tensor a = slice(in[0], {1, 2}, {3, 4}, Axes{2, 1});                   // [3, 4]
    const Tensor b = slice(transpose(in[0]), {3, 0}, {3, 4}, Axes{1, 2});        // [3, 4]
    const Tensor c = reshape(slice(in[1], {5}, {12}), {3, 4});                   // [3, 4]
    const Tensor d = slice(broadcast(in[1], {2, 20}, Axes{1}), {0, 0}, {1, 4});  // [1, 4]
    return std::vector<Tensor>{a * b - c + d, slice(in[0], {6, 7}, {1, 1}) + 0.5};
  };
  const std::vector<Tensor> inputs{test_uniform(DType::f64, {7, 8}, 5, -2, 2),
                                   test_uniform(DType::f64, {20}, 6, -2, 2)};
  expect_fused_exact("slices", views, inputs, 2);
  const MultiFn computed = [](const std::vector<Tensor>& in) {
    const Tensor e = exp(in[0]);
    return std::vector<Tensor>{slice(e, {2, 1}, {4, 3}) * 2.0, sum(slice(in[0], {1, 0}, {5, 4}, Axes{1, 2}), Axes{1})};
  };
  expect_fused_exact("slice of a computed value", computed, inputs, 3);
  const TracedFunction f = trace(
      [&](const Tensor& x, const Tensor& y) {
        return views({x, y})[0];
      },
      inputs[0], inputs[1]);
  const vulkan::fusion::Plan plan = vulkan::fusion::plan_stages(*f.graph, true, 16);
  EXPECT_EQ(plan.fused_stages(), 1) << vulkan::fusion::to_string(plan, *f.graph);
  EXPECT_EQ(plan.eager_stages(), 0) << vulkan::fusion::to_string(plan, *f.graph);
  EXPECT_NE(vulkan::fusion::to_string(plan, *f.graph).find("+10"), std::string::npos)  // a's start: 1 * 8 + 2
      << vulkan::fusion::to_string(plan, *f.graph);
}

TEST(FusionGraphs, MixedDtypesWithCasts) {
  NXV_REQUIRE_VULKAN();
  const MultiFn fn = [](const std::vector<Tensor>& in) {
    const Tensor i = as_type(in[0] * 100.0, DType::s32) + in[1];                 // f32 -> s32
    const Tensor f = as_type(i, DType::f64) * 0.5 + as_type(in[0], DType::f64);  // s32, f32 -> f64
    return std::vector<Tensor>{f, as_type(greater(f, 0.0), DType::u8) + as_type(in[1], DType::u8)};
  };
  expect_fused_exact("mixed", fn, {test_uniform(DType::f32, {9, 11}, 8, -5, 5), test_data(DType::s32, {9, 11}, 9)});
}

TEST(FusionGraphs, IntegerRegions) {
  NXV_REQUIRE_VULKAN();
  for (DType t : {DType::u8, DType::s32, DType::s64}) {
    const MultiFn fn = [](const std::vector<Tensor>& in) {
      const Tensor x = bitwise_xor(in[0] * in[1] + 3, right_shift(in[0], 2));
      return std::vector<Tensor>{remainder(x, in[1]) - quotient(x, in[1]), max(x, in[0])};
    };
    expect_fused_exact("ints:" + std::string(name(t)), fn, {test_data(t, {130}, 10), test_data(t, {130}, 11)});
  }
}

TEST(FusionGraphs, EmptyTensorsAndRankZero) {
  NXV_REQUIRE_VULKAN();
  const MultiFn fn = [](const std::vector<Tensor>& in) { return std::vector<Tensor>{exp(in[0]) * in[1] + 1.0}; };
  expect_fused_exact("empty", fn, {test_data(DType::f32, {0, 3}, 12), test_data(DType::f32, {3}, 13)}, 0);
  expect_fused_exact("rank0", fn, {test_data(DType::f32, {}, 14), test_data(DType::f32, {}, 15)});
  expect_fused_exact("rank0 broadcast", fn, {test_data(DType::f32, {}, 16), test_data(DType::f32, {17}, 17)});
}

TEST(FusionGraphs, NonElementwiseNodesSplitRegions) {
  NXV_REQUIRE_VULKAN();
  // exp -> sum -> divide: the division reads the sum, which reads the exp, so it cannot join the exp's region.
  // 2 dispatches: the sum fused with the exp (which it also writes for the division), and the division.
  const MultiFn fn = [](const std::vector<Tensor>& in) {
    const Tensor e = exp(in[0] - 1.0);
    return std::vector<Tensor>{e / sum(e, Axes{1}, true) + in[0]};
  };
  expect_fused_exact("softmax-like", fn, {test_uniform(DType::f32, {8, 16}, 18, -3, 3)}, 2);
  const FusedRun r = run_fused_and_eager(fn, {test_uniform(DType::f32, {8, 16}, 18, -3, 3)});
  EXPECT_LT(r.fused_dispatches, r.eager_dispatches);
  EXPECT_EQ(r.fused_submits, 1u);
}

TEST(FusionGraphs, DebugPrintsTheStagePlan) {
  NXV_REQUIRE_VULKAN();
  const Tensor x = test_uniform(DType::f32, {4, 5}, 19, -1, 1).to(vulkan::backend());
  // The sum absorbs exp(a) * 2 and takes the + 1 as its epilogue; the transpose and the dot stay eager.
  auto f = jit(
      [](const Tensor& a) {
        return std::vector<Tensor>{sum(exp(a) * 2.0, Axes{1}) + 1.0, dot(a, transpose(a))};
      },
      {.compiler = vulkan::compiler()});
  std::string printed;
  {
    const nxv::test::EnvGuard debug("NXV_DEBUG", "1");
    ::testing::internal::CaptureStderr();
    f(x);
    printed = ::testing::internal::GetCapturedStderr();
  }
  EXPECT_NE(printed.find("stage plan of (f32[4, 5]) on vulkan"), std::string::npos) << printed;
  EXPECT_NE(printed.find("reduction %"), std::string::npos) << printed;
  EXPECT_NE(printed.find(" : f32[4] over [4, 5], 2 ops"), std::string::npos) << printed;
  EXPECT_NE(printed.find("; epilogue [4]"), std::string::npos) << printed;
  EXPECT_NE(printed.find("eager %"), std::string::npos) << printed;
  EXPECT_NE(printed.find("3 stages: 0 fused, 1 reductions, 0 contractions (1 dispatches), 2 eager"), std::string::npos)
      << printed;
}

// The planner on a traced graph: regions, reads and writes as the design says.
TEST(FusionPlan, OneRegionPerElementwiseChainAndEagerRest) {
  const Tensor x = zeros({4, 8}), w = zeros({8, 3});
  const TracedFunction f = trace(
      [](const Tensor& a, const Tensor& b) {
        const Tensor h = max(dot(a, b) + 1.0, 0.0);  // dot (eager), then add+max fused
        return sum(h * h);                           // multiply fused with add+max, all computed by the sum
      },
      x, w);
  const vulkan::fusion::Plan plan = vulkan::fusion::plan_stages(*f.graph, true, 16);
  EXPECT_EQ(plan.fused_stages(), 0) << vulkan::fusion::to_string(plan, *f.graph);
  EXPECT_EQ(plan.reduction_stages(), 1) << vulkan::fusion::to_string(plan, *f.graph);
  EXPECT_EQ(plan.eager_stages(), 1) << vulkan::fusion::to_string(plan, *f.graph);
  const vulkan::fusion::Plan unfused = vulkan::fusion::plan_stages(*f.graph, false, 16);
  EXPECT_EQ(unfused.fused_stages(), 0);
  EXPECT_GE(unfused.eager_stages(), 5) << vulkan::fusion::to_string(unfused, *f.graph);
}

TEST(FusionPlan, RegionsAreSplitAtTheBindingLimit) {
  const std::vector<Tensor> xs(10, zeros({16}));
  const TracedFunction f = trace(
      [](const std::vector<Tensor>& in) {
        Tensor acc = in[0];
        for (std::size_t i = 1; i < in.size(); ++i) acc = acc * in[i] + 1.0;
        return acc;
      },
      xs);
  const vulkan::fusion::Plan wide = vulkan::fusion::plan_stages(*f.graph, true, 16);
  EXPECT_EQ(wide.fused_stages(), 1) << vulkan::fusion::to_string(wide, *f.graph);
  const vulkan::fusion::Plan narrow = vulkan::fusion::plan_stages(*f.graph, true, 4);
  EXPECT_GT(narrow.fused_stages(), 1);
  for (const vulkan::fusion::Stage& s : narrow.stages)
    if (s.kind == vulkan::fusion::Stage::Kind::fused)
      EXPECT_LE(s.kernel.bindings(), 4u) << vulkan::fusion::to_string(narrow, *f.graph);
}

// NUTS's U-turn checks sum products of many [chains, depth, d] values over d: in[0] * in[1] + in[2] * in[3] + ...
// summed over the last axis, a reduction whose fused kernel reads every input.
Tensor sum_of_pair_products(const std::vector<Tensor>& in) {
  Tensor acc = in[0] * in[1];
  for (std::size_t i = 2; i < in.size(); i += 2) acc = acc + in[i] * in[i + 1];
  return sum(acc, Axes{-1});
}

// With 20 inputs: within the device's bindings (32 on lavapipe and NVIDIA) one generated reduction; at 16, the old
// layout's size, it ran eagerly over a materialised product.
TEST(FusionPlan, AReductionOfTwentyInputsFusesWithinTheDevicesBindings) {
  const std::vector<Tensor> xs(20, zeros({6, 10, 9}));
  const TracedFunction f = trace(sum_of_pair_products, xs);
  const vulkan::fusion::Plan wide = vulkan::fusion::plan_stages(*f.graph, true, 32);
  EXPECT_EQ(wide.reduction_stages(), 1) << vulkan::fusion::to_string(wide, *f.graph);
  EXPECT_EQ(wide.eager_stages(), 0) << vulkan::fusion::to_string(wide, *f.graph);
  const vulkan::fusion::Plan narrow = vulkan::fusion::plan_stages(*f.graph, true, 16);
  EXPECT_EQ(narrow.reduction_stages(), 0) << vulkan::fusion::to_string(narrow, *f.graph);
  EXPECT_GE(narrow.eager_stages(), 1) << vulkan::fusion::to_string(narrow, *f.graph);
}

TEST(FusionGraphs, AReductionOfTwentyInputsMatchesEagerInOneDispatch) {
  NXV_REQUIRE_VULKAN();
  if (vulkan::runtime().features().max_bindings < 21) GTEST_SKIP() << "the device binds fewer than 21 buffers";
  const MultiFn fn = [](const std::vector<Tensor>& in) { return std::vector<Tensor>{sum_of_pair_products(in)}; };
  std::vector<Tensor> inputs;
  for (std::uint64_t i = 0; i < 20; ++i) inputs.push_back(test_uniform(DType::f32, {6, 10, 9}, 60 + i, -2, 2));
  expect_fused_exact("twenty-input reduction", fn, inputs, 1);
}

TEST(FusionGraphs, SplitRegionsStillMatch) {
  NXV_REQUIRE_VULKAN();
  // One input more than the bindings of one kernel (the output takes one more), so the chain is split into two.
  const std::uint32_t max_bindings = vulkan::runtime().features().max_bindings;
  const MultiFn fn = [](const std::vector<Tensor>& in) {
    Tensor acc = in[0];
    for (std::size_t i = 1; i < in.size(); ++i) acc = acc * in[i] + 0.25;
    return std::vector<Tensor>{acc};
  };
  std::vector<Tensor> inputs;
  for (std::uint32_t i = 0; i <= max_bindings; ++i)
    inputs.push_back(test_uniform(DType::f32, {40}, 30 + static_cast<std::uint64_t>(i), -1.5, 1.5));
  expect_fused_exact("split", fn, inputs, 2);
}

}  // namespace
}  // namespace nxv::testing
