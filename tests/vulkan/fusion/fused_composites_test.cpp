// The composites under jit (src/ops/composites.cpp builds them from primitives, so the fusion compiler sees
// ordinary graphs): logsumexp's sum of exp(x - shift) runs as a generated reduction stage absorbing its
// producer, and logsumexp, variance, standard_deviation and all_close fused = eager Vulkan = reference bit for bit,
// including the rows of ±inf and NaN; bitcast as a view between fused regions; slice / put_slice with traced
// starts.
#include <limits>

#include "nxv/indexing.hpp"
#include "nxv/ops.hpp"
#include "support/fusion.hpp"
#include "vulkan/fusion/plan.hpp"

namespace nxv::testing {
namespace {

TEST(FusionPlan, LogsumexpRunsInGeneratedReductionStages) {
  const Tensor x = zeros({4, 8});
  // Of an input: the max reads a materialised value (eager); the sum absorbs exp(x - shift) and the shift's
  // finiteness test, and the log, the un-shift and the -inf select become its epilogue. Dropping the kept axis is
  // a reshape (a view, no dispatch): 2 dispatches in all.
  const TracedFunction of_input = trace([](const Tensor& a) { return logsumexp(a, Axes{1}); }, x);
  const vulkan::fusion::Plan plan = vulkan::fusion::plan_stages(*of_input.graph, true, 16);
  const std::string printed = vulkan::fusion::to_string(plan, *of_input.graph);
  EXPECT_EQ(plan.reduction_stages(), 1) << printed;
  EXPECT_EQ(plan.fused_stages(), 0) << printed;
  EXPECT_EQ(plan.eager_stages(), 2) << printed;  // the max and the reshape
  EXPECT_NE(printed.find("eager %2 = reduce(max"), std::string::npos) << printed;
  EXPECT_NE(printed.find("unary(log)"), std::string::npos) << printed;
  EXPECT_NE(printed.find("; epilogue [4, 1]"), std::string::npos) << printed;
  // Of computed logits, keeping the axis: the max absorbs the producer too, so both reductions are generated
  // stages and nothing is eager.
  const TracedFunction of_logits = trace([](const Tensor& a) { return logsumexp(a * 2.0 + 1.0, Axes{1}, true); }, x);
  const vulkan::fusion::Plan both = vulkan::fusion::plan_stages(*of_logits.graph, true, 16);
  EXPECT_EQ(both.reduction_stages(), 2) << vulkan::fusion::to_string(both, *of_logits.graph);
  EXPECT_EQ(both.eager_stages(), 0) << vulkan::fusion::to_string(both, *of_logits.graph);
  EXPECT_EQ(both.fused_stages(), 0) << vulkan::fusion::to_string(both, *of_logits.graph);
}

TEST(FusedComposites, LogsumexpExactWithInfinities) {
  NXV_REQUIRE_VULKAN();
  const double inf = std::numeric_limits<double>::infinity(), nan = std::numeric_limits<double>::quiet_NaN();
  const MultiFn rows = [](const std::vector<Tensor>& in) { return std::vector<Tensor>{logsumexp(in[0], Axes{1})}; };
  const MultiFn logits = [](const std::vector<Tensor>& in) {
    return std::vector<Tensor>{logsumexp(in[0] * 2.0 + in[1], Axes{1}, true)};
  };
  for (DType t : {DType::f32, DType::f64}) {
    const std::string sfx = ":" + std::string(name(t));
    expect_fused_exact("logsumexp rows" + sfx, rows, {test_uniform(t, {32, 10}, 1, -50, 50)}, 2);
    const std::vector<double> v = {-inf, -inf, -inf, 1, inf, 2, 1, nan, 2, -inf, 0, -inf, 700, 710, 89, 0, 0, 0};
    expect_fused_exact("logsumexp specials" + sfx, rows, {as_type(tensor<double>(v, {6, 3}, reference_backend()), t)},
                       2);
    expect_fused_exact("logsumexp of logits" + sfx, logits,
                       {test_uniform(t, {16, 300}, 2, -5, 5), test_uniform(t, {300}, 3, -1, 1)}, 2);
  }
}

TEST(FusedComposites, MomentsAndAllClose) {
  NXV_REQUIRE_VULKAN();
  const MultiFn moments = [](const std::vector<Tensor>& in) {
    return std::vector<Tensor>{variance(in[0], Axes{1}, 1), standard_deviation(in[0], Axes{0}, 0, true)};
  };
  const MultiFn close = [](const std::vector<Tensor>& in) {
    return std::vector<Tensor>{all_close(in[0], in[1], 1e-3, 1e-3), all_close(in[0], in[0] + 1e-9, 1e-5, 1e-8, true)};
  };
  for (DType t : {DType::f32, DType::f64}) {
    const std::string sfx = ":" + std::string(name(t));
    expect_fused_exact("moments" + sfx, moments, {test_uniform(t, {24, 40}, 4, -3, 3)}, -1);
    expect_fused_exact("all_close" + sfx, close, {test_data(t, {24, 40}, 5), test_data(t, {40}, 6)}, -1);
  }
}

// bitcast is a view between fused regions: the region before it writes the bytes, the one after reads them.
TEST(FusedComposites, BitcastBetweenRegions) {
  NXV_REQUIRE_VULKAN();
  const MultiFn fn = [](const std::vector<Tensor>& in) {
    const Tensor bits = bitwise_and(bitcast(in[0] * 2.0 - 1.0, DType::s32), 0x7fffffff);
    return std::vector<Tensor>{bitcast(bits, DType::f32) + in[0], bits};
  };
  expect_fused_exact("bitcast abs", fn, {test_uniform(DType::f32, {37, 41}, 7, -2, 2)}, -1);
}

// Tensor start indices are traced inputs: one compiled function serves every start, clamped on the device.
TEST(FusedComposites, DynamicSliceStartsAreTraced) {
  NXV_REQUIRE_VULKAN();
  const MultiFn fn = [](const std::vector<Tensor>& in) {
    const Tensor part = dynamic_slice(in[0], {in[1], in[2]}, {3, 4}) * 2.0;
    return std::vector<Tensor>{part, dynamic_put_slice(in[0], {in[2], in[1]}, part + 1.0)};
  };
  const Tensor x = test_uniform(DType::f32, {9, 12}, 8, -2, 2);
  for (const auto& s : std::vector<std::pair<int, int>>{{2, 5}, {-3, 40}, {8, 0}}) {
    const Tensor s0 = scalar(s.first, DType::s32, reference_backend()),
                 s1 = scalar(s.second, DType::s32, reference_backend());
    expect_fused_exact("dynamic_slice at " + std::to_string(s.first) + ", " + std::to_string(s.second), fn, {x, s0, s1},
                       -1);
  }
  auto jitted = jit(fn, {.compiler = vulkan::compiler()});
  Backend& vk = vulkan::backend();
  const std::uint64_t before = trace_count();
  const Tensor xv = x.to(vk);
  const Tensor a = jitted(std::vector<Tensor>{xv, scalar(1, DType::s32, vk), scalar(2, DType::s32, vk)})[0];
  const Tensor b = jitted(std::vector<Tensor>{xv, scalar(6, DType::s32, vk), scalar(0, DType::s32, vk)})[0];
  EXPECT_EQ(trace_count() - before, 1u);
  EXPECT_EQ(compare_exact(a.to_host(), slice(x, {1, 2}, {3, 4}).to_host() * 2.0), "");
  EXPECT_EQ(compare_exact(b.to_host(), slice(x, {6, 0}, {3, 4}).to_host() * 2.0), "");
}

}  // namespace
}  // namespace nxv::testing
