// Per-instance kernels (src/vulkan/fusion/instance_codegen.hpp) through jit_map: each one-instance function, run as
// one invocation per instance on Vulkan, equals the same function vectorized on the reference backend bit for bit
// (its reductions follow the reference's order, its dots the reference's exact order), over movement ops, every
// reduction length class (unrolled, one chunk, several chunks), control flow, shared and batched inputs, empty and
// size-1 axes and special values; what the generator cannot do runs vectorized, with the reason.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <optional>
#include <string>

#include "nxv/control_flow.hpp"
#include "nxv/indexing.hpp"
#include "nxv/nn.hpp"
#include "nxv/vectorize.hpp"
#include "support/env.hpp"
#include "support/parity.hpp"
#include "trace/jit_map.hpp"
#include "vulkan/runtime/runtime.hpp"

namespace nxv {
namespace {

using Fn = nxv::detail::JitMap::Fn;

// Values with the special cases mixed in: NaN, +-inf, -0.0, and ordinary values of both signs.
Tensor values(const Shape& shape, DType dtype, std::uint64_t seed, bool special = true) {
  const std::int64_t n = num_elements(shape);
  std::vector<double> v(static_cast<std::size_t>(n));
  std::uint64_t x = seed * 0x9E3779B97F4A7C15ULL + 1;
  for (std::int64_t i = 0; i < n; ++i) {
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    v[i] = static_cast<double>((x * 0x2545F4914F6CDD1DULL) >> 11) / 9007199254740992.0 * 4 - 2;
    if (special && i % 17 == 5) v[i] = -0.0;
    if (special && i % 29 == 11) v[i] = std::numeric_limits<double>::infinity();
    if (special && i % 31 == 7) v[i] = std::numeric_limits<double>::quiet_NaN();
  }
  return as_type(tensor(v, shape), dtype);
}

// fn per instance on Vulkan against fn vectorized on the reference, in both mappings of an instance (one
// invocation; a workgroup, whose invocations share the large values and reductions); `expect_per_instance` as the
// generator should (in the workgroup mapping `expect_per_group`: its loops are shorter per invocation).
void expect_same(const Fn& fn, const std::vector<Tensor>& inputs, const std::vector<bool>& batched,
                 bool expect_per_instance = true, std::optional<bool> expect_per_group = std::nullopt) {
  NXV_REQUIRE_VULKAN();
  nxv::detail::JitMap on_reference(fn, batched, false);
  std::vector<Tensor> ref_inputs, vk_inputs;
  for (const Tensor& t : inputs) {
    ref_inputs.push_back(t.to(reference_backend()));
    vk_inputs.push_back(t.to(vulkan::backend()));
  }
  const std::vector<Tensor> expected = on_reference(ref_inputs);
  for (const char* mapping : {"invocation", "workgroup"}) {
    const test::EnvGuard forced("NXV_CHAIN_SHADERS", mapping);
    const bool group = std::string(mapping) == "workgroup";
    nxv::detail::JitMap on_vulkan(fn, batched);
    const std::vector<Tensor> got = on_vulkan(vk_inputs);
    EXPECT_EQ(on_vulkan.per_instance(), group ? expect_per_group.value_or(expect_per_instance) : expect_per_instance)
        << mapping << ": " << on_vulkan.why_not();
    ASSERT_EQ(got.size(), expected.size());
    for (std::size_t i = 0; i < got.size(); ++i) {
      EXPECT_EQ(got[i].type(), expected[i].type()) << mapping << ": output " << i;
      EXPECT_EQ(testing::compare_exact(expected[i], got[i].to_host()), "") << mapping << ": output " << i;
    }
  }
}

TEST(InstanceKernel, ElementwiseOpsWithBroadcastingAndSharedInputs) {
  for (const DType t : {DType::f32, DType::f64}) {
    const Fn fn = [](std::span<const Tensor> x) {
      const Tensor a = x[0], b = x[1];  // a [3, 4] per instance, b [4] shared
      const Tensor y = exp(a) * b - log(abs(a) + 1.0) / (b + 3.0);
      return std::vector<Tensor>{
          y, select(greater(a, b), a, b), clip(a, -1.0, 1.0), as_type(a, DType::s32), is_nan(a), erf_inv(tanh(a))};
    };
    expect_same(fn, {values({5, 3, 4}, t, 1), values({4}, t, 2)}, {true, false});
  }
}

TEST(InstanceKernel, MovementOps) {
  const Fn fn = [](std::span<const Tensor> x) {
    const Tensor a = x[0];  // [3, 11]
    return std::vector<Tensor>{transpose(a),
                               slice(a, {1, 2}, {2, 7}),
                               pad(a, 0.5, {{1, 2, 0}, {-1, 3, 1}}),
                               concatenate({a, a * 2.0, slice(a, {0, 0}, {3, 1})}, 1),
                               reverse(a, Axes{1}),
                               broadcast(expand_dims(reshape(slice(a, {0, 0}, {1, 11}), {11}), 0), {4, 11}),
                               iota({3, 11}, 1, DType::s64, a.backend()),
                               pad(a, -1.0, {{0, 0, 0}, {2, -2, 0}}),
                               eye(5, 4, DType::f64, a.backend())};
  };
  expect_same(fn, {values({4, 3, 11}, DType::f64, 3)}, {true});
}

TEST(InstanceKernel, ReductionsOfEveryLengthFollowTheReferenceOrder) {
  // 0 and 1 (identity only), 31 (unrolled), 33 and 300 (one chunk of 256 lanes), 20000 (two chunks).
  for (const std::int64_t n : {0, 1, 31, 33, 300, 20000}) {
    const Fn fn = [](std::span<const Tensor> x) {
      const Tensor a = x[0];
      return std::vector<Tensor>{
          sum(a),        reduce_max(a), reduce_min(a, Axes{0}), product(a * 0.01 + 1.0), all(greater(a, -1.5)),
          any(is_nan(a))};
    };
    // 20000: six reductions of 20000 trips each are past lavapipe's cap, which runs them vectorized instead (a
    // workgroup's invocation takes 1/256 of the trips).
    const bool capped = vulkan::available() && vulkan::runtime().features().loop_trips_capped;
    expect_same(fn, {values({3, n}, DType::f32, 4 + n, n < 20000)}, {true}, n < 20000 || !capped, true);
  }
  const Fn rows = [](std::span<const Tensor> x) {
    return std::vector<Tensor>{sum(x[0], Axes{1}), sum(x[0], Axes{0}, true), sum(x[0])};
  };
  expect_same(rows, {values({2, 40, 9}, DType::f64, 9)}, {true});
}

TEST(InstanceKernel, DotsInExactModeAreTheReferenceDots) {
  const PrecisionScope exact(Precision::exact);
  const Fn fn = [](std::span<const Tensor> x) {
    const Tensor xs = x[0], beta = x[1];  // xs [200, 8] shared data, beta [8] per instance
    const Tensor eta = dot(xs, beta);
    return std::vector<Tensor>{eta, dot(transpose(xs), eta), dot(reshape(beta, {2, 4}), reshape(beta, {4, 2}))};
  };
  expect_same(fn, {values({200, 8}, DType::f64, 5, false), values({6, 8}, DType::f64, 6, false)}, {false, true});
}

TEST(InstanceKernel, ControlFlowRunsPerInstance) {
  const Fn fn = [](std::span<const Tensor> x) {
    const Tensor a = x[0];  // [4]
    // fori_loop with a vector carry; while_loop whose trip count differs between instances; cond on the data.
    const auto [v, s] = fori_loop(
        0, 5,
        [](const Tensor& i, const std::tuple<Tensor, Tensor>& c) {
          return std::tuple<Tensor, Tensor>(std::get<0>(c) * 0.5 + as_type(i, DType::f64),
                                            std::get<1>(c) + sum(std::get<0>(c)));
        },
        std::tuple<Tensor, Tensor>(a, sum(a)));
    const auto [k, m] = while_loop([](const std::tuple<Tensor, Tensor>& c) { return less(std::get<1>(c), 100.0); },
                                   [](const std::tuple<Tensor, Tensor>& c) {
                                     return std::tuple<Tensor, Tensor>(std::get<0>(c) + 1, std::get<1>(c) * 2.0 + 1.0);
                                   },
                                   std::tuple<Tensor, Tensor>(scalar(0, DType::s64, a.backend()), abs(sum(a))));
    const Tensor c = cond(
        greater(sum(a), 0.0), [](const Tensor& y) { return y * 2.0; }, [](const Tensor& y) { return -y; }, a);
    return std::vector<Tensor>{v, s, k, m, c};
  };
  expect_same(fn, {values({9, 4}, DType::f64, 7, false)}, {true});
}

TEST(InstanceKernel, LargeValuesLiveInScratchMemory) {
  // 600 and 257 elements per instance: past the local arrays, into the instance-minor scratch buffers.
  const Fn fn = [](std::span<const Tensor> x) {
    const Tensor a = x[0], b = x[1];
    const Tensor y = a * a + 1.0;
    return std::vector<Tensor>{sum(log(y)), y, concatenate({b, b}, 0)};
  };
  expect_same(fn, {values({3, 600}, DType::f64, 8), values({3, 257}, DType::f32, 9)}, {true, true});
  // 20000 f64 per instance: past any device's shared memory, so the workgroup mapping keeps them in its scratch
  // buffer (instance-major, coherent); one invocation per instance loops past lavapipe's trip cap there instead.
  const Fn big = [](std::span<const Tensor> x) {
    const Tensor y = exp(x[0] * 0.5);
    return std::vector<Tensor>{sum(y), y * 2.0, reduce_max(reverse(y, Axes{0}))};
  };
  const bool capped = vulkan::available() && vulkan::runtime().features().loop_trips_capped;
  expect_same(big, {values({3, 20000}, DType::f64, 15)}, {true}, !capped, true);
}

TEST(InstanceKernel, SequentialOpsAndLoopCarriesOnLargeValues) {
  // In the workgroup mapping: a scan and indexed updates into spread values (one invocation runs them, in order),
  // a loop carrying a spread value, a spread input returned as it is, and a small output of a spread value.
  const Fn fn = [](std::span<const Tensor> x) {
    const Tensor a = x[0];  // [300] per instance
    const Tensor idx = reshape(remainder(iota({90}, 0, DType::s64, a.backend()) * 7, 300), {90, 1});
    const Tensor added = indexed_add(a, idx, slice(a, {0}, {90}) * 0.5);
    const auto [carried] = fori_loop(
        0, 3,
        [](const Tensor& i, const std::tuple<Tensor>& c) {
          return std::tuple<Tensor>(std::get<0>(c) * 0.75 + as_type(i, DType::f64));
        },
        std::tuple<Tensor>(a));
    return std::vector<Tensor>{cumulative_sum(a),       cumulative_max(a, 0, true), added, carried, a,
                               slice(carried, {7}, {9})};
  };
  expect_same(fn, {values({4, 300}, DType::f64, 14, false)}, {true});
}

TEST(InstanceKernel, EmptyAndSingleInstanceBatches) {
  const Fn fn = [](std::span<const Tensor> x) { return std::vector<Tensor>{sum(x[0]) * 2.0, exp(x[0])}; };
  expect_same(fn, {values({1, 5}, DType::f32, 10)}, {true});
  expect_same(fn, {values({0, 5}, DType::f32, 11)}, {true});
}

TEST(InstanceKernel, WhatTheGeneratorCannotDoRunsVectorizedWithTheReason) {
  NXV_REQUIRE_VULKAN();
  const Fn fn = [](std::span<const Tensor> x) { return std::vector<Tensor>{sort(x[0])}; };
  expect_same(fn, {values({3, 6}, DType::f32, 12)}, {true}, false);
  nxv::detail::JitMap m(fn, {true});
  m(std::vector<Tensor>{values({3, 6}, DType::f32, 12).to(vulkan::backend())});
  EXPECT_NE(m.why_not().find("sort"), std::string::npos) << m.why_not();
  // Switched off: vectorized, whatever the function.
  const Fn plain = [](std::span<const Tensor> x) { return std::vector<Tensor>{x[0] + 1.0}; };
  nxv::detail::JitMap off(plain, {true}, false);
  off(std::vector<Tensor>{values({3, 6}, DType::f32, 12).to(vulkan::backend())});
  EXPECT_FALSE(off.per_instance());
}

TEST(InstanceKernel, ALoopPastTheDevicesTripCapFallsBackToTheVectorizedPath) {
  NXV_REQUIRE_VULKAN();
  // 50,000 trips of a while loop: past what lavapipe lets one invocation run, so there the kernel stops itself,
  // reports it, and the call runs vectorized; a GPU runs it per instance. Both give the reference's values.
  const Fn fn = [](std::span<const Tensor> x) {
    const auto [i, v] = while_loop([](const std::tuple<Tensor, Tensor>& c) { return less(std::get<0>(c), 50000); },
                                   [](const std::tuple<Tensor, Tensor>& c) {
                                     return std::tuple<Tensor, Tensor>(std::get<0>(c) + 1, std::get<1>(c) * 0.99999);
                                   },
                                   std::tuple<Tensor, Tensor>(scalar(0, DType::s64, x[0].backend()), x[0]));
    return std::vector<Tensor>{i, v};
  };
  const bool capped = vulkan::runtime().features().loop_trips_capped;
  expect_same(fn, {values({2}, DType::f64, 13, false)}, {true}, !capped);
}

}  // namespace
}  // namespace nxv

