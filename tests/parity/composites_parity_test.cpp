// Parity of the composites (src/ops/composites.cpp): logsumexp, variance, standard_deviation, covariance,
// all_close and stack over every dtype, the axis sets of a rank-3 tensor, keep_axes, rank 0, empty and size-1
// axes, rows longer than a workgroup, and the special values of test_data (NaN, ±inf, -0.0). They are built from
// primitive ops, so Vulkan must match the reference bit for bit with no host fallback.
#include <limits>

#include "support/parity.hpp"

namespace nxv::testing {
namespace {

const std::vector<OptAxes> k_axes_sets = {std::nullopt, Axes{0}, Axes{1}, Axes{2}, Axes{0, 2}, Axes{-1, 0}, Axes{}};

using AxesFn = std::function<Tensor(const Tensor&, const OptAxes&, bool)>;
struct AxesOp {
  const char* name;
  AxesFn fn;
};
const AxesOp k_axes_ops[] = {
    {"logsumexp", [](const Tensor& x, const OptAxes& a, bool k) { return logsumexp(x, a, k); }},
    {"variance", [](const Tensor& x, const OptAxes& a, bool k) { return variance(x, a, 0, k); }},
    {"variance_ddof1", [](const Tensor& x, const OptAxes& a, bool k) { return variance(x, a, 1, k); }},
    {"standard_deviation", [](const Tensor& x, const OptAxes& a, bool k) { return standard_deviation(x, a, 0, k); }},
};

TEST(CompositeParity, ReductionCompositesEveryDtypeEveryAxisSet) {
  NXV_REQUIRE_VULKAN();
  for (const AxesOp& op : k_axes_ops) {
    for (DType t : real_dtypes) {
      const std::string cell = std::string(op.name) + ":" + std::string(name(t));
      for (const OptAxes& axes : k_axes_sets)
        for (bool keep : {false, true})
          expect_parity(cell, [&](auto& in) { return op.fn(in[0], axes, keep); }, {test_data(t, {3, 5, 7}, 71)});
      // Without special values too: the data of test_data's pool make most rows NaN or inf.
      expect_parity(cell, [&](auto& in) { return op.fn(in[0], Axes{1}, false); }, {test_data(t, {4, 6}, 72, false)});
      expect_parity(cell, [&](auto& in) { return op.fn(in[0], std::nullopt, false); }, {test_data(t, {}, 73)});
      expect_parity(cell, [&](auto& in) { return op.fn(in[0], Axes{1}, false); }, {test_data(t, {4, 0, 3}, 74)});
      expect_parity(cell, [&](auto& in) { return op.fn(in[0], Axes{0}, true); }, {test_data(t, {1, 5}, 75)});
    }
    // Rows longer than a workgroup and one reduction over several chunks.
    for (DType t : {DType::f32, DType::f64}) {
      const std::string cell = std::string(op.name) + ":" + std::string(name(t));
      expect_parity(cell, [&](auto& in) { return op.fn(in[0], Axes{1}, false); },
                    {test_uniform(t, {3, 5000}, 76, -30, 30)});
      expect_parity(cell, [&](auto& in) { return op.fn(in[0], std::nullopt, false); },
                    {test_uniform(t, {40000}, 77, -30, 30)});
    }
  }
}

TEST(CompositeParity, LogsumexpAtInfinities) {
  NXV_REQUIRE_VULKAN();
  const double inf = std::numeric_limits<double>::infinity(), nan = std::numeric_limits<double>::quiet_NaN();
  for (DType t : {DType::f32, DType::f64}) {
    // Rows: all -inf, a +inf, a NaN, -inf beside finite values, -0.0 and +0.0, large values that overflow exp.
    const std::vector<double> v = {-inf, -inf, -inf, 1,    inf, 2,    1,   nan, 2,
                                   -inf, 0,    -inf, -0.0, 0.0, -0.0, 700, 710, 89};
    const Tensor x = as_type(tensor<double>(v, {6, 3}, reference_backend()), t);
    expect_parity("logsumexp:" + std::string(name(t)), [](auto& in) { return logsumexp(in[0], Axes{1}); }, {x});
    expect_parity("logsumexp:" + std::string(name(t)), [](auto& in) { return logsumexp(in[0], Axes{0}, true); }, {x});
  }
}

TEST(CompositeParity, CovarianceEveryDtypeAndBatch) {
  NXV_REQUIRE_VULKAN();
  for (DType t : real_dtypes) {
    const std::string cell = "covariance:" + std::string(name(t));
    for (std::int64_t ddof : {0, 1}) {
      expect_parity(cell, [&](auto& in) { return covariance(in[0], ddof); }, {test_data(t, {6, 3}, 81, false)});
      expect_parity(cell, [&](auto& in) { return covariance(in[0], ddof); }, {test_data(t, {2, 4, 5, 3}, 82, false)});
    }
    expect_parity(cell, [](auto& in) { return covariance(in[0]); }, {test_data(t, {5, 2}, 83)});
    expect_parity(cell, [](auto& in) { return covariance(in[0]); }, {test_data(t, {0, 2}, 84)});
    expect_parity(cell, [](auto& in) { return covariance(in[0]); }, {test_data(t, {3, 0}, 85)});
    expect_parity(cell, [](auto& in) { return covariance(in[0]); }, {test_data(t, {1, 1}, 86)});
  }
  expect_parity("covariance:f32", [](auto& in) { return covariance(in[0], 1); },
                {test_uniform(DType::f32, {3000, 7}, 87, -1, 1)});
}

TEST(CompositeParity, AllCloseEveryDtypePair) {
  NXV_REQUIRE_VULKAN();
  for (DType t : real_dtypes) {
    const std::string cell = "all_close:" + std::string(name(t));
    const Tensor a = test_data(t, {4, 9}, 91);
    for (bool equal_nan : {false, true}) {
      // Against itself (NaNs decide), other data under loose tolerances, a broadcast row, another dtype, and an empty
      // pair.
      expect_parity(cell, [&](auto& in) { return all_close(in[0], in[1], 1e-5, 1e-8, equal_nan); }, {a, a});
      expect_parity(cell, [&](auto& in) { return all_close(in[0], in[1], 0.5, 1.0, equal_nan); },
                    {test_data(t, {4, 9}, 92, false), test_data(t, {4, 9}, 93, false)});
      expect_parity(cell, [&](auto& in) { return all_close(in[0], in[1], 1e-5, 1e-8, equal_nan); },
                    {a, test_data(t, {9}, 94)});
      expect_parity(cell, [&](auto& in) { return all_close(in[0], in[1], 1e-5, 1e-8, equal_nan); },
                    {a, test_data(DType::f64, {4, 1}, 95)});
      expect_parity(cell, [&](auto& in) { return all_close(in[0], in[1], 1e-5, 1e-8, equal_nan); },
                    {test_data(t, {0, 3}, 96), test_data(t, {3}, 97)});
    }
    expect_parity(cell, [](auto& in) { return all_close(in[0], in[0]); }, {test_data(t, {30000}, 98, false)});
  }
}

TEST(CompositeParity, StackEveryDtypeEveryAxis) {
  NXV_REQUIRE_VULKAN();
  for (DType t : real_dtypes) {
    const std::string cell = "stack:" + std::string(name(t));
    for (int axis : {0, 1, 2, -1})
      expect_parity(cell,
                    [axis](auto& in) {
                      return stack({in[0], in[1], in[2]}, axis);
                    },
                    {test_data(t, {3, 4}, 101), test_data(t, {3, 4}, 102), test_data(t, {3, 4}, 103)});
    expect_parity(cell, [](auto& in) { return stack({in[0], in[1]}); }, {test_data(t, {}, 104), test_data(t, {}, 105)});
    expect_parity(cell,
                  [](auto& in) {
                    return stack({in[0], in[1]}, 1);
                  },
                  {test_data(t, {2, 0}, 106), test_data(t, {2, 0}, 107)});
    expect_parity(cell,
                  [](auto& in) {
                    return stack({in[0], in[1]}, 1);
                  },
                  {test_data(t, {3000}, 108), test_data(DType::u8, {3000}, 109)});
  }
}

}  // namespace
}  // namespace nxv::testing
