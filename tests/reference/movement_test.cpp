// Reference kernels: transpose, broadcast, slice, pad, concatenate, reverse (and reshape as a view). Rank-8
// cases check every element against an index formula written out in the test.
#include <cstdint>
#include <functional>

#include "nxv/ops.hpp"
#include "support/reference.hpp"

namespace nxv::reference_test {
namespace {

using Index = std::vector<std::int64_t>;

// Runs `op` on counting values 0..n-1 of shape `in` and checks each output element i against expected(i),
// where expected returns the input's linear index or -1 for "the pad value 1000".
void expect_gather(OpCode op, const OpAttrs& attrs, const Shape& in, const Shape& out,
                   const std::function<std::int64_t(const Index&)>& source) {
  auto r =
      values<std::int32_t>(run(op, attrs, {make(counting<std::int32_t>(num_elements(in)), in)}, {out, DType::s32}));
  ASSERT_EQ(static_cast<std::int64_t>(r.size()), num_elements(out));
  for (std::int64_t i = 0; i < num_elements(out); ++i) {
    const std::int64_t src = source(unravel(i, out));
    EXPECT_EQ(r[static_cast<std::size_t>(i)], src < 0 ? 1000 : src) << "output element " << i;
  }
}

TEST(ReferenceTranspose, MatrixAndRankThree) {
  TransposeAttrs a{.permutation = {1, 0}};
  EXPECT_EQ(values<float>(run(OpCode::transpose, a, {make<float>({1, 2, 3, 4, 5, 6}, {2, 3})}, {{3, 2}, DType::f32})),
            (std::vector<float>{1, 4, 2, 5, 3, 6}));
  a.permutation = {2, 0, 1};  // out[k][i][j] = x[i][j][k] over x: [2, 2, 3]
  auto r = values<std::int32_t>(
      run(OpCode::transpose, a, {make(counting<std::int32_t>(12), {2, 2, 3})}, {{3, 2, 2}, DType::s32}));
  EXPECT_EQ(r, (std::vector<std::int32_t>{0, 3, 6, 9, 1, 4, 7, 10, 2, 5, 8, 11}));
}

TEST(ReferenceTranspose, RankEight) {
  const Shape in{2, 1, 3, 1, 2, 2, 1, 2};
  TransposeAttrs a{.permutation = {7, 0, 5, 2, 6, 1, 4, 3}};
  Shape out;
  for (auto p : a.permutation) out.push_back(in[static_cast<int>(p)]);
  expect_gather(OpCode::transpose, a, in, out, [&](const Index& o) {
    Index i(8);
    for (int k = 0; k < 8; ++k) i[static_cast<std::size_t>(a.permutation[k])] = o[static_cast<std::size_t>(k)];
    return ravel(i, in);
  });
}

TEST(ReferenceTranspose, EmptyTensor) {
  TransposeAttrs a{.permutation = {1, 0}};
  EXPECT_TRUE(values<float>(run(OpCode::transpose, a, {make<float>({}, {0, 3})}, {{3, 0}, DType::f32})).empty());
}

TEST(ReferenceBroadcast, VectorIntoEitherAxis) {
  auto v = make<std::int32_t>({1, 2, 3}, {3});
  BroadcastAttrs a{.axes = {1}};
  EXPECT_EQ(values<std::int32_t>(run(OpCode::broadcast, a, {v}, {{2, 3}, DType::s32})),
            (std::vector<std::int32_t>{1, 2, 3, 1, 2, 3}));
  a.axes = {0};
  EXPECT_EQ(values<std::int32_t>(run(OpCode::broadcast, a, {v}, {{3, 2}, DType::s32})),
            (std::vector<std::int32_t>{1, 1, 2, 2, 3, 3}));
  a.axes = {1};
  auto r = values<std::int32_t>(run(OpCode::broadcast, a, {v}, {{2, 3, 2}, DType::s32}));
  EXPECT_EQ(r, (std::vector<std::int32_t>{1, 1, 2, 2, 3, 3, 1, 1, 2, 2, 3, 3}));
}

TEST(ReferenceBroadcast, SizeOneAxesRankZeroAndReorderedAxes) {
  BroadcastAttrs a{.axes = {0, 1}};
  EXPECT_EQ(values<float>(run(OpCode::broadcast, a, {make<float>({7, 8}, {2, 1})}, {{2, 3}, DType::f32})),
            (std::vector<float>{7, 7, 7, 8, 8, 8}));
  a.axes = {};
  EXPECT_EQ(values<float>(run(OpCode::broadcast, a, {make<float>({5}, {})}, {{2, 2}, DType::f32})),
            (std::vector<float>(4, 5.0f)));
  // Input axis 0 -> output axis 2, input axis 1 -> output axis 0: out[j][m][i] = x[i][j].
  a.axes = {2, 0};
  expect_gather(OpCode::broadcast, a, {2, 3}, {3, 4, 2}, [](const Index& o) { return o[2] * 3 + o[0]; });
}

TEST(ReferenceSlice, StridedVectorAndMatrix) {
  SliceAttrs a{.starts = {1}, .strides = {3}};
  EXPECT_EQ(values<std::int32_t>(run(OpCode::slice, a, {make(counting<std::int32_t>(10), {10})}, {{3}, DType::s32})),
            (std::vector<std::int32_t>{1, 4, 7}));
  a.starts = {1, 0};
  a.strides = {2, 2};
  EXPECT_EQ(
      values<std::int32_t>(run(OpCode::slice, a, {make(counting<std::int32_t>(20), {4, 5})}, {{2, 3}, DType::s32})),
      (std::vector<std::int32_t>{5, 7, 9, 15, 17, 19}));
  a.starts = {0, 1};
  a.strides = {};  // unit strides
  EXPECT_EQ(
      values<std::int32_t>(run(OpCode::slice, a, {make(counting<std::int32_t>(9), {3, 3})}, {{2, 2}, DType::s32})),
      (std::vector<std::int32_t>{1, 2, 4, 5}));
}

TEST(ReferenceSlice, RankEightAndEmpty) {
  const Shape in{3, 2, 4, 1, 2, 3, 2, 2};
  SliceAttrs a{.starts = {1, 0, 1, 0, 1, 0, 0, 1}, .strides = {1, 1, 2, 1, 1, 2, 1, 1}};
  expect_gather(OpCode::slice, a, in, {2, 2, 2, 1, 1, 2, 2, 1}, [&](const Index& o) {
    Index i(8);
    for (int k = 0; k < 8; ++k)
      i[static_cast<std::size_t>(k)] = a.starts[k] + o[static_cast<std::size_t>(k)] * a.strides[k];
    return ravel(i, in);
  });
  a.starts = {2};
  a.strides = {1};
  EXPECT_TRUE(values<float>(run(OpCode::slice, a, {make<float>({1, 2}, {2})}, {{0}, DType::f32})).empty());
}

// A length-1 slice never steps, so the front end drops its stride: 2^62 times the axis stride 5 would overflow
// the kernel's stride arithmetic (UBSan) though no element is read with it.
TEST(ReferenceSlice, SingleStepIgnoresAHugeStride) {
  const Tensor x = make<float>(counting<float>(25), {5, 5});
  const Tensor row = slice(x, {2, 0}, {1, 5}, Axes{std::int64_t{1} << 62, 1});
  EXPECT_EQ(values<float>(row), (std::vector<float>{10, 11, 12, 13, 14}));
}

PadAttrs pad_attrs(Shape low, Shape high, Shape interior, double value) {
  return {.low = low, .high = high, .interior = interior, .value = value};
}

TEST(ReferencePad, LowHighAndInterior) {
  EXPECT_EQ(
      values<float>(run(OpCode::pad, pad_attrs({1}, {2}, {1}, 0), {make<float>({1, 2, 3}, {3})}, {{8}, DType::f32})),
      (std::vector<float>{0, 1, 0, 2, 0, 3, 0, 0}));
  auto m = make<float>({1, 2, 3, 4}, {2, 2});
  EXPECT_EQ(values<float>(run(OpCode::pad, pad_attrs({1, 0}, {0, 1}, {0, 1}, 0), {m}, {{3, 4}, DType::f32})),
            (std::vector<float>{0, 0, 0, 0, 1, 0, 2, 0, 3, 0, 4, 0}));
}

TEST(ReferencePad, NegativeEdgesCut) {
  EXPECT_EQ(values<float>(run(OpCode::pad, pad_attrs({-1}, {-2}, {0}, 0), {make<float>({1, 2, 3, 4, 5}, {5})},
                              {{2}, DType::f32})),
            (std::vector<float>{2, 3}));
  // interior first: [1 9 2 9 3]; low -1 cuts the 1, high 1 appends a 9.
  EXPECT_EQ(
      values<float>(run(OpCode::pad, pad_attrs({-1}, {1}, {1}, 9), {make<float>({1, 2, 3}, {3})}, {{5}, DType::f32})),
      (std::vector<float>{9, 2, 9, 3, 9}));
}

// Input positions far outside the output are cut without computing their (overflowing) offsets: low + index on
// axis 0 is about -2^62.6, times the output stride 2 (UBSan: signed overflow).
TEST(ReferencePad, EdgesFarOutsideCutEverything) {
  const std::int64_t far = 3 * (std::int64_t{1} << 61);
  EXPECT_EQ(values<float>(run(OpCode::pad, pad_attrs({-far, 0}, {far, 0}, {0, 0}, 9),
                              {make<float>({1, 2, 3, 4}, {2, 2})}, {{2, 2}, DType::f32})),
            (std::vector<float>{9, 9, 9, 9}));
}

TEST(ReferencePad, ValueConvertedAsByCast) {
  EXPECT_EQ(values<std::int32_t>(
                run(OpCode::pad, pad_attrs({1}, {1}, {0}, 7.9), {make<std::int32_t>({5}, {1})}, {{3}, DType::s32})),
            (std::vector<std::int32_t>{7, 5, 7}));
  EXPECT_EQ(values<std::uint8_t>(run(OpCode::pad, pad_attrs({0}, {1}, {0}, 2.0),
                                     {make<std::uint8_t>({0}, {1}, DType::pred)}, {{2}, DType::pred})),
            (std::vector<std::uint8_t>{0, 1}));
  EXPECT_EQ(values<double>(run(OpCode::pad, pad_attrs({}, {}, {}, 3), {make<double>({4}, {})}, {{}, DType::f64})),
            (std::vector<double>{4}));
}

TEST(ReferencePad, RankEightWithInteriorAndNegativeEdges) {
  const Shape in{2, 1, 2, 1, 2, 1, 1, 2};
  const Shape low{1, 0, -1, 0, 0, 2, 0, 0}, high{0, 1, 1, 0, -1, 0, 0, 1}, interior{0, 1, 1, 0, 1, 0, 0, 2};
  Shape out;
  for (int k = 0; k < 8; ++k) out.push_back(low[k] + high[k] + in[k] + (in[k] - 1) * interior[k]);
  EXPECT_EQ(out, (Shape{3, 2, 3, 1, 2, 3, 1, 5}));
  expect_gather(OpCode::pad, pad_attrs(low, high, interior, 1000), in, out, [&](const Index& o) -> std::int64_t {
    Index i(8);
    for (int k = 0; k < 8; ++k) {
      const std::int64_t p = o[static_cast<std::size_t>(k)] - low[k];
      if (p < 0 || p % (interior[k] + 1) != 0 || p / (interior[k] + 1) >= in[k]) return -1;
      i[static_cast<std::size_t>(k)] = p / (interior[k] + 1);
    }
    return ravel(i, in);
  });
}

TEST(ReferenceConcatenate, AlongColumnsWithAnEmptyPiece) {
  AxisAttrs a{.axis = 1};
  auto r = run(OpCode::concatenate, a,
               {make<float>({1, 2}, {2, 1}), make<float>({}, {2, 0}), make<float>({3, 4, 5, 6}, {2, 2})},
               {{2, 3}, DType::f32});
  EXPECT_EQ(values<float>(r), (std::vector<float>{1, 3, 4, 2, 5, 6}));
  a.axis = 0;
  EXPECT_EQ(
      values<std::uint8_t>(run(OpCode::concatenate, a,
                               {make<std::uint8_t>({1}, {1}, DType::u8), make<std::uint8_t>({2, 3}, {2}, DType::u8)},
                               {{3}, DType::u8})),
      (std::vector<std::uint8_t>{1, 2, 3}));
}

TEST(ReferenceConcatenate, RankEight) {
  const Shape sa{1, 2, 1, 2, 1, 2, 1, 2}, sb{1, 2, 1, 2, 1, 3, 1, 2}, out{1, 2, 1, 2, 1, 5, 1, 2};
  const auto na = num_elements(sa);
  std::vector<std::int32_t> vb = counting<std::int32_t>(num_elements(sb));
  for (auto& x : vb) x += static_cast<std::int32_t>(na);  // b's values continue after a's
  AxisAttrs a{.axis = 5};
  auto r = values<std::int32_t>(
      run(OpCode::concatenate, a, {make(counting<std::int32_t>(na), sa), make(vb, sb)}, {out, DType::s32}));
  for (std::int64_t i = 0; i < num_elements(out); ++i) {
    Index o = unravel(i, out);
    std::int64_t expected;
    if (o[5] < 2) {
      expected = ravel(o, sa);
    } else {
      o[5] -= 2;
      expected = na + ravel(o, sb);
    }
    EXPECT_EQ(r[static_cast<std::size_t>(i)], expected) << "output element " << i;
  }
}

TEST(ReferenceReverse, AxesOfMatrixAndNone) {
  auto m = make<float>({1, 2, 3, 4, 5, 6}, {2, 3});
  ReverseAttrs a{.axes = {1}};
  EXPECT_EQ(values<float>(run(OpCode::reverse, a, {m}, {{2, 3}, DType::f32})), (std::vector<float>{3, 2, 1, 6, 5, 4}));
  a.axes = {0, 1};
  EXPECT_EQ(values<float>(run(OpCode::reverse, a, {m}, {{2, 3}, DType::f32})), (std::vector<float>{6, 5, 4, 3, 2, 1}));
  a.axes = {};
  EXPECT_EQ(values<float>(run(OpCode::reverse, a, {m}, {{2, 3}, DType::f32})), (std::vector<float>{1, 2, 3, 4, 5, 6}));
  a.axes = {0};
  EXPECT_TRUE(values<float>(run(OpCode::reverse, a, {make<float>({}, {0, 3})}, {{0, 3}, DType::f32})).empty());
}

TEST(ReferenceReverse, RankEight) {
  const Shape in{2, 3, 1, 2, 1, 2, 2, 1};
  ReverseAttrs a{.axes = {0, 3, 5, 6}};
  expect_gather(OpCode::reverse, a, in, in, [&](const Index& o) {
    Index i = o;
    for (auto k : a.axes) i[static_cast<std::size_t>(k)] = in[static_cast<int>(k)] - 1 - o[static_cast<std::size_t>(k)];
    return ravel(i, in);
  });
}

TEST(ReferenceReshape, IsAViewOfTheSameStorage) {
  auto x = make<float>({1, 2, 3, 4, 5, 6}, {2, 3});
  auto r = run(OpCode::reshape, {}, {x}, {{3, 2}, DType::f32});
  EXPECT_EQ(r.storage(), x.storage());
  EXPECT_EQ(values<float>(r), (std::vector<float>{1, 2, 3, 4, 5, 6}));
}

}  // namespace
}  // namespace nxv::reference_test