namespace nxv {
namespace {

TEST(InstanceKernel, KeyArithmeticAndRandomDrawsPerInstance) {
  // fold_in and random_uniform are 32-bit integer mixing on s64 tensors: each instance's key its own.
  const Fn fn = [](std::span<const Tensor> x) {
    const Tensor k = nn::fold_in(x[0], scalar(7, DType::s64, x[0].backend()));
    return std::vector<Tensor>{k, nn::random_uniform(k, {3}, DType::f64, 1),
                               nn::random_uniform(x[0], {2}, DType::f32, 0)};
  };
  std::vector<std::int64_t> keys;
  for (int i = 0; i < 10; ++i) keys.push_back((i * 2654435761LL + 12345) & 0xffffffffLL);
  expect_same(fn, {tensor(keys, {5, 2})}, {true});
}

}  // namespace
}  // namespace nxv

namespace nxv {
namespace {

// NUTS's checkpoint rows: lavapipe got `rows <= popcount(n >> 1)` wrong in one invocation until the 64-bit
// population count was summed unsigned (src/shared/elementwise_helpers.glsl.h).
TEST(InstanceKernel, PopulationCountFeedsAComparisonInTheSameInvocation) {
  const Fn fn = [](std::span<const Tensor> x) {
    const Tensor n = x[0];
    const Tensor idx_max = population_count(right_shift(n, 1));
    const Tensor idx_min = idx_max - population_count(right_shift(bitwise_xor(n, n + 1), 1)) + 1;
    const Tensor rows = iota({2}, 0, DType::s64, n.backend());
    const Tensor checked = logical_and(greater_equal(rows, idx_min), less_equal(rows, idx_max));
    return std::vector<Tensor>{idx_max,
                               idx_min,
                               checked,
                               any(checked),
                               any(logical_and(checked, greater(x[1], 0.0))),
                               less_equal(rows, population_count(n))};
  };
  expect_same(fn, {tensor(std::vector<std::int64_t>{0, 1, 2, 3, 4, 5}, {6}), values({6, 2}, DType::f64, 3, false)},
              {true, true});
}

}  // namespace
}  // namespace nxv
