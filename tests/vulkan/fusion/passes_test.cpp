// The fusion planner's passes one at a time (src/vulkan/fusion/passes.hpp): each test traces a small graph, runs
// the passes before the one under test, runs that pass, and checks what it alone decided.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "nxv/defn.hpp"
#include "nxv/ops.hpp"
#include "support/parity.hpp"
#include "vulkan/fusion/passes.hpp"

namespace nxv::testing {
namespace {

using vulkan::fusion::Planning;
using vulkan::fusion::Stage;

// The id of the first op node that prints as `call` ("unary(exp)", "reduce(sum, axes=[1])").
NodeId op(const Graph& g, const std::string& call) {
  for (std::size_t i = 0; i < g.nodes.size(); ++i)
    if (g.nodes[i].kind == NodeKind::op && format_call(g.nodes[i].call) == call) return static_cast<NodeId>(i);
  throw std::invalid_argument("no node " + call + " in the graph:\n" + to_string(g));
}

// The stage computing node x (its node or a member), or -1.
int stage_of(const Planning& p, NodeId x) {
  for (std::size_t s = 0; s < p.stages.size(); ++s) {
    const Stage& st = p.stages[s];
    if (st.node == x || std::find(st.members.begin(), st.members.end(), x) != st.members.end())
      return static_cast<int>(s);
  }
  return -1;
}

// The passes from grouping to the pruned kernels, once (plan_stages repeats the last three after a split).
void plan_kernels(Planning& p) {
  vulkan::fusion::group_elementwise_regions(p);
  vulkan::fusion::build_region_kernels(p);
  vulkan::fusion::plan_reduction_stages(p);
  vulkan::fusion::find_needed_values(p);
}

// And the stages they make, before any merge.
void plan_stages_unmerged(Planning& p) {
  plan_kernels(p);
  vulkan::fusion::form_stages(p);
}

// ---- group_elementwise_regions ----------------------------------------------------------------------------------

TEST(FusionPasses, GroupingPutsAChainWithFoldedViewsInOneRegion) {
  const TracedFunction f =
      trace([](const Tensor& a, const Tensor& b, const Tensor& c) { return tanh(a) * b + transpose(c); }, zeros({4, 6}),
            zeros({6}), zeros({6, 4}));
  const Graph& g = *f.graph;
  Planning p(g, 16, true);
  vulkan::fusion::group_elementwise_regions(p);
  ASSERT_EQ(p.regions.size(), 1u) << to_string(g);
  const int r = p.region_of[op(g, "unary(tanh)")];
  EXPECT_EQ(r, 0);
  EXPECT_EQ(p.region_of[op(g, "binary(multiply)")], r);
  EXPECT_EQ(p.region_of[op(g, "binary(add)")], r);
  EXPECT_EQ(p.region_of[op(g, "transpose(axes=[1, 0])")], -1) << "a view is folded into the read, not a member";
}

TEST(FusionPasses, GroupingKeepsANodeOutOfARegionItWouldCloseACycleWith) {
  // e / sum(e) + a: the division reads the sum, which reads e; joining e's region would make a cycle.
  const TracedFunction f = trace(
      [](const Tensor& a) {
        const Tensor e = exp(a - 1.0);
        return e / sum(e, Axes{1}, true) + a;
      },
      zeros({8, 16}));
  const Graph& g = *f.graph;
  Planning p(g, 16, true);
  vulkan::fusion::group_elementwise_regions(p);
  const int producer = p.region_of[op(g, "unary(exp)")], consumer = p.region_of[op(g, "binary(divide)")];
  EXPECT_GE(producer, 0);
  EXPECT_GE(consumer, 0);
  EXPECT_NE(producer, consumer) << to_string(g);
  EXPECT_EQ(p.region_of[op(g, "binary(add)")], consumer);
  EXPECT_EQ(p.region_of[op(g, "binary(subtract)")], producer);
}

// ---- build_region_kernels ---------------------------------------------------------------------------------------

TEST(FusionPasses, RegionKernelsReadBroadcastsStridedAndScalarsAsPushConstants) {
  const TracedFunction f =
      trace([](const Tensor& a, const Tensor& b) { return a * b + 2.0; }, zeros({4, 6}), zeros({6}));
  const Graph& g = *f.graph;
  Planning p(g, 16, true);
  vulkan::fusion::group_elementwise_regions(p);
  vulkan::fusion::build_region_kernels(p);
  ASSERT_EQ(p.region_kernels.size(), 1u);
  const vulkan::fusion::Kernel& k = p.region_kernels[0].full;
  EXPECT_EQ(k.domain, Shape({4, 6}));
  ASSERT_EQ(k.reads.size(), 2u) << "the constant 2 is a push constant, not a read";
  EXPECT_EQ(k.reads[0].node, g.parameters[0]);
  EXPECT_EQ(k.reads[0].strides, Shape({6, 1}));
  EXPECT_EQ(k.reads[1].node, g.parameters[1]);
  EXPECT_EQ(k.reads[1].strides, Shape({0, 1})) << "b is broadcast over the rows";
  EXPECT_EQ(k.push, std::vector<std::uint32_t>{0x40000000u}) << "2.0f";
  EXPECT_EQ(p.region_kernels[0].member_value.size(), 2u);
  EXPECT_TRUE(p.region_kernels[0].member_value.count(op(g, "binary(add)")));
}

// A chain of `ops` unary ops on a [4] value, broadcast into a [4, cols] kernel (added to its own input).
TracedFunction broadcast_chain(int ops, std::int64_t cols) {
  return trace(
      [ops, cols](const Tensor& v, const Tensor& m) {
        Tensor x = v;
        for (int i = 0; i < ops; ++i) x = sin(x);
        return m + broadcast(expand_dims(x, 1), {4, cols});
      },
      zeros({4}), zeros({4, cols}));
}

TEST(FusionPasses, ALongChainBroadcastFarIsReadNotRecomputed) {
  // Recomputed in the [4, cols] kernel: the chain's input v is what it reads. Read: the chain's last value is.
  const auto reads_v = [](const TracedFunction& f) {
    Planning p(*f.graph, 16, true);
    plan_kernels(p);
    const NodeId add = op(*f.graph, "binary(add)");
    const vulkan::fusion::Kernel& k = p.region_kernels[p.region_of[add]].kernel;
    return std::any_of(k.reads.begin(), k.reads.end(),
                       [&](const vulkan::fusion::Read& r) { return r.node == f.graph->parameters[0]; });
  };
  EXPECT_TRUE(reads_v(broadcast_chain(40, 8))) << "broadcast 8-fold: recomputed, however long";
  EXPECT_TRUE(reads_v(broadcast_chain(4, 1000))) << "4 ops: recomputed, however far";
  EXPECT_FALSE(reads_v(broadcast_chain(40, 1000))) << "40 ops 1000-fold: read from the chain's own region";
}

// ---- plan_reduction_stages --------------------------------------------------------------------------------------

TEST(FusionPasses, ReductionsOfComputedInputsBecomeStagesAndAbsorbTheirRegion) {
  const TracedFunction f = trace(
      [](const Tensor& a) {
        return std::vector<Tensor>{sum(exp(a) * 2.0, Axes{1}), reduce_max(a, Axes{1})};
      },
      zeros({4, 8}));
  const Graph& g = *f.graph;
  Planning p(g, 16, true);
  vulkan::fusion::group_elementwise_regions(p);
  vulkan::fusion::build_region_kernels(p);
  vulkan::fusion::plan_reduction_stages(p);
  const NodeId sum_node = op(g, "reduce(sum, axes=[1])");
  ASSERT_EQ(p.reductions.size(), 1u) << "the max of a materialised value stays eager";
  ASSERT_TRUE(p.reductions.count(sum_node));
  const int r = p.region_of[op(g, "binary(multiply)")];
  EXPECT_EQ(p.reductions.at(sum_node).region, r);
  EXPECT_EQ(p.absorber[r], sum_node);

  Planning disallowed(g, 16, false);
  vulkan::fusion::group_elementwise_regions(disallowed);
  vulkan::fusion::build_region_kernels(disallowed);
  vulkan::fusion::plan_reduction_stages(disallowed);
  EXPECT_TRUE(disallowed.reductions.empty()) << "reduction stages off (NXV_FUSION=elementwise)";
}

TEST(FusionPasses, TheFirstReductionOfARegionAbsorbsIt) {
  const TracedFunction f = trace(
      [](const Tensor& a) {
        const Tensor e = exp(a);
        return std::vector<Tensor>{sum(e, Axes{1}), reduce_max(e, Axes{1})};
      },
      zeros({4, 8}));
  const Graph& g = *f.graph;
  Planning p(g, 16, true);
  vulkan::fusion::group_elementwise_regions(p);
  vulkan::fusion::build_region_kernels(p);
  vulkan::fusion::plan_reduction_stages(p);
  const int r = p.region_of[op(g, "unary(exp)")];
  const NodeId first = op(g, "reduce(sum, axes=[1])"), second = op(g, "reduce(max, axes=[1])");
  ASSERT_EQ(p.reductions.size(), 2u);
  EXPECT_EQ(p.reductions.at(first).region, r);
  EXPECT_EQ(p.reductions.at(second).region, r) << "it recomputes the region";
  EXPECT_EQ(p.absorber[r], first);
}

// ---- find_needed_values -----------------------------------------------------------------------------------------

TEST(FusionPasses, NeededValuesAreOutputsAndWhatOtherStagesRead) {
  // e * 2 is computed by the sum that absorbs the region; e itself must exist for the dot.
  const TracedFunction f = trace(
      [](const Tensor& a, const Tensor& w) {
        const Tensor e = exp(a);
        return std::vector<Tensor>{sum(e * 2.0, Axes{1}), dot(e, w)};
      },
      zeros({4, 8}), zeros({8, 3}));
  const Graph& g = *f.graph;
  Planning p(g, 16, true);
  plan_kernels(p);
  const NodeId e = op(g, "unary(exp)"), twice = op(g, "binary(multiply)"), total = op(g, "reduce(sum, axes=[1])");
  EXPECT_TRUE(p.needed[e]);
  EXPECT_FALSE(p.needed[twice]);
  EXPECT_TRUE(p.needed[total]);
  EXPECT_TRUE(p.absorbed(p.region_of[e]));
  const vulkan::fusion::Kernel& k = p.reductions.at(total).kernel;
  ASSERT_EQ(k.outputs.size(), 1u);
  EXPECT_EQ(k.outputs[0].first, e) << "the sum writes e for the dot";
  EXPECT_EQ(k.reads.size(), 1u);
}

TEST(FusionPasses, RegionKernelsArePrunedToTheMembersOthersNeed) {
  const TracedFunction f = trace(
      [](const Tensor& a, const Tensor& b) {
        const Tensor t = tanh(a);
        return std::vector<Tensor>{t * b + 1.0, sigmoid(t)};
      },
      zeros({5, 7}), zeros({5, 7}));
  const Graph& g = *f.graph;
  Planning p(g, 16, true);
  plan_kernels(p);
  ASSERT_EQ(p.regions.size(), 1u);
  const vulkan::fusion::RegionKernel& k = p.region_kernels[0];
  EXPECT_EQ(k.outputs, (std::vector<NodeId>{op(g, "binary(add)"), op(g, "unary(sigmoid)")}));
  EXPECT_EQ(k.kernel.outputs.size(), 2u) << "tanh and the product are computed, not written";
  EXPECT_EQ(k.full.outputs.size(), 0u);
}

// ---- split_oversized_region, keep_oversized_reduction_eager -----------------------------------------------------

TracedFunction chain_of(int inputs, bool reduced) {
  return trace(
      [reduced](const std::vector<Tensor>& in) {
        Tensor acc = in[0];
        for (std::size_t i = 1; i < in.size(); ++i) acc = reduced ? acc * in[i] : acc * in[i] + 1.0;
        return reduced ? std::vector<Tensor>{sum(acc), acc} : std::vector<Tensor>{acc};
      },
      std::vector<Tensor>(static_cast<std::size_t>(inputs), zeros({16})));
}

TEST(FusionPasses, AnOversizedRegionIsSplitInTopologicalOrder) {
  const TracedFunction f = chain_of(10, false);
  Planning wide(*f.graph, 16, true);
  plan_kernels(wide);
  ASSERT_EQ(wide.regions.size(), 1u);
  EXPECT_FALSE(vulkan::fusion::split_oversized_region(wide));
  EXPECT_EQ(wide.regions.size(), 1u);

  Planning narrow(*f.graph, 4, true);
  plan_kernels(narrow);
  const std::vector<NodeId> members = narrow.regions[0];
  ASSERT_TRUE(vulkan::fusion::split_oversized_region(narrow));
  ASSERT_EQ(narrow.regions.size(), 2u);
  const std::size_t half = members.size() / 2;
  EXPECT_EQ(narrow.regions[0], std::vector<NodeId>(members.begin(), members.begin() + half));
  EXPECT_EQ(narrow.regions[1], std::vector<NodeId>(members.begin() + half, members.end()));
  for (NodeId m : narrow.regions[1]) EXPECT_EQ(narrow.region_of[m], 1);
}

TEST(FusionPasses, AnOversizedReductionStaysEager) {
  // The product chain reads 6 inputs and is a result: the sum that absorbs it binds 8 buffers, the region alone 7.
  const TracedFunction f = chain_of(6, true);
  const NodeId total = op(*f.graph, "reduce(sum, axes=[0])");
  Planning wide(*f.graph, 16, true);
  plan_kernels(wide);
  EXPECT_FALSE(vulkan::fusion::keep_oversized_reduction_eager(wide));
  EXPECT_TRUE(wide.reduction_allowed[total]);

  Planning narrow(*f.graph, 7, true);
  plan_kernels(narrow);
  EXPECT_FALSE(vulkan::fusion::split_oversized_region(narrow)) << "the region is absorbed: the sum's kernel counts";
  EXPECT_TRUE(vulkan::fusion::keep_oversized_reduction_eager(narrow));
  EXPECT_FALSE(narrow.reduction_allowed[total]);
}

TEST(FusionPasses, ASecondReductionReadsTheRegionValueTheFirstWritesAnyway) {
  // exp(a) is a result, so the sum that absorbs its region writes it; the max over it then reads it.
  const TracedFunction written = trace(
      [](const Tensor& a) {
        const Tensor e = exp(a);
        return std::vector<Tensor>{sum(e, Axes{1}), reduce_max(e, Axes{1}), e};
      },
      zeros({4, 8}));
  const NodeId max_node = op(*written.graph, "reduce(max, axes=[1])");
  Planning p(*written.graph, 16, true);
  plan_kernels(p);
  EXPECT_TRUE(vulkan::fusion::read_materialised_reduction_inputs(p));
  EXPECT_FALSE(p.reduction_allowed[max_node]);
  EXPECT_TRUE(p.reduction_allowed[op(*written.graph, "reduce(sum, axes=[1])")]) << "the absorber stays fused";

  // Nobody else reads exp(a): the max keeps recomputing it rather than make the sum write it.
  const TracedFunction unwritten = trace(
      [](const Tensor& a) {
        const Tensor e = exp(a);
        return std::vector<Tensor>{sum(e, Axes{1}), reduce_max(e, Axes{1})};
      },
      zeros({4, 8}));
  Planning q(*unwritten.graph, 16, true);
  plan_kernels(q);
  EXPECT_FALSE(vulkan::fusion::read_materialised_reduction_inputs(q));
}

// ---- form_stages ------------------------------------------------------------------------------------------------

TEST(FusionPasses, StagesAreFormedPerReductionRegionAndEagerNode) {
  const TracedFunction f = trace(
      [](const Tensor& a, const Tensor& w) {
        return std::vector<Tensor>{sum(exp(a) * 2.0, Axes{1}) + 1.0, dot(a, w)};
      },
      zeros({4, 8}), zeros({8, 3}));
  const Graph& g = *f.graph;
  Planning p(g, 16, true);
  plan_stages_unmerged(p);
  ASSERT_EQ(p.stages.size(), 3u);
  const int reduction = stage_of(p, op(g, "reduce(sum, axes=[1])")), region = stage_of(p, op(g, "binary(add)")),
            eager = stage_of(p, op(g, "dot(contract=[1]x[0], batch=[]x[])"));
  EXPECT_EQ(p.stages[reduction].kind, Stage::Kind::reduction);
  EXPECT_EQ(p.stages[reduction].members,
            (std::vector<NodeId>{op(g, "unary(exp)"), op(g, "binary(multiply)"), op(g, "reduce(sum, axes=[1])")}));
  EXPECT_EQ(p.stages[region].kind, Stage::Kind::fused);
  EXPECT_EQ(p.stages[eager].kind, Stage::Kind::eager);
  EXPECT_EQ(p.deps[region], std::vector<int>{reduction});
  EXPECT_TRUE(p.deps[reduction].empty());
  EXPECT_EQ(p.merged_into, std::vector<int>(3, -1));
}

// ---- merge_epilogues --------------------------------------------------------------------------------------------

TEST(FusionPasses, ARegionOverAOneChunkReductionBecomesItsEpilogue) {
  const auto planned = [](std::int64_t length) {
    const TracedFunction f =
        trace([](const Tensor& a) { return sum(exp(a) * 2.0, Axes{1}) + 1.0; }, zeros({2, length}));
    auto p = std::make_unique<Planning>(*f.graph, 16, true);
    plan_stages_unmerged(*p);
    vulkan::fusion::merge_epilogues(*p);
    return std::make_pair(f, std::move(p));
  };
  const auto [f, p] = planned(8);
  const int host = stage_of(*p, op(*f.graph, "reduce(sum, axes=[1])"));
  const int region = 1 - host;
  EXPECT_EQ(p->merged_into[region], host);
  EXPECT_EQ(p->stages[host].kernel.epilogue.size(), 1u);
  EXPECT_EQ(p->stages[host].members.back(), op(*f.graph, "binary(add)"));

  const auto [g, q] = planned(40000);  // 3 chunks per output: the result comes from a second pass
  EXPECT_EQ(q->merged_into, std::vector<int>(2, -1));
  for (const Stage& s : q->stages) EXPECT_TRUE(s.kernel.epilogue.empty());
}

TEST(FusionPasses, ARegionReadingTheResultThroughAnotherStageIsNoEpilogue) {
  const TracedFunction f = trace(
      [](const Tensor& a) {
        const Tensor s = sum(exp(a), Axes{1});
        return s * reverse(s);
      },
      zeros({5, 7}));
  Planning p(*f.graph, 16, true);
  plan_stages_unmerged(p);
  ASSERT_EQ(p.stages.size(), 3u);
  vulkan::fusion::merge_epilogues(p);
  EXPECT_EQ(p.merged_into, std::vector<int>(3, -1)) << "merging would make a cycle through the reverse";
}

TEST(FusionPasses, ARegionOverATiledDotMakesAContractionStage) {
  NXV_REQUIRE_VULKAN();
  const TracedFunction f =
      trace([](const Tensor& x, const Tensor& w, const Tensor& b) { return max(dot(x, w) + b, 0.0); }, zeros({8, 6}),
            zeros({6, 5}), zeros({5}));
  Planning p(*f.graph, 16, true);
  plan_stages_unmerged(p);
  const int host = stage_of(p, op(*f.graph, "dot(contract=[1]x[0], batch=[]x[])"));
  ASSERT_EQ(p.stages[host].kind, Stage::Kind::eager);
  vulkan::fusion::merge_epilogues(p);
  EXPECT_EQ(p.stages[host].kind, Stage::Kind::contraction);
  EXPECT_EQ(p.stages[host].kernel.epilogue.size(), 1u);
  EXPECT_FALSE(p.stages[host].kernel.transposed);
  EXPECT_EQ(std::count(p.merged_into.begin(), p.merged_into.end(), host), 1);
}

// ---- merge_nested_reductions ------------------------------------------------------------------------------------

TEST(FusionPasses, ShortRowsNestInTheReductionToOneValueOverThem) {
  const auto planned = [](std::int64_t length) {
    const TracedFunction f = trace([](const Tensor& a, const Tensor& b) { return sum(sum(a * b, Axes{1}) * 2.0); },
                                   zeros({6, length}), zeros({length}));
    auto p = std::make_unique<Planning>(*f.graph, 16, true);
    plan_stages_unmerged(*p);
    vulkan::fusion::merge_nested_reductions(*p);
    return std::make_pair(f, std::move(p));
  };
  const auto [f, p] = planned(32);
  ASSERT_EQ(p->stages.size(), 2u);
  const int inner = stage_of(*p, op(*f.graph, "reduce(sum, axes=[1])"));
  const int outer = 1 - inner;
  EXPECT_EQ(p->merged_into[inner], outer);
  ASSERT_EQ(p->stages[outer].kernel.inner.size(), 1u);
  EXPECT_EQ(p->stages[outer].kernel.inner[0].reduce, op(*f.graph, "reduce(sum, axes=[1])"));

  const auto [g, q] = planned(33);  // rows longer than the 32 lanes that emulate the eager kernel's 256
  EXPECT_EQ(q->merged_into, std::vector<int>(2, -1));
}

// ---- order_stages -----------------------------------------------------------------------------------------------

TEST(FusionPasses, StagesAreOrderedAfterWhatTheirEpiloguesRead) {
  // The sum's epilogue reads the max, traced after it: the merged stage must run after the max's.
  const TracedFunction f = trace(
      [](const Tensor& a, const Tensor& b) {
        const Tensor total = sum(exp(a), Axes{1});
        return total + reduce_max(b, Axes{1});
      },
      zeros({4, 8}), zeros({4, 3}));
  const Graph& g = *f.graph;
  Planning p(g, 16, true);
  plan_stages_unmerged(p);
  vulkan::fusion::merge_epilogues(p);
  ASSERT_EQ(p.stages.size(), 3u);
  ASSERT_LT(stage_of(p, op(g, "reduce(sum, axes=[1])")), stage_of(p, op(g, "reduce(max, axes=[1])")))
      << "the stages as formed, in traced order";
  vulkan::fusion::order_stages(p);
  ASSERT_EQ(p.stages.size(), 2u) << "the merged region's stage is dropped";
  EXPECT_LT(stage_of(p, op(g, "reduce(max, axes=[1])")), stage_of(p, op(g, "reduce(sum, axes=[1])")));
  for (std::size_t s = 0; s < p.stages.size(); ++s)
    for (int d : p.deps[s]) EXPECT_LT(d, static_cast<int>(s));
}

// ---- schedule_by_level ------------------------------------------------------------------------------------------

TEST(FusionPasses, IndependentStagesAreScheduledSideBySide) {
  // Two independent chains of two reductions each, traced one after the other: by level, both first reductions
  // run before both second ones (one barrier between the levels instead of one per stage).
  const TracedFunction f = trace(
      [](const Tensor& a, const Tensor& b) {
        const Tensor x = sum(sum(exp(a), Axes{1}) * 2.0);
        const Tensor y = reduce_min(reduce_max(tanh(b), Axes{1}) * 3.0);
        return std::vector<Tensor>{x, y};
      },
      zeros({4, 8}), zeros({4, 3}));
  const Graph& g = *f.graph;
  Planning p(g, 16, true);  // no merges: four reduction stages, each absorbing its elementwise input
  plan_stages_unmerged(p);
  vulkan::fusion::order_stages(p);
  ASSERT_EQ(p.stages.size(), 4u);
  ASSERT_LT(stage_of(p, op(g, "reduce(sum, axes=[0])")), stage_of(p, op(g, "reduce(max, axes=[1])")))
      << "the traced order: the first chain, then the second";
  vulkan::fusion::schedule_by_level(p);
  ASSERT_EQ(p.stages.size(), 4u);
  const int a1 = stage_of(p, op(g, "reduce(sum, axes=[1])")), b1 = stage_of(p, op(g, "reduce(max, axes=[1])"));
  const int a2 = stage_of(p, op(g, "reduce(sum, axes=[0])")), b2 = stage_of(p, op(g, "reduce(min, axes=[0])"));
  EXPECT_LT(std::max(a1, b1), std::min(a2, b2)) << "both first reductions before both second ones";
  EXPECT_LT(a1, b1) << "stable within a level";
  EXPECT_LT(a2, b2);
  for (std::size_t s = 0; s < p.stages.size(); ++s)
    for (int d : p.deps[s]) EXPECT_LT(d, static_cast<int>(s)) << "still topological";
}

}  // namespace
}  // namespace nxv::testing
