// Nested reductions (vulkan/fusion/nested.cpp): a reduction to one value over another reduction's results runs in one
// dispatch, the inner results computed by 32 lanes emulating the eager kernel's 256, fused = eager Vulkan =
// reference bit for bit: every inner function over every dtype, rows of 1 to 32 elements, 1 to 100 rows (the
// 8-rows-at-a-time loop's edges), NaN/inf/-0.0 (the identity combines turn -0 sums into +0, as eagerly), the inner
// results also returned; and the plans that must not nest (rows of 33, an outer reduction of several outputs).
#include "nxv/ops.hpp"
#include "support/fusion.hpp"
#include "vulkan/fusion/plan.hpp"

namespace nxv::testing {
namespace {

// The outer reductions tried (on numbers: the inner results scaled).
const NamedReduce k_outer[] = {{"sum", sum}, {"max", reduce_max}, {"min", reduce_min}};

// outer(3 * inner(producer, axis 1)): both reductions computed (so both are generated), the outer over the rows.
MultiFn nested(const NamedReduce& inner, const NamedReduce& outer, DType t, bool return_inner) {
  return [&inner, &outer, t, return_inner](const std::vector<Tensor>& in) {
    const Tensor rows = inner.fn(producer(in[0], in[1]), Axes{1}, false);
    const Tensor scaled = as_type(rows, t) * 3;
    std::vector<Tensor> out{outer.fn(scaled, std::nullopt, false)};
    if (return_inner) out.push_back(rows);
    return out;
  };
}

TEST(FusedNested, EveryInnerFunctionAndDtypeInOneDispatch) {
  NXV_REQUIRE_VULKAN();
  for (DType t : {DType::f32, DType::f64, DType::f16, DType::bf16, DType::s32, DType::s64, DType::u8})
    for (const NamedReduce& inner : k_reduces)
      for (const NamedReduce& outer : k_outer) {
        const bool near_one = inner.fn == product && is_float(t);
        const Tensor a = near_one ? test_uniform(t, {21, 13}, 1, 0.5, 1.3) : test_data(t, {21, 13}, 1);
        const Tensor b = near_one ? test_uniform(t, {13}, 2, 0.5, 1.5) : test_data(t, {13}, 2);
        expect_fused_exact(std::string(inner.name) + " then " + outer.name + ":" + std::string(name(t)),
                           nested(inner, outer, t, false), {a, b}, 1);
      }
}

TEST(FusedNested, RowLengthsAndCountsAtTheLoopEdges) {
  NXV_REQUIRE_VULKAN();
  for (std::int64_t length : {1, 2, 17, 31, 32})
    for (std::int64_t rows : {1, 7, 8, 9, 100})
      expect_fused_exact(
          "rows " + std::to_string(rows) + " of " + std::to_string(length),
          nested(k_reduces[0], k_outer[0], DType::f32, true),
          {test_uniform(DType::f32, {rows, length}, 3, -2, 2), test_uniform(DType::f32, {length}, 4, -2, 2)}, 1);
}

TEST(FusedNested, NanAndInfinityPropagateAsEagerly) {
  NXV_REQUIRE_VULKAN();
  for (DType t : {DType::f32, DType::f64})
    expect_fused_exact(std::string("specials ") + std::string(name(t)), nested(k_reduces[0], k_outer[1], t, true),
                       {test_data(t, {40, 9}, 5), test_data(t, {9}, 6)}, 1);
}

TEST(FusedNested, NegativeZeroRowsSumToPositiveZeroAsEagerly) {
  NXV_REQUIRE_VULKAN();
  // -0 * 1 + ... : every product -0; the eager lanes start from +0 and the idle lanes' identities join the tree.
  const MultiFn fn = [](const std::vector<Tensor>& in) {
    const Tensor rows = sum(in[0] * in[1], Axes{1});
    return std::vector<Tensor>{reduce_min(rows * 1.0, std::nullopt), rows};
  };
  const Tensor minus_zero = full({5, 3}, -0.0, DType::f32, reference_backend());
  expect_fused_exact("-0 rows", fn, {minus_zero, full({3}, 1.0, DType::f32, reference_backend())}, 1);
}

TEST(FusionPlan, OnlyShortRowsIntoOneValueNest) {
  const auto plan_of = [](std::int64_t length, bool one_output) {
    const std::vector<Tensor> xs{zeros({6, length}), zeros({length})};
    const TracedFunction f = trace(
        [one_output](const std::vector<Tensor>& in) {
          const Tensor rows = sum(in[0] * in[1], Axes{1});
          return std::vector<Tensor>{one_output ? sum(rows * 2.0) : sum(reshape(rows, {2, 3}) * 2.0, Axes{1})};
        },
        xs);
    const vulkan::fusion::Plan p = vulkan::fusion::plan_stages(*f.graph, true, 16);
    return std::make_pair(p.reduction_stages(), vulkan::fusion::to_string(p, *f.graph));
  };
  const auto [nested_stages, nested_plan] = plan_of(32, true);
  EXPECT_EQ(nested_stages, 1) << nested_plan;
  EXPECT_NE(nested_plan.find("; inner reduce(sum"), std::string::npos) << nested_plan;
  EXPECT_EQ(plan_of(33, true).first, 2) << plan_of(33, true).second;
  EXPECT_EQ(plan_of(8, false).first, 2) << plan_of(8, false).second;
}

}  // namespace
}  // namespace nxv::testing
