// Reductions fused with their elementwise producers (docs/fusion-compiler.md): every reduce function
// over every dtype, kept and reduced axes in several layouts, several chunks per output (the eager second pass),
// empty tensors and NaN/inf, values of the producer also needed elsewhere, and the softmax / log-softmax /
// cross-entropy dispatch counts. Each is fused = eager Vulkan = reference bit for bit with a stated dispatch count.
#include "nxv/ops.hpp"
#include "support/fusion.hpp"
#include "support/models.hpp"
#include "vulkan/fusion/plan.hpp"

namespace nxv::testing {
namespace {

TEST(FusedReduce, EveryFunctionAndDtypeInSeveralLayouts) {
  NXV_REQUIRE_VULKAN();
  const std::vector<std::pair<OptAxes, bool>> layouts = {{Axes{1}, false}, {Axes{1}, true},  {Axes{0, 2}, false},
                                                         {Axes{2}, true},  {Axes{0}, false}, {std::nullopt, false}};
  for (DType t : {DType::f32, DType::f64, DType::f16, DType::bf16, DType::s32, DType::s64, DType::u8}) {
    for (const NamedReduce& r : k_reduces) {
      for (const auto& layout : layouts) {
        // (Not a structured binding: clang 14, the sanitizer build's compiler, cannot capture one.)
        const OptAxes axes = layout.first;
        const bool keep = layout.second;
        const MultiFn fn = [&r, axes, keep](const std::vector<Tensor>& in) {
          return std::vector<Tensor>{r.fn(producer(in[0], in[1]), axes, keep)};
        };
        // product over floats near 1 stays finite; the integers wrap identically everywhere.
        const bool near_one = r.fn == product && is_float(t);
        const Tensor a = near_one ? test_uniform(t, {6, 5, 7}, 1, 0.5, 1.3) : test_data(t, {6, 5, 7}, 1);
        const Tensor b = near_one ? test_uniform(t, {5, 7}, 2, 0.5, 1.5) : test_data(t, {5, 7}, 2);
        expect_fused_exact(std::string(r.name) + ":" + std::string(name(t)) + " axes " +
                               (axes ? to_string(Shape(axes->begin(), axes->end())) : std::string("all")) +
                               (keep ? " keep" : ""),
                           fn, {a, b}, 1);
      }
    }
  }
}

TEST(FusedReduce, PredicateInputs) {
  NXV_REQUIRE_VULKAN();
  // all/any/max/min of a comparison (pred, whose min identity is 1 rather than u8's 255).
  for (const NamedReduce& r : k_reduces) {
    if (r.fn == sum || r.fn == product) continue;  // the front end sums predicates as s64 (covered above)
    const MultiFn fn = [&r](const std::vector<Tensor>& in) {
      return std::vector<Tensor>{r.fn(greater(in[0], in[1]), Axes{1}, false), r.fn(less(in[0], 5.0), Axes{0}, true)};
    };
    expect_fused_exact(r.name, fn,
                       {test_uniform(DType::f32, {9, 300}, 3, 0, 10), test_uniform(DType::f32, {300}, 4, 0, 10)}, 2);
  }
}

TEST(FusedReduce, NanAndInfinityPropagateAsEagerly) {
  NXV_REQUIRE_VULKAN();
  // log of values in [-1, 3] gives NaN for negatives and -inf at 0; test_data adds its special values (NaN, inf).
  for (DType t : {DType::f32, DType::f64})
    for (const NamedReduce& r : k_reduces) {
      const MultiFn fn = [&r](const std::vector<Tensor>& in) {
        const Tensor x = log(in[0]) + in[1];
        return std::vector<Tensor>{r.fn(x, Axes{1}, false), r.fn(x, Axes{0}, false)};
      };
      Tensor a = test_uniform(t, {33, 70}, 5, -1, 3);
      expect_fused_exact(std::string("nan ") + r.name + ":" + std::string(name(t)), fn,
                         {select(less(a, 0.1), a * 0.0, a), test_data(t, {33, 70}, 6)}, 2);
    }
}

TEST(FusedReduce, SeveralChunksTakeTheEagerSecondPass) {
  NXV_REQUIRE_VULKAN();
  // 40000 and 70000 elements per output: 3 and 5 chunks of 16384, partials reduced again by the eager kernel
  // (2 dispatches). Strided reduced axes (axis 0 of [40000, 3]) too.
  const MultiFn rows = [](const std::vector<Tensor>& in) {
    return std::vector<Tensor>{sum(exp(in[0]) * 0.25, Axes{1})};
  };
  expect_fused_exact("rows", rows, {test_uniform(DType::f32, {2, 40000}, 7, -2, 2)}, 2);
  const MultiFn all_of = [](const std::vector<Tensor>& in) {
    return std::vector<Tensor>{reduce_max(in[0] * in[0] - 1.0)};
  };
  expect_fused_exact("all axes f64", all_of, {test_uniform(DType::f64, {70000}, 8, -2, 2)}, 2);
  const MultiFn columns = [](const std::vector<Tensor>& in) {
    return std::vector<Tensor>{sum(as_type(in[0], DType::s64) * 3, Axes{0}, true)};
  };
  expect_fused_exact("columns s32->s64", columns, {test_data(DType::s32, {40000, 3}, 9)}, 2);
  const MultiFn any_of = [](const std::vector<Tensor>& in) {
    return std::vector<Tensor>{any(greater(in[0], 1.99), Axes{1}), all(greater(in[0], -1.99), Axes{1})};
  };
  expect_fused_exact("any/all chunks", any_of, {test_uniform(DType::f32, {3, 33000}, 10, -2, 2)}, 4);
  // f16 and bf16 accumulate in f32: f32 partials, reduced by the eager kernel, rounded once by a cast (3 dispatches).
  // 40000 values near 0.25 sum to about 10^4, where f16's spacing is 8: an f16 accumulator would stall long before.
  for (const DType t : {DType::f16, DType::bf16})
    expect_fused_exact(std::string("rows ") + std::string(name(t)), rows, {test_uniform(t, {2, 40000}, 11, -0.1, 0.1)},
                       3);
}

TEST(FusedReduce, EmptyTensors) {
  NXV_REQUIRE_VULKAN();
  // No outputs: nothing to dispatch. Outputs over an empty axis: one dispatch stores the identity.
  const MultiFn fn = [](const std::vector<Tensor>& in) {
    const Tensor x = exp(in[0]) + 1.0;
    return std::vector<Tensor>{sum(x, Axes{1}), reduce_max(x, Axes{1}, true)};
  };
  expect_fused_exact("no outputs", fn, {test_data(DType::f32, {0, 5}, 11)}, 0);
  expect_fused_exact("empty axis", fn, {test_data(DType::f32, {4, 0}, 12)}, 2);
  const MultiFn ints = [](const std::vector<Tensor>& in) {
    return std::vector<Tensor>{reduce_min(in[0] * 2, Axes{0}), product(in[0] + 1, Axes{0})};
  };
  expect_fused_exact("empty axis ints", ints, {test_data(DType::u8, {0, 3}, 13)}, 2);
}

TEST(FusedReduce, ProducerValuesNeededElsewhereAreWrittenByTheReduction) {
  NXV_REQUIRE_VULKAN();
  // e and e * 2 are results too: the reduction kernel writes them as it visits each element, one dispatch.
  const MultiFn fn = [](const std::vector<Tensor>& in) {
    const Tensor e = exp(in[0] - 1.0);
    return std::vector<Tensor>{sum(e, Axes{1}), e, e * 2.0};
  };
  expect_fused_exact("written", fn, {test_uniform(DType::f32, {7, 300}, 14, -3, 3)}, 1);
  // Two reductions of one region: the first writes nothing extra, the second recomputes the region.
  const MultiFn two = [](const std::vector<Tensor>& in) {
    const Tensor e = tanh(in[0]) * in[1];
    return std::vector<Tensor>{sum(e, Axes{0}), reduce_max(e, Axes{1})};
  };
  expect_fused_exact("two", two,
                     {test_uniform(DType::f64, {30, 20}, 15, -3, 3), test_uniform(DType::f64, {20}, 16, -1, 1)}, 2);
  // Several chunks while the region's values are written: every element is visited exactly once.
  const MultiFn big = [](const std::vector<Tensor>& in) {
    const Tensor e = in[0] * 3.0;
    return std::vector<Tensor>{sum(e, Axes{1}), e};
  };
  expect_fused_exact("written chunks", big, {test_uniform(DType::f32, {2, 20000}, 17, -1, 1)}, 2);
}

// x -> exp(x - max(x)) / sum(exp(x - max(x))): the max (nothing to fuse: x is an input), the sum fused with
// exp(x - max) which it also writes, and the division: 3 dispatches.
TEST(FusedReduce, SoftmaxInThreeDispatches) {
  NXV_REQUIRE_VULKAN();
  const MultiFn fn = [](const std::vector<Tensor>& in) {
    const Tensor e = exp(in[0] - reduce_max(in[0], Axes{1}, true));
    return std::vector<Tensor>{e / sum(e, Axes{1}, true)};
  };
  for (DType t : {DType::f32, DType::f64, DType::f16, DType::bf16})
    expect_fused_exact("softmax:" + std::string(name(t)), fn, {test_uniform(t, {32, 10}, 18, -5, 5)}, 3);
  // Softmax of computed logits: the max also absorbs the bias add (and writes the logits): still 3.
  const MultiFn of_logits = [](const std::vector<Tensor>& in) {
    const Tensor logits = in[0] * 2.0 + in[1];
    const Tensor e = exp(logits - reduce_max(logits, Axes{1}, true));
    return std::vector<Tensor>{e / sum(e, Axes{1}, true)};
  };
  expect_fused_exact("softmax of logits", of_logits,
                     {test_uniform(DType::f32, {32, 10}, 19, -5, 5), test_uniform(DType::f32, {10}, 20, -1, 1)}, 3);
}

TEST(FusedReduce, LogSoftmaxInThreeDispatches) {
  NXV_REQUIRE_VULKAN();
  const MultiFn fn = [](const std::vector<Tensor>& in) {
    const Tensor shifted = in[0] - reduce_max(in[0], Axes{1}, true);
    return std::vector<Tensor>{shifted - log(sum(exp(shifted), Axes{1}, true))};
  };
  for (DType t : {DType::f32, DType::f64})
    expect_fused_exact("log-softmax:" + std::string(name(t)), fn, {test_uniform(t, {32, 10}, 21, -5, 5)}, 3);
}

// The cross-entropy of the step tests (tests/support/models.hpp): the max (of an input: nothing to fuse),
// the sum fused with exp(shifted), and the loss with its mean in one dispatch: the row sums of one_hot * log_probs
// computed in the mean's workgroup (nested.cpp), the mean's sum over them with its division and negation as
// epilogue: 3 dispatches.
TEST(FusedReduce, CrossEntropyAndItsMean) {
  NXV_REQUIRE_VULKAN();
  const MultiFn fn = [](const std::vector<Tensor>& in) {
    return std::vector<Tensor>{models::cross_entropy(in[0], in[1])};
  };
  const Tensor labels = remainder(iota({32}, 0, DType::s64, reference_backend()) * 7, 10);
  expect_fused_exact("cross-entropy", fn, {test_uniform(DType::f32, {32, 10}, 22, -5, 5), labels}, 3);
}

// Epilogues: a region over a reduction's result is computed by the lane that stores it.
TEST(FusedReduce, RegionsOverTheResultAreItsEpilogue) {
  NXV_REQUIRE_VULKAN();
  // An SGD update of a bias from its gradient's batch sum: the sum absorbs g * h, the update is its epilogue.
  const MultiFn update = [](const std::vector<Tensor>& in) {
    return std::vector<Tensor>{in[2] - 0.05 * sum(in[0] * in[1], Axes{0})};
  };
  for (DType t : {DType::f32, DType::f64, DType::f16, DType::bf16})
    expect_fused_exact(
        "update:" + std::string(name(t)), update,
        {test_uniform(t, {32, 10}, 23, -1, 1), test_uniform(t, {32, 10}, 24, -1, 1), test_uniform(t, {10}, 25, -1, 1)},
        1);
  // A mean of an input: the eager reduce becomes a generated one for its division (one chunk per output).
  const MultiFn means = [](const std::vector<Tensor>& in) {
    return std::vector<Tensor>{mean(in[0], Axes{1}), negate(mean(in[0]))};
  };
  expect_fused_exact("mean", means, {test_uniform(DType::f32, {12, 50}, 26, -1, 1)}, 2);
  // Integer and predicate results (the epilogue reads the stored value's type). The three results are three
  // regions (siblings are not merged): the first becomes the max's epilogue, the select the all's (it reads both
  // results, neither through the other), and m * m has no reduction left to join: 3 dispatches.
  const MultiFn ints = [](const std::vector<Tensor>& in) {
    const Tensor m = reduce_max(in[0] * 3, Axes{1});
    const Tensor a = all(greater(in[0], 0), Axes{1});
    return std::vector<Tensor>{m + in[1], m * m, select(a, in[1], m)};
  };
  expect_fused_exact("ints", ints, {test_data(DType::s32, {6, 9}, 27), test_data(DType::s32, {6}, 28)}, 3);
  // Several chunks per output: the result comes from the eager second pass, so each division is its own kernel:
  // 2 + 1 for each mean.
  expect_fused_exact("mean chunks", means, {test_uniform(DType::f32, {2, 40000}, 29, -1, 1)}, 6);
  // A region reading the result both directly and through another stage (reverse) cannot be its epilogue.
  const MultiFn through = [](const std::vector<Tensor>& in) {
    const Tensor s = sum(exp(in[0]), Axes{1});
    return std::vector<Tensor>{s * reverse(s)};
  };
  expect_fused_exact("through reverse", through, {test_uniform(DType::f32, {5, 7}, 30, -1, 1)}, 3);
}

// The planner: a reduction whose input is computed becomes a reduction stage absorbing its producer; a reduction
// of a materialised value stays eager; a region over a reduction's result becomes its epilogue.
TEST(FusionPlan, ReductionsAbsorbTheirProducers) {
  const Tensor x = zeros({4, 8});
  const TracedFunction f = trace([](const Tensor& a) { return sum(exp(a) * 2.0, Axes{1}) + reduce_max(a); }, x);
  const vulkan::fusion::Plan plan = vulkan::fusion::plan_stages(*f.graph, true, 16);
  const std::string printed = vulkan::fusion::to_string(plan, *f.graph);
  EXPECT_EQ(plan.reduction_stages(), 1) << printed;
  EXPECT_EQ(plan.eager_stages(), 1) << printed;  // reduce_max(a)
  EXPECT_EQ(plan.fused_stages(), 0) << printed;  // the addition: the sum's epilogue
  EXPECT_NE(printed.find("; epilogue [4]"), std::string::npos) << printed;
  EXPECT_NE(printed.find("reduction %"), std::string::npos) << printed;
  const vulkan::fusion::Plan unfused = vulkan::fusion::plan_stages(*f.graph, false, 16);
  EXPECT_EQ(unfused.reduction_stages(), 0);
}

TEST(FusionPlan, ReductionOverTheBindingLimitStaysEager) {
  // The product chain reads 6 inputs and is also a result: its region kernel binds 7 buffers, the reduction
  // that absorbs it 8 (the chain written, and the sum).
  const std::vector<Tensor> xs(6, zeros({16}));
  const TracedFunction f = trace(
      [](const std::vector<Tensor>& in) {
        Tensor acc = in[0];
        for (std::size_t i = 1; i < in.size(); ++i) acc = acc * in[i];
        return std::vector<Tensor>{sum(acc), acc};
      },
      xs);
  const vulkan::fusion::Plan wide = vulkan::fusion::plan_stages(*f.graph, true, 16);
  EXPECT_EQ(wide.reduction_stages(), 1) << vulkan::fusion::to_string(wide, *f.graph);
  EXPECT_EQ(wide.fused_stages(), 0) << vulkan::fusion::to_string(wide, *f.graph);
  const vulkan::fusion::Plan narrow = vulkan::fusion::plan_stages(*f.graph, true, 7);
  EXPECT_EQ(narrow.reduction_stages(), 0) << vulkan::fusion::to_string(narrow, *f.graph);
  EXPECT_EQ(narrow.fused_stages(), 1) << vulkan::fusion::to_string(narrow, *f.graph);
  EXPECT_EQ(narrow.eager_stages(), 1) << vulkan::fusion::to_string(narrow, *f.graph);
}

}  // namespace
}  // namespace nxv::testing
