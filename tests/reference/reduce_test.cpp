// Reference kernels: reduce (sum, product, max, min, all, any) and arg_reduce, including the fixed chunked
// summation order that makes float results bit-identical across backends.
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>

#include "support/reference.hpp"

namespace nxv::reference_test {
namespace {

const float kNaNf = std::numeric_limits<float>::quiet_NaN();
const float kInf = std::numeric_limits<float>::infinity();

Tensor reduce(ReduceFn f, const Tensor& x, const Axes& axes, const TensorType& out, bool keep = false) {
  return run(OpCode::reduce, ReduceAttrs{.fn = f, .axes = axes, .keep_axes = keep}, {x}, out);
}

TEST(ReferenceReduce, SumOverEachAxisOfMatrix) {
  auto x = make<std::int32_t>({1, 2, 3, 4, 5, 6}, {2, 3});
  EXPECT_EQ(values<std::int32_t>(reduce(ReduceFn::sum, x, {1}, {{2}, DType::s32})), (std::vector<std::int32_t>{6, 15}));
  EXPECT_EQ(values<std::int32_t>(reduce(ReduceFn::sum, x, {0}, {{3}, DType::s32})),
            (std::vector<std::int32_t>{5, 7, 9}));
  EXPECT_EQ(values<std::int32_t>(reduce(ReduceFn::sum, x, {0, 1}, {{}, DType::s32})), (std::vector<std::int32_t>{21}));
}

TEST(ReferenceReduce, SeveralNonAdjacentAxesWithKeepAxes) {
  // x[i][j][k] = 100 i + 10 j + k over [2, 3, 4]; summing axes 0 and 2 leaves [1, 3, 1].
  std::vector<std::int64_t> v;
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 3; ++j)
      for (int k = 0; k < 4; ++k) v.push_back(100 * i + 10 * j + k);
  auto r = reduce(ReduceFn::sum, make(v, {2, 3, 4}), {0, 2}, {{1, 3, 1}, DType::s64}, true);
  std::vector<std::int64_t> expected;
  for (int j = 0; j < 3; ++j) expected.push_back(4 * 100 + 8 * 10 * j + 2 * 6);  // sum_i,k (100i + 10j + k)
  EXPECT_EQ(values<std::int64_t>(r), expected);
  EXPECT_EQ(r.shape(), (Shape{1, 3, 1}));
}

TEST(ReferenceReduce, RankZeroAndSizeOneAxes) {
  EXPECT_EQ(values<float>(reduce(ReduceFn::sum, make<float>({4.5f}, {}), {}, {{}, DType::f32})),
            (std::vector<float>{4.5f}));
  auto x = make<float>({1, 2, 3}, {1, 3, 1});
  EXPECT_EQ(values<float>(reduce(ReduceFn::product, x, {0, 2}, {{3}, DType::f32})), (std::vector<float>{1, 2, 3}));
}

TEST(ReferenceReduce, EmptyReductionsGiveTheIdentity) {
  auto x = make<float>({}, {3, 0});
  EXPECT_EQ(values<float>(reduce(ReduceFn::sum, x, {1}, {{3}, DType::f32})), (std::vector<float>{0, 0, 0}));
  EXPECT_EQ(values<float>(reduce(ReduceFn::product, x, {1}, {{3}, DType::f32})), (std::vector<float>{1, 1, 1}));
  EXPECT_EQ(values<float>(reduce(ReduceFn::max, x, {1}, {{3}, DType::f32})), (std::vector<float>(3, -kInf)));
  EXPECT_EQ(values<float>(reduce(ReduceFn::min, x, {1}, {{3}, DType::f32})), (std::vector<float>(3, kInf)));
  EXPECT_TRUE(values<float>(reduce(ReduceFn::sum, x, {0}, {{0}, DType::f32})).empty());
  auto u = make<std::uint8_t>({}, {0}, DType::u8);
  EXPECT_EQ(values<std::uint8_t>(reduce(ReduceFn::min, u, {0}, {{}, DType::u8})), (std::vector<std::uint8_t>{255}));
  EXPECT_EQ(values<std::int32_t>(reduce(ReduceFn::max, make<std::int32_t>({}, {0}), {0}, {{}, DType::s32})),
            (std::vector<std::int32_t>{std::numeric_limits<std::int32_t>::min()}));
  auto p = make<std::uint8_t>({}, {0}, DType::pred);
  EXPECT_EQ(values<std::uint8_t>(reduce(ReduceFn::min, p, {0}, {{}, DType::pred})), (std::vector<std::uint8_t>{1}));
  EXPECT_EQ(values<std::uint8_t>(reduce(ReduceFn::all, p, {0}, {{}, DType::pred})), (std::vector<std::uint8_t>{1}));
  EXPECT_EQ(values<std::uint8_t>(reduce(ReduceFn::any, p, {0}, {{}, DType::pred})), (std::vector<std::uint8_t>{0}));
}

TEST(ReferenceReduce, IntegerSumAndProductWrap) {
  auto u = make<std::uint8_t>({200, 100, 250}, {3}, DType::u8);
  EXPECT_EQ(values<std::uint8_t>(reduce(ReduceFn::sum, u, {0}, {{}, DType::u8})),
            (std::vector<std::uint8_t>{(200 + 100 + 250) % 256}));
  auto s = make<std::int32_t>({65536, 65536, 3}, {3});
  EXPECT_EQ(values<std::int32_t>(reduce(ReduceFn::product, s, {0}, {{}, DType::s32})),
            (std::vector<std::int32_t>{0}));  // 2^32 * 3 wraps to 0
}

TEST(ReferenceReduce, MaxMinPropagateNaN) {
  auto x = make<float>({1, kNaNf, 3, -1, 5, 2}, {2, 3});
  auto mx = values<float>(reduce(ReduceFn::max, x, {1}, {{2}, DType::f32}));
  EXPECT_TRUE(std::isnan(mx[0]));
  EXPECT_EQ(mx[1], 5.0f);
  auto mn = values<float>(reduce(ReduceFn::min, x, {1}, {{2}, DType::f32}));
  EXPECT_TRUE(std::isnan(mn[0]));
  EXPECT_EQ(mn[1], -1.0f);
}

TEST(ReferenceReduce, AllAnyTreatNonZeroAndNaNAsTrue) {
  auto x = make<float>({1, kNaNf, kNaNf, 0, 0, 0}, {3, 2});  // rows: [1, NaN], [NaN, 0], [0, 0]
  EXPECT_EQ(values<std::uint8_t>(reduce(ReduceFn::all, x, {1}, {{3}, DType::pred})),
            (std::vector<std::uint8_t>{1, 0, 0}));
  EXPECT_EQ(values<std::uint8_t>(reduce(ReduceFn::any, x, {1}, {{3}, DType::pred})),
            (std::vector<std::uint8_t>{1, 1, 0}));
}

// The summation order of the reduction rule, written out independently: 256 lanes with strided accumulation,
// a halving tree, and chunks of 16384 whose partials are reduced again by the same rule.
float lane_tree_sum(const std::vector<float>& v, std::size_t begin, std::size_t end) {
  float lane[256] = {};
  for (std::size_t j = begin; j < end; ++j) lane[(j - begin) % 256] += v[j];
  for (int s = 128; s >= 1; s /= 2)
    for (int i = 0; i < s; ++i) lane[i] += lane[i + s];
  return lane[0];
}
float chunked_sum(const std::vector<float>& v) {
  if (v.size() <= 16384) return lane_tree_sum(v, 0, v.size());
  std::vector<float> partials;
  for (std::size_t c = 0; c < v.size(); c += 16384)
    partials.push_back(lane_tree_sum(v, c, std::min(v.size(), c + 16384)));
  return chunked_sum(partials);
}

std::vector<float> wide_range_values(std::size_t n) {
  std::vector<float> v(n);
  std::uint32_t state = 12345;
  for (auto& x : v) {
    state = state * 1664525u + 1013904223u;  // Numerical Recipes LCG
    x = static_cast<float>(static_cast<std::int32_t>(state >> 8) - (1 << 23)) * std::ldexp(1.0f, int(state % 20) - 10);
  }
  return v;
}

TEST(ReferenceReduce, FloatSumFollowsTheLaneAndChunkOrder) {
  for (std::size_t n : {1u, 255u, 1000u, 16384u, 16385u, 40000u, 70001u}) {
    const auto v = wide_range_values(n);
    const float got =
        values<float>(reduce(ReduceFn::sum, make(v, {static_cast<std::int64_t>(n)}), {0}, {{}, DType::f32}))[0];
    EXPECT_EQ(got, chunked_sum(v)) << "n = " << n;
  }
}

TEST(ReferenceReduce, ChunkOrderIsNotTheSequentialOrder) {
  // Guards the test above against a reduction rule that happens to agree with a plain left-to-right sum.
  const auto v = wide_range_values(40000);
  float sequential = 0;
  for (float x : v) sequential += x;
  EXPECT_NE(chunked_sum(v), sequential);
}

TEST(ReferenceReduce, ReducedAxesFlattenRowMajorForTheOrder) {
  // Reducing axes {0, 2} of [130, 2, 130]: for output j the R = 16900 values are x[i][j][k] in (i, k) row-major.
  const auto v = wide_range_values(130 * 2 * 130);
  auto r = values<float>(reduce(ReduceFn::sum, make(v, {130, 2, 130}), {0, 2}, {{2}, DType::f32}));
  for (int j = 0; j < 2; ++j) {
    std::vector<float> flat;
    for (int i = 0; i < 130; ++i)
      for (int k = 0; k < 130; ++k) flat.push_back(v[static_cast<std::size_t>((i * 2 + j) * 130 + k)]);
    EXPECT_EQ(r[static_cast<std::size_t>(j)], chunked_sum(flat)) << "j = " << j;
  }
}

// Over `axis`, or over the flattened tensor without one.
Tensor arg(ArgReduceFn f, const Tensor& x, std::optional<std::int64_t> axis, const Shape& out) {
  return run(OpCode::arg_reduce, ArgReduceAttrs{.fn = f, .axis = axis}, {x}, {out, DType::s64});
}

TEST(ReferenceArgReduce, TiesGiveTheFirstIndex) {
  auto x = make<std::int32_t>({3, 7, 7, 1, 1, 0}, {2, 3});
  EXPECT_EQ(values<std::int64_t>(arg(ArgReduceFn::argmax, x, {1}, {2})), (std::vector<std::int64_t>{1, 0}));
  EXPECT_EQ(values<std::int64_t>(arg(ArgReduceFn::argmin, x, {1}, {2})), (std::vector<std::int64_t>{0, 2}));
  EXPECT_EQ(values<std::int64_t>(arg(ArgReduceFn::argmax, x, {0}, {3})), (std::vector<std::int64_t>{0, 0, 0}));
  EXPECT_EQ(values<std::int64_t>(arg(ArgReduceFn::argmin, x, {0}, {1, 3})), (std::vector<std::int64_t>{1, 1, 1}));
  EXPECT_EQ(values<std::int64_t>(arg(ArgReduceFn::argmax, x, {}, {})), (std::vector<std::int64_t>{1}));
  EXPECT_EQ(values<std::int64_t>(arg(ArgReduceFn::argmin, x, {}, {})), (std::vector<std::int64_t>{5}));
}

TEST(ReferenceArgReduce, FirstNaNWinsForBoth) {
  auto x = make<float>({1, kNaNf, 9, kNaNf, -kInf, 2, 5, 5}, {2, 4});
  EXPECT_EQ(values<std::int64_t>(arg(ArgReduceFn::argmax, x, {1}, {2, 1})), (std::vector<std::int64_t>{1, 2}));
  EXPECT_EQ(values<std::int64_t>(arg(ArgReduceFn::argmin, x, {1}, {2, 1})), (std::vector<std::int64_t>{1, 0}));
  EXPECT_EQ(values<std::int64_t>(arg(ArgReduceFn::argmin, x, {}, {})), (std::vector<std::int64_t>{1}));
  EXPECT_EQ(values<std::int64_t>(arg(ArgReduceFn::argmin, x, {0}, {4})), (std::vector<std::int64_t>{1, 0, 1, 0}));
}

TEST(ReferenceArgReduce, MiddleAxisOfRankThreeAndRankZero) {
  // x[i][j][k] = (j == 2 - k) ? 10 : k over [2, 3, 3]: the maximum along j sits at j = 2 - k.
  std::vector<double> v;
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 3; ++j)
      for (int k = 0; k < 3; ++k) v.push_back(j == 2 - k ? 10.0 : k);
  EXPECT_EQ(values<std::int64_t>(arg(ArgReduceFn::argmax, make(v, {2, 3, 3}), {1}, {2, 3})),
            (std::vector<std::int64_t>{2, 1, 0, 2, 1, 0}));
  EXPECT_EQ(values<std::int64_t>(arg(ArgReduceFn::argmax, make<double>({3}, {}), {}, {})),
            (std::vector<std::int64_t>{0}));
}

}  // namespace
}  // namespace nxv::reference_test
