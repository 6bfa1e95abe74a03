// Reference backend: the indexing, sorting and scan ops against hand-computed results, through the public API
// (include/nxv/indexing.hpp), including the out-of-range rules (reads clamp, writes drop), the accumulation order
// of indexed_add, sort stability with NaN and signed zeros, and the validation errors.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "nxv/indexing.hpp"

namespace nxv {
namespace {

Backend& ref() { return reference_backend(); }

template <class T>
Tensor t(std::vector<T> values, const Shape& shape) {
  return tensor(values, shape, ref());
}

template <class T>
std::vector<T> v(const Tensor& x) {
  return x.to_vector<T>();
}

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr float kInf = std::numeric_limits<float>::infinity();

TEST(IndexingReference, TakeAlongEitherAxisWithIndexShape) {
  const Tensor x = t<float>({1, 2, 3, 4, 5, 6}, {2, 3});
  const Tensor r = take(x, t<std::int32_t>({2, 0, 2}, {3}), 1);
  EXPECT_EQ(r.shape(), (Shape{2, 3}));
  EXPECT_EQ(v<float>(r), (std::vector<float>{3, 1, 3, 6, 4, 6}));
  const Tensor r0 = take(x, t<std::int64_t>({1, 0}, {2, 1}), 0);
  EXPECT_EQ(r0.shape(), (Shape{2, 1, 3}));
  EXPECT_EQ(v<float>(r0), (std::vector<float>{4, 5, 6, 1, 2, 3}));
}

TEST(IndexingReference, TakeClampsOutOfRangeIndices) {
  const Tensor x = t<std::int32_t>({1, 2, 3, 4, 5, 6}, {2, 3});
  EXPECT_EQ(v<std::int32_t>(take(x, t<std::int32_t>({-1, 5, -100}, {3}), 1)),
            (std::vector<std::int32_t>{1, 3, 1, 4, 6, 4}));
}

TEST(IndexingReference, TakeAlongAxisBroadcastsTheOtherAxes) {
  const Tensor x = t<float>({10, 30, 20, 60, 40, 50}, {2, 3});
  EXPECT_EQ(v<float>(take_along_axis(x, t<std::int32_t>({0, 2, 1, 1}, {2, 2}), 1)),
            (std::vector<float>{10, 20, 40, 40}));
  const Tensor r = take_along_axis(x, t<std::int64_t>({2, 0}, {1, 2}), 1);
  EXPECT_EQ(r.shape(), (Shape{2, 2}));
  EXPECT_EQ(v<float>(r), (std::vector<float>{20, 10, 50, 60}));
  // along axis 0 with a clamped index
  EXPECT_EQ(v<float>(take_along_axis(x, t<std::int32_t>({1, 7, 0}, {1, 3}), 0)), (std::vector<float>{60, 40, 20}));
}

TEST(IndexingReference, GatherElementsAndSlicesWithClamping) {
  const Tensor x = t<double>({1, 2, 3, 4, 5, 6}, {3, 2});
  const Tensor r = gather(x, t<std::int32_t>({2, 1, 0, 0, 9, -3}, {3, 2}));
  EXPECT_EQ(r.shape(), (Shape{3}));
  EXPECT_EQ(v<double>(r), (std::vector<double>{6, 1, 5}));
  const Tensor rows = gather(x, t<std::int64_t>({1, 0}, {2, 1}));
  EXPECT_EQ(rows.shape(), (Shape{2, 2}));
  EXPECT_EQ(v<double>(rows), (std::vector<double>{3, 4, 1, 2}));
}

TEST(IndexingReference, IndexedAddAccumulatesRepeatsAndDropsOutOfRange) {
  const Tensor r = indexed_add(zeros({3}, DType::f32, ref()), t<std::int32_t>({0, 2, 0, 5, -1}, {5, 1}),
                               t<float>({1, 2, 3, 4, 5}, {5}));
  EXPECT_EQ(v<float>(r), (std::vector<float>{4, 0, 2}));
  const Tensor rows = indexed_add(t<std::int32_t>({1, 1, 1, 1}, {2, 2}), t<std::int64_t>({1, 1}, {2, 1}),
                                  t<std::int32_t>({1, 2, 3, 4}, {2, 2}));
  EXPECT_EQ(v<std::int32_t>(rows), (std::vector<std::int32_t>{1, 1, 5, 7}));
}

// ((((0 + 1e8) + 1) + -1e8) + 1) in f32 is exactly 1: 1e8 + 1 rounds back to 1e8. Any other order gives 0 or 2.
TEST(IndexingReference, IndexedAddFoldsInIncreasingUpdateOrder) {
  const Tensor r = indexed_add(zeros({2}, DType::f32, ref()), t<std::int32_t>({1, 1, 1, 1}, {4, 1}),
                               t<float>({1e8f, 1, -1e8f, 1}, {4}));
  EXPECT_EQ(v<float>(r), (std::vector<float>{0, 1}));
}

TEST(IndexingReference, IndexedAddIndicesWithBatchAxesAndPromotion) {
  const Tensor r = indexed_add(zeros({2, 2}, DType::s32, ref()), t<std::int32_t>({0, 1, 1, 0, 1, 1}, {3, 1, 2}),
                               t<float>({0.5f, 1.5f, 2.5f}, {3, 1}));
  EXPECT_EQ(r.dtype(), DType::f32);
  EXPECT_EQ(v<float>(r), (std::vector<float>{0, 0.5f, 1.5f, 2.5f}));
}

TEST(IndexingReference, IndexedPutLastUpdateWins) {
  const Tensor r = indexed_put(zeros({3}, DType::s32, ref()), t<std::int32_t>({1, 1, 7, -1}, {4, 1}),
                               t<std::int32_t>({5, 9, 3, 4}, {4}));
  EXPECT_EQ(v<std::int32_t>(r), (std::vector<std::int32_t>{0, 9, 0}));
}

TEST(IndexingReference, PutSliceClampsItsStart) {
  const Tensor r = put_slice(zeros({3, 4}, DType::s32, ref()), {2, 3}, t<std::int32_t>({1, 2, 3, 4}, {2, 2}));
  EXPECT_EQ(v<std::int32_t>(r), (std::vector<std::int32_t>{0, 0, 0, 0, 0, 0, 1, 2, 0, 0, 3, 4}));
  const Tensor neg = put_slice(zeros({4}, DType::f32, ref()), {-5}, t<float>({7, 8}, {2}));
  EXPECT_EQ(v<float>(neg), (std::vector<float>{7, 8, 0, 0}));
}

// The result starts as a copy of x, which for an empty x must not memcpy from its null data (UBSan).
TEST(IndexingReference, UpdatesOfEmptyTensorsAreEmpty) {
  const Tensor empty = zeros({0, 3}, DType::f32, ref());
  EXPECT_EQ(put_slice(empty, {0, 0}, zeros({0, 3}, DType::f32, ref())).shape(), (Shape{0, 3}));
  EXPECT_EQ(put_slice(zeros({0}, DType::s32, ref()), {0}, zeros({0}, DType::s32, ref())).size(), 0);
  const Tensor no_indices = zeros({0, 1}, DType::s32, ref());
  EXPECT_EQ(indexed_add(empty, no_indices, zeros({0, 3}, DType::f32, ref())).shape(), (Shape{0, 3}));
  EXPECT_EQ(indexed_put(empty, no_indices, zeros({0, 3}, DType::f32, ref())).shape(), (Shape{0, 3}));
}

TEST(IndexingReference, SortIsStableWithNaNLastAndSignedZerosEqual) {
  const Tensor x = t<float>({3, kNaN, -0.0f, 1, 0.0f, -kInf, kNaN}, {7});
  EXPECT_EQ(v<std::int64_t>(argsort(x)), (std::vector<std::int64_t>{5, 2, 4, 3, 0, 1, 6}));
  const std::vector<float> s = v<float>(sort(x));
  EXPECT_EQ(s[0], -kInf);
  EXPECT_TRUE(std::signbit(s[1]) && s[1] == 0) << "-0.0 came first in the input, so it stays first";
  EXPECT_TRUE(!std::signbit(s[2]) && s[2] == 0);
  EXPECT_EQ(s[3], 1);
  EXPECT_EQ(s[4], 3);
  EXPECT_TRUE(std::isnan(s[5]) && std::isnan(s[6]));
  EXPECT_EQ(v<std::int64_t>(argsort(x, 0, /*descending=*/true)), (std::vector<std::int64_t>{1, 6, 0, 3, 2, 4, 5}));
}

TEST(IndexingReference, SortTiesKeepInputOrderBothDirections) {
  const Tensor x = t<std::int32_t>({2, 1, 2, 1}, {4});
  EXPECT_EQ(v<std::int64_t>(argsort(x)), (std::vector<std::int64_t>{1, 3, 0, 2}));
  EXPECT_EQ(v<std::int64_t>(argsort(x, -1, true)), (std::vector<std::int64_t>{0, 2, 1, 3}));
  const Tensor m = t<std::uint8_t>({5, 1, 2, 9, 2, 0}, {3, 2});
  EXPECT_EQ(v<std::uint8_t>(sort(m, 0)), (std::vector<std::uint8_t>{2, 0, 2, 1, 5, 9}));
  EXPECT_EQ(v<std::int64_t>(argsort(m, 0)), (std::vector<std::int64_t>{1, 2, 2, 0, 0, 1}));
}

TEST(IndexingReference, CumulativeScansForwardAndReverse) {
  const Tensor x = t<std::int32_t>({1, 2, 3, 4}, {4});
  EXPECT_EQ(v<std::int32_t>(cumulative_sum(x)), (std::vector<std::int32_t>{1, 3, 6, 10}));
  EXPECT_EQ(v<std::int32_t>(cumulative_sum(x, 0, true)), (std::vector<std::int32_t>{10, 9, 7, 4}));
  EXPECT_EQ(v<std::int32_t>(cumulative_product(x)), (std::vector<std::int32_t>{1, 2, 6, 24}));
  const Tensor m = t<double>({1, 5, 4, 2, 0, 7}, {3, 2});
  EXPECT_EQ(v<double>(cumulative_max(m, 0)), (std::vector<double>{1, 5, 4, 5, 4, 7}));
  EXPECT_EQ(v<double>(cumulative_min(m, 1, true)), (std::vector<double>{1, 5, 2, 2, 0, 7}));
}

TEST(IndexingReference, CumulativeEdgeValues) {
  const std::vector<float> nan = v<float>(cumulative_max(t<float>({1, kNaN, 3}, {3})));
  EXPECT_EQ(nan[0], 1);
  EXPECT_TRUE(std::isnan(nan[1]) && std::isnan(nan[2]));
  EXPECT_TRUE(std::signbit(v<float>(cumulative_sum(t<float>({-0.0f}, {1})))[0])) << "no +0 identity is added first";
  EXPECT_EQ(v<std::uint8_t>(cumulative_sum(t<std::uint8_t>({200, 100}, {2}))), (std::vector<std::uint8_t>{200, 44}));
  EXPECT_EQ(cumulative_sum(zeros({0, 3}, DType::f32, ref()), 0).shape(), (Shape{0, 3}));
}

TEST(IndexingReference, TopKLargestFirstTiesToTheLowerPosition) {
  const TopK r = top_k(t<float>({1, 3, 2, 3, 0, 5, 5, 4}, {2, 4}), 2);
  EXPECT_EQ(v<float>(r.values), (std::vector<float>{3, 3, 5, 5}));
  EXPECT_EQ(v<std::int64_t>(r.indices), (std::vector<std::int64_t>{1, 3, 1, 2}));
}

TEST(IndexingReference, ValidationErrorsNameTheOpAndTheExpectation) {
  const Tensor x = zeros({3, 4}, DType::f32, ref());
  auto message = [](auto&& f) {
    try {
      f();
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(message([&] { take(x, t<float>({1}, {1}), 0); }).find("take: indices must be s32 or s64"),
            std::string::npos);
  EXPECT_NE(message([&] {
              indexed_add(x, t<std::int32_t>({1}, {1, 1}), zeros({2}, DType::f32, ref()));
            }).find("indexed_add: updates f32[2] do not fit"),
            std::string::npos);
  EXPECT_NE(message([&] { gather(x, t<std::int32_t>({1, 1, 1}, {1, 3})); }).find("expected 1 to 2"), std::string::npos);
  EXPECT_NE(message([&] { put_slice(x, {0}, zeros({1, 1}, DType::f32, ref())); }).find("put_slice"), std::string::npos);
  EXPECT_NE(message([&] { top_k(x, 5); }).find("top_k: k = 5 is out of range"), std::string::npos);
  EXPECT_NE(message([&] { take(zeros({0}, DType::f32, ref()), t<std::int32_t>({0}, {1})); }).find("empty axis"),
            std::string::npos);
  EXPECT_NE(message([&] { cumulative_sum(zeros({2}, DType::pred, ref())); }).find("pred"), std::string::npos);
}

}  // namespace
}  // namespace nxv
