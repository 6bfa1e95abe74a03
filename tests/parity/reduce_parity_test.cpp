// Parity of the reductions (sum, product, reduce_max, reduce_min, all, any, mean, argmax, argmin): every dtype,
// every set of axes of a rank-3 tensor, keep_axes, empty axes, and lengths above the 16384-element chunk
// (so the multi-pass order is exercised). Bit-identical because both backends use the same order
// (tests/support/parity.hpp; documented in src/ops/reduce.cpp and the shaders).
#include <limits>

#include "nxv/indexing.hpp"
#include "support/parity.hpp"

namespace nxv::testing {
namespace {

using ReduceFnPtr = Tensor (*)(const Tensor&, const OptAxes&, bool);
struct ReduceOp {
  const char* name;
  ReduceFnPtr fn;
};
const ReduceOp k_reduces[] = {
    {"sum", sum}, {"product", product}, {"reduce_max", reduce_max}, {"reduce_min", reduce_min}, {"all", all},
    {"any", any}, {"mean", mean}};

const std::vector<OptAxes> k_axes_sets = {std::nullopt, Axes{0},     Axes{1},       Axes{2},
                                          Axes{0, 2},   Axes{-1, 0}, Axes{0, 1, 2}, Axes{}};

TEST(ReduceParity, EveryReductionEveryDtypeEveryAxisSet) {
  NXV_REQUIRE_VULKAN();
  for (const ReduceOp& op : k_reduces) {
    for (DType t : real_dtypes) {
      const std::string cell = std::string(op.name) + ":" + std::string(name(t));
      for (const OptAxes& axes : k_axes_sets) {
        for (bool keep : {false, true}) {
          expect_parity(cell, [&](auto& in) { return op.fn(in[0], axes, keep); }, {test_data(t, {3, 5, 7}, 31)});
        }
      }
      expect_parity(cell, [&](auto& in) { return op.fn(in[0], std::nullopt, false); }, {test_data(t, {}, 32)});
      expect_parity(cell, [&](auto& in) { return op.fn(in[0], Axes{1}, false); }, {test_data(t, {4, 0, 3}, 33)});
      expect_parity(cell, [&](auto& in) { return op.fn(in[0], Axes{0}, false); }, {test_data(t, {0, 3}, 34)});
    }
  }
}

TEST(ReduceParity, LongReductionsUseTheChunkedOrder) {
  NXV_REQUIRE_VULKAN();
  for (DType t : {DType::f32, DType::f64, DType::s32}) {
    // 70001 > 16384: several chunks, then a second pass over the partials; 16384 * 300 needs three passes.
    expect_parity("sum:" + std::string(name(t)), [](auto& in) { return sum(in[0]); },
                  {test_uniform(t, {70001}, 41, -100, 100)});
    expect_parity("sum:" + std::string(name(t)), [](auto& in) { return sum(in[0], Axes{1}); },
                  {test_uniform(t, {3, 40000}, 42, -100, 100)});
    expect_parity("sum:" + std::string(name(t)), [](auto& in) { return sum(in[0], Axes{0}); },
                  {test_uniform(t, {20000, 3}, 43, -100, 100)});
    expect_parity("reduce_max:" + std::string(name(t)), [](auto& in) { return reduce_max(in[0]); },
                  {test_data(t, {70001}, 44)});
  }
  expect_parity("sum:f32", [](auto& in) { return sum(in[0]); },
                {test_uniform(DType::f32, {16384 * 300 + 7}, 45, -1, 1)});
}

TEST(ReduceParity, ArgmaxArgminTiesAndNaN) {
  NXV_REQUIRE_VULKAN();
  for (DType t : real_dtypes) {
    const std::string sfx = ":" + std::string(name(t));
    for (std::optional<int> axis :
         {std::optional<int>{}, std::optional<int>{0}, std::optional<int>{1}, std::optional<int>{-1}}) {
      for (bool keep : {false, true}) {
        expect_parity("argmax" + sfx, [&](auto& in) { return argmax(in[0], axis, keep); }, {test_data(t, {4, 9}, 51)});
        expect_parity("argmin" + sfx, [&](auto& in) { return argmin(in[0], axis, keep); }, {test_data(t, {4, 9}, 52)});
      }
    }
    // Few distinct values: many ties.
    expect_parity("argmax" + sfx, [](auto& in) { return argmax(in[0], 1); }, {test_uniform(t, {16, 300}, 53, 0, 3)});
    expect_parity("argmin" + sfx, [](auto& in) { return argmin(in[0]); }, {test_uniform(t, {20000}, 54, 0, 3)});
  }
}

// f32 running products whose partials pass through the denormal range: on a device that flushes f32 denormals
// (NVIDIA) a plain multiply made 1e-20 * 1e-20 * -inf NaN where the reference gives -inf, and 1e-30 * 1e-15 * 1e30
// 0 where it gives 1.4e-15. The inputs and results here are normal or infinite, so the comparison is exact on
// every device; on lavapipe (which keeps denormals) this passes with or without lib/elementwise.glsl's
// nxv_ieee_multiply, on the GPU machine it fails without it.
TEST(ReduceParity, ProductsThroughTheDenormalRange) {
  NXV_REQUIRE_VULKAN();
  const float inf = std::numeric_limits<float>::infinity();
  const std::vector<float> rows = {1e-20f,         1e-20f, -inf,  1.0f,  // -> -inf
                                   1e-30f,         1e-15f, 1e30f, 1.0f,  // -> 1.4e-15 (1e-45 is 2^-149)
                                   3e-39f * 1e10f, 1e-25f, 1e25f, 1e20f, -1e-19f, 3e-20f, inf, -2.0f};  // -> +inf
  const Tensor x = from_data<float>(std::span<const float>(rows), Shape{4, 4}, reference_backend());
  expect_parity("product:f32", [](auto& in) { return product(in[0], Axes{1}); }, {x});
  expect_parity("cumulative_product:f32", [](auto& in) { return cumulative_product(in[0], 1); }, {x});
  // Long rows (the lane order and tree of reduce.comp): factors in [1e-4, 1e-3] underflow within a few steps.
  std::vector<float> factors(6 * 700);
  std::uint32_t state = 12345;
  for (float& f : factors) {
    state = state * 1664525u + 1013904223u;
    f = 1e-4f + 9e-4f * static_cast<float>(state >> 8) / 16777216.0f;
  }
  for (int r = 0; r < 6; ++r) factors[r * 700 + 650] = r % 2 == 0 ? -inf : inf;
  const Tensor many = from_data<float>(std::span<const float>(factors), Shape{6, 700}, reference_backend());
  expect_parity("product:f32", [](auto& in) { return product(in[0], Axes{1}); }, {many});
  expect_parity("product:f32", [](auto& in) { return product(in[0]); },
                {test_uniform(DType::f32, {5000}, 62, 0.9, 1.0)});
  expect_parity("cumulative_product:f32", [](auto& in) { return cumulative_product(in[0], 1); }, {many});
}

}  // namespace
}  // namespace nxv::testing
