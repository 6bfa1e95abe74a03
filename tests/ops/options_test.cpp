// Nx's options on existing ops, on the reference backend: argmax/argmin tie_break: :high, iota over a whole shape,
// batched eye, gather / indexed_add / indexed_put along named axes, and slice / put_slice with tensor start indices
// clamped as Nx clamps; with their errors.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "nxv/indexing.hpp"
#include "nxv/ops.hpp"
#include "support/expect_error.hpp"

namespace nxv {
namespace {

using testing::expect_error;

Backend& ref() { return reference_backend(); }
Tensor s64(std::int64_t v) { return scalar(static_cast<double>(v), DType::s64, ref()); }

TEST(TieBreak, HighTakesTheLastExtremum) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const Tensor x = tensor<float>({3, 1, 3, 1, 0, 2, 2, 0}, {2, 4}, ref());
  EXPECT_EQ(argmax(x, 1).to_vector<std::int64_t>(), (std::vector<std::int64_t>{0, 1}));
  EXPECT_EQ(argmax(x, 1, false, TieBreak::high).to_vector<std::int64_t>(), (std::vector<std::int64_t>{2, 2}));
  EXPECT_EQ(argmin(x, 1, false, TieBreak::high).to_vector<std::int64_t>(), (std::vector<std::int64_t>{3, 3}));
  EXPECT_EQ(argmin(x, 0, true, TieBreak::high).shape(), (Shape{1, 4}));
  EXPECT_EQ(argmin(x, 0, false, TieBreak::high).to_vector<std::int64_t>(), (std::vector<std::int64_t>{1, 0, 1, 1}));
  // Flattened: the last 3 is at 2, the last 0 at 7.
  EXPECT_EQ(argmax(x, std::nullopt, false, TieBreak::high).item(), 2.0);
  EXPECT_EQ(argmin(x, std::nullopt, true, TieBreak::high).shape(), (Shape{1, 1}));
  EXPECT_EQ(argmin(x, std::nullopt, false, TieBreak::high).item(), 7.0);
  // NaN counts as the extremum of both: the last NaN.
  const Tensor n = tensor<float>({nan, 1, nan, 5}, {4}, ref());
  EXPECT_EQ(argmax(n, 0, false, TieBreak::high).item(), 2.0);
  EXPECT_EQ(argmin(n, 0, false, TieBreak::high).item(), 2.0);
  expect_error([] { argmax(zeros({2, 0}, DType::f32, ref()), 1, false, TieBreak::high); }, {"argmax", "empty"});
  expect_error([] { argmin(zeros({2}, DType::f32, ref()), 3, false, TieBreak::high); }, {"argmin", "axis 3"});
}

TEST(Iota, WholeShapeCountsRowMajor) {
  EXPECT_EQ(iota({2, 3}, std::nullopt, DType::s32, ref()).to_vector<std::int32_t>(),
            (std::vector<std::int32_t>{0, 1, 2, 3, 4, 5}));
  EXPECT_EQ(iota({}, std::nullopt, DType::f32, ref()).to_vector<float>(), (std::vector<float>{0}));
  EXPECT_EQ(iota({2, 0, 3}, std::nullopt, DType::s64, ref()).shape(), (Shape{2, 0, 3}));
  EXPECT_EQ(iota({2, 3}, 1, DType::s32, ref()).to_vector<std::int32_t>(),
            (std::vector<std::int32_t>{0, 1, 2, 0, 1, 2}));
}

TEST(Eye, Batched) {
  const Tensor e = eye({2, 2, 3}, DType::s32, ref());
  EXPECT_EQ(e.shape(), (Shape{2, 2, 3}));
  EXPECT_EQ(e.to_vector<std::int32_t>(), (std::vector<std::int32_t>{1, 0, 0, 0, 1, 0, 1, 0, 0, 0, 1, 0}));
  EXPECT_EQ(eye({3, 2}, DType::f32, ref()).to_vector<float>(), eye(3, 2, DType::f32, ref()).to_vector<float>());
  EXPECT_EQ(eye({0, 2, 2}, DType::f32, ref()).shape(), (Shape{0, 2, 2}));
  expect_error([] { eye({4}, DType::f32, ref()); }, {"eye", "rank 2 or more"});
  expect_error([] { eye(Shape{2, -1, 2}, DType::f32, ref()); }, {"eye"});
}

TEST(DynamicSlice, StartsAreClampedAsNx) {
  const Tensor x = iota({4, 5}, std::nullopt, DType::s32, ref());
  EXPECT_EQ(dynamic_slice(x, {s64(1), s64(2)}, {2, 2}).to_vector<std::int32_t>(),
            (std::vector<std::int32_t>{7, 8, 12, 13}));
  // Start 3 of 4 rows for 2 rows clamps to 2; -7 clamps to 0.
  EXPECT_EQ(dynamic_slice(x, {s64(3), s64(-7)}, {2, 2}).to_vector<std::int32_t>(),
            (std::vector<std::int32_t>{10, 11, 15, 16}));
  // Strided: 3 elements at stride 2 span 5 columns, so any start clamps to 0.
  EXPECT_EQ(dynamic_slice(x, {s64(0), s64(4)}, {1, 3}, Axes{1, 2}).to_vector<std::int32_t>(),
            (std::vector<std::int32_t>{0, 2, 4}));
  EXPECT_EQ(dynamic_slice(x, {s64(2), s64(2)}, {0, 5}).shape(), (Shape{0, 5}));
  // Matches slice with the clamped starts.
  EXPECT_EQ(dynamic_slice(x, {scalar(2, DType::s32, ref()), s64(1)}, {2, 3}, Axes{1, 1}).to_vector<std::int32_t>(),
            slice(x, {2, 1}, {2, 3}).to_vector<std::int32_t>());
  const Tensor r0 = scalar(5, DType::f32, ref());
  EXPECT_EQ(dynamic_slice(r0, {}, {}).item(), 5.0);
}

TEST(DynamicPutSlice, StartsAreClampedAsNx) {
  const Tensor x = zeros({3, 4}, DType::s32, ref());
  const Tensor patch = tensor<std::int32_t>({1, 2, 3, 4}, {2, 2}, ref());
  EXPECT_EQ(dynamic_put_slice(x, {s64(2), s64(1)}, patch).to_vector<std::int32_t>(),
            put_slice(x, {2, 1}, patch).to_vector<std::int32_t>());
  EXPECT_EQ(dynamic_put_slice(x, {s64(-1), s64(9)}, patch).to_vector<std::int32_t>(),
            (std::vector<std::int32_t>{0, 0, 1, 2, 0, 0, 3, 4, 0, 0, 0, 0}));
  // The dtype promotes as put_slice's.
  EXPECT_EQ(dynamic_put_slice(x, {s64(0), s64(0)}, tensor<float>({0.5f}, {1, 1}, ref())).dtype(), DType::f32);
  EXPECT_EQ(dynamic_put_slice(scalar(1, DType::f32, ref()), {}, scalar(2, DType::f32, ref())).item(), 2.0);
  EXPECT_EQ(dynamic_put_slice(x, {s64(1), s64(1)}, zeros({0, 2}, DType::s32, ref())).to_vector<std::int32_t>(),
            x.to_vector<std::int32_t>());
}

TEST(IndexingAxes, AddressTheNamedAxes) {
  // Nx: gather(t, [[1], [0]], axes: [1]) picks columns 1 and 0: [[2, 12], [1, 11]].
  const Tensor t = tensor<std::int32_t>({1, 2, 11, 12}, {2, 2}, ref());
  const Tensor cols = tensor<std::int32_t>({1, 0}, {2, 1}, ref());
  EXPECT_EQ(gather(t, cols, Axes{1}).to_vector<std::int32_t>(), (std::vector<std::int32_t>{2, 12, 1, 11}));
  // Axes in another order than x's: indices (j, i) into [2, 3].
  const Tensor x = iota({2, 3}, std::nullopt, DType::s32, ref());
  const Tensor ji = tensor<std::int32_t>({2, 1, 0, 0}, {2, 2}, ref());
  EXPECT_EQ(gather(x, ji, Axes{1, 0}).to_vector<std::int32_t>(), (std::vector<std::int32_t>{5, 0}));
  // Leading axes named explicitly give the plain op.
  EXPECT_EQ(gather(x, ji, Axes{0, 1}).to_vector<std::int32_t>(), gather(x, ji).to_vector<std::int32_t>());
  // indexed_add / indexed_put along axis 1 of [2, 3]: updates [n, 2] (the other axis).
  const Tensor upd = tensor<std::int32_t>({10, 20, 30, 40}, {2, 2}, ref());
  const Tensor at = tensor<std::int32_t>({2, 2}, {2, 1}, ref());
  EXPECT_EQ(indexed_add(x, at, upd, Axes{1}).to_vector<std::int32_t>(),
            (std::vector<std::int32_t>{0, 1, 2 + 10 + 30, 3, 4, 5 + 20 + 40}));
  EXPECT_EQ(indexed_put(x, at, upd, Axes{-1}).to_vector<std::int32_t>(),
            (std::vector<std::int32_t>{0, 1, 30, 3, 4, 40}));
  expect_error([&] { gather(x, ji, Axes{1}); }, {"gather", "s32[2, 2]", "one index per axis (1)"});
  expect_error([&] { gather(x, ji, Axes{1, 1}); }, {"gather", "repeated"});
  expect_error([&] { indexed_add(x, at, upd, Axes{2}); }, {"indexed_add", "axis 2"});
  expect_error([&] { indexed_put(x, at, zeros({2, 3}, DType::s32, ref()), Axes{1}); }, {"indexed_put"});
}

TEST(DynamicSlice, Errors) {
  const Tensor x = zeros({3, 4}, DType::f32, ref());
  expect_error([&] { dynamic_slice(x, {s64(0)}, {1, 1}); }, {"dynamic_slice", "1 start indices", "one per axis"});
  expect_error(
      [&] {
        dynamic_slice(x, {s64(0), scalar(0, DType::f32, ref())}, {1, 1});
      },
      {"dynamic_slice", "start index 1", "f32[]", "rank-0 integer"});
  expect_error(
      [&] {
        dynamic_slice(x, {s64(0), zeros({1}, DType::s64, ref())}, {1, 1});
      },
      {"dynamic_slice", "s64[1]", "rank-0 integer"});
  expect_error([&] { dynamic_slice(x, {s64(0), s64(0)}, {1}); }, {"dynamic_slice", "lengths [1]"});
  expect_error([&] { dynamic_slice(x, {s64(0), s64(0)}, {4, 1}); }, {"dynamic_slice", "axis 0", "too short"});
  expect_error([&] { dynamic_slice(x, {s64(0), s64(0)}, {1, 3}, Axes{1, 2}); }, {"dynamic_slice", "span 5"});
  expect_error([&] { dynamic_slice(x, {s64(0), s64(0)}, {1, 1}, Axes{1, 0}); }, {"dynamic_slice", "stride 0"});
  expect_error([&] { dynamic_slice(x, {s64(0), s64(0)}, {1, -1}); }, {"dynamic_slice", "length -1"});
  expect_error([&] { dynamic_slice(x, {s64(0), Tensor()}, {1, 1}); }, {"dynamic_slice", "undefined"});
  expect_error(
      [&] {
        dynamic_put_slice(x, {s64(0), s64(0)}, zeros({4}, DType::f32, ref()));
      },
      {"dynamic_put_slice", "f32[4]", "same rank"});
  expect_error(
      [&] {
        dynamic_put_slice(x, {s64(0), s64(0)}, zeros({4, 1}, DType::f32, ref()));
      },
      {"dynamic_put_slice", "larger", "axis 0"});
  expect_error(
      [&] {
        dynamic_put_slice(x, {s64(0)}, zeros({1, 1}, DType::f32, ref()));
      },
      {"dynamic_put_slice", "one per axis"});
}

}  // namespace
}  // namespace nxv
