// Reference kernels: unary, binary, their _test forms, select, clip and cast — hand-computed expectations.
#include <cmath>
#include <cstdint>
#include <limits>

#include "support/reference.hpp"

namespace nxv::reference_test {
namespace {

const double kNaN = std::numeric_limits<double>::quiet_NaN();
const float kNaNf = std::numeric_limits<float>::quiet_NaN();

const BinaryAttrs kAdd{BinaryFn::add};

TEST(ReferenceBinary, AddBroadcastsRowAcrossMatrix) {
  auto a = make<float>({1, 2, 3, 4, 5, 6}, {2, 3});
  auto b = make<float>({10, 20, 30}, {3});
  auto r = run(OpCode::binary, kAdd, {a, b}, {{2, 3}, DType::f32});
  EXPECT_EQ(values<float>(r), (std::vector<float>{11, 22, 33, 14, 25, 36}));
}

TEST(ReferenceBinary, ColumnPlusRowIsOuterSum) {
  auto a = make<std::int32_t>({1, 2}, {2, 1});
  auto b = make<std::int32_t>({10, 20, 30}, {1, 3});
  auto r = run(OpCode::binary, kAdd, {a, b}, {{2, 3}, DType::s32});
  EXPECT_EQ(values<std::int32_t>(r), (std::vector<std::int32_t>{11, 21, 31, 12, 22, 32}));
}

TEST(ReferenceBinary, NonContiguousBroadcastOnBothSides) {
  // a: [2, 1, 3], b: [4, 1] -> [2, 4, 3]; out[i][j][k] = a[i][0][k] + b[j][0].
  auto a = make<std::int64_t>({0, 1, 2, 3, 4, 5}, {2, 1, 3});
  auto b = make<std::int64_t>({100, 200, 300, 400}, {4, 1});
  auto r = values<std::int64_t>(run(OpCode::binary, kAdd, {a, b}, {{2, 4, 3}, DType::s64}));
  ASSERT_EQ(r.size(), 24u);
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 4; ++j)
      for (int k = 0; k < 3; ++k) EXPECT_EQ(r[(i * 4 + j) * 3 + k], (i * 3 + k) + 100 * (j + 1));
}

TEST(ReferenceBinary, RankZeroOperands) {
  auto s = make<double>({2.5}, {});
  auto m = make<double>({1, 2, 3, 4}, {2, 2});
  EXPECT_EQ(values<double>(run(OpCode::binary, kAdd, {s, m}, {{2, 2}, DType::f64})),
            (std::vector<double>{3.5, 4.5, 5.5, 6.5}));
  EXPECT_EQ(values<double>(run(OpCode::binary, kAdd, {s, s}, {{}, DType::f64})), (std::vector<double>{5.0}));
}

TEST(ReferenceBinary, EmptyResultIsValidAndEmpty) {
  auto a = make<float>({}, {0, 3});
  auto b = make<float>({1, 2, 3}, {3});
  auto r = run(OpCode::binary, kAdd, {a, b}, {{0, 3}, DType::f32});
  EXPECT_TRUE(values<float>(r).empty());
  EXPECT_EQ(r.shape(), (Shape{0, 3}));
}

TEST(ReferenceBinary, IntegerArithmeticWraps) {
  const auto i32max = std::numeric_limits<std::int32_t>::max();
  auto a = make<std::int32_t>({i32max, -3}, {2});
  auto b = make<std::int32_t>({1, 4}, {2});
  EXPECT_EQ(values<std::int32_t>(run(OpCode::binary, kAdd, {a, b}, {{2}, DType::s32})),
            (std::vector<std::int32_t>{std::numeric_limits<std::int32_t>::min(), 1}));
  auto u = make<std::uint8_t>({250, 3}, {2}, DType::u8);
  auto v = make<std::uint8_t>({10, 5}, {2}, DType::u8);
  EXPECT_EQ(values<std::uint8_t>(run(OpCode::binary, kAdd, {u, v}, {{2}, DType::u8})),
            (std::vector<std::uint8_t>{4, 8}));  // 260 mod 256
  const auto sub = BinaryAttrs{BinaryFn::subtract};
  EXPECT_EQ(values<std::uint8_t>(run(OpCode::binary, sub, {v, u}, {{2}, DType::u8})),
            (std::vector<std::uint8_t>{16, 2}));  // 10 - 250 = -240 = 16 mod 256
}

TEST(ReferenceBinary, MaxPropagatesNaN) {
  auto a = make<float>({1, kNaNf, 3}, {3});
  auto b = make<float>({2, 0, kNaNf}, {3});
  auto r = values<float>(run(OpCode::binary, BinaryAttrs{BinaryFn::max}, {a, b}, {{3}, DType::f32}));
  EXPECT_EQ(r[0], 2.0f);
  EXPECT_TRUE(std::isnan(r[1]));
  EXPECT_TRUE(std::isnan(r[2]));
}

TEST(ReferenceBinaryTest, LessBroadcastGivesPred) {
  auto a = make<float>({1, 5, 3, 7}, {2, 2});
  auto b = make<float>({4}, {});
  auto r = run(OpCode::binary_test, BinaryAttrs{BinaryFn::less}, {a, b}, {{2, 2}, DType::pred});
  EXPECT_EQ(values<std::uint8_t>(r), (std::vector<std::uint8_t>{1, 0, 1, 0}));
}

TEST(ReferenceBinaryTest, LogicalAndOnPredInputs) {
  auto a = make<std::uint8_t>({0, 0, 1, 1}, {4}, DType::pred);
  auto b = make<std::uint8_t>({0, 1, 0, 1}, {4}, DType::pred);
  auto r = run(OpCode::binary_test, BinaryAttrs{BinaryFn::logical_and}, {a, b}, {{4}, DType::pred});
  EXPECT_EQ(values<std::uint8_t>(r), (std::vector<std::uint8_t>{0, 0, 0, 1}));
}

TEST(ReferenceUnary, NegateRankZeroAndMatrix) {
  const auto neg = UnaryAttrs{UnaryFn::negate};
  EXPECT_EQ(values<float>(run(OpCode::unary, neg, {make<float>({2}, {})}, {{}, DType::f32})), (std::vector<float>{-2}));
  EXPECT_EQ(
      values<std::int32_t>(run(OpCode::unary, neg, {make<std::int32_t>({1, -2, 0, 4}, {2, 2})}, {{2, 2}, DType::s32})),
      (std::vector<std::int32_t>{-1, 2, 0, -4}));
}

// Counted over each dtype's stored width: a u8 holds 8 bits although it computes in a 32-bit uint.
TEST(ReferenceUnary, BitCountsOverTheDtypesWidth) {
  const auto popcount = UnaryAttrs{UnaryFn::population_count};
  const auto clz = UnaryAttrs{UnaryFn::count_leading_zeros};
  const auto u = make<std::uint8_t>({0, 1, 0x80, 0xFF, 0x17}, {5}, DType::u8);
  EXPECT_EQ(values<std::uint8_t>(run(OpCode::unary, popcount, {u}, {{5}, DType::u8})),
            (std::vector<std::uint8_t>{0, 1, 1, 8, 4}));
  EXPECT_EQ(values<std::uint8_t>(run(OpCode::unary, clz, {u}, {{5}, DType::u8})),
            (std::vector<std::uint8_t>{8, 7, 0, 0, 3}));
  const auto i32min = std::numeric_limits<std::int32_t>::min();
  const auto s = make<std::int32_t>({0, 1, -1, i32min, 0x00F00000}, {5});
  EXPECT_EQ(values<std::int32_t>(run(OpCode::unary, popcount, {s}, {{5}, DType::s32})),
            (std::vector<std::int32_t>{0, 1, 32, 1, 4}));
  EXPECT_EQ(values<std::int32_t>(run(OpCode::unary, clz, {s}, {{5}, DType::s32})),
            (std::vector<std::int32_t>{32, 31, 0, 0, 8}));
  const auto i64min = std::numeric_limits<std::int64_t>::min();
  const auto l = make<std::int64_t>({0, 1, -1, i64min, std::int64_t{1} << 32, 0x0000000180000000}, {6});
  EXPECT_EQ(values<std::int64_t>(run(OpCode::unary, popcount, {l}, {{6}, DType::s64})),
            (std::vector<std::int64_t>{0, 1, 64, 1, 1, 2}));
  EXPECT_EQ(values<std::int64_t>(run(OpCode::unary, clz, {l}, {{6}, DType::s64})),
            (std::vector<std::int64_t>{64, 63, 0, 0, 31, 31}));
}

TEST(ReferenceUnaryTest, IsNanGivesPred) {
  auto x = make<double>({1.0, kNaN, -std::numeric_limits<double>::infinity()}, {3});
  auto r = run(OpCode::unary_test, UnaryAttrs{UnaryFn::is_nan}, {x}, {{3}, DType::pred});
  EXPECT_EQ(values<std::uint8_t>(r), (std::vector<std::uint8_t>{0, 1, 0}));
}

TEST(ReferenceSelect, BroadcastPredicateAndScalarBranch) {
  auto p = make<std::uint8_t>({1, 0}, {2, 1}, DType::pred);
  auto t = make<float>({1, 2, 3, 4, 5, 6}, {2, 3});
  auto f = make<float>({-1}, {});
  auto r = run(OpCode::select, {}, {p, t, f}, {{2, 3}, DType::f32});
  EXPECT_EQ(values<float>(r), (std::vector<float>{1, 2, 3, -1, -1, -1}));
}

TEST(ReferenceClip, BoundsBroadcastNaNPropagatesAndHighWinsWhenCrossed) {
  // clip(x, lo, hi) = min(max(x, lo), hi).
  auto x = make<float>({-5, 0.5f, 9, kNaNf}, {4});
  auto lo = make<float>({0}, {});
  auto hi = make<float>({1}, {});
  auto r = values<float>(run(OpCode::clip, {}, {x, lo, hi}, {{4}, DType::f32}));
  EXPECT_EQ(r[0], 0.0f);
  EXPECT_EQ(r[1], 0.5f);
  EXPECT_EQ(r[2], 1.0f);
  EXPECT_TRUE(std::isnan(r[3]));
  auto crossed = run(OpCode::clip, {},
                     {make<std::int32_t>({-3, 5, 12}, {3}), make<std::int32_t>({10}, {}), make<std::int32_t>({2}, {})},
                     {{3}, DType::s32});
  EXPECT_EQ(values<std::int32_t>(crossed), (std::vector<std::int32_t>{2, 2, 2}));
}

Tensor cast_to(const Tensor& x, DType type) { return run(OpCode::cast, {}, {x}, {x.shape(), type}); }

TEST(ReferenceCast, FloatToIntTruncatesSaturatesAndMapsNaNToZero) {
  auto x = make<float>({-2.7f, 2.7f, 3e9f, -3e9f, kNaNf, -0.5f}, {6});
  EXPECT_EQ(values<std::int32_t>(cast_to(x, DType::s32)),
            (std::vector<std::int32_t>{-2, 2, std::numeric_limits<std::int32_t>::max(),
                                       std::numeric_limits<std::int32_t>::min(), 0, 0}));
  EXPECT_EQ(values<std::uint8_t>(cast_to(make<float>({300, -5, 2.9f, 255.5f, kNaNf}, {5}), DType::u8)),
            (std::vector<std::uint8_t>{255, 0, 2, 255, 0}));
  const double two63 = 9223372036854775808.0;
  EXPECT_EQ(values<std::int64_t>(cast_to(make<double>({1e19, -1e19, two63, -two63, 123.9}, {5}), DType::s64)),
            (std::vector<std::int64_t>{
                std::numeric_limits<std::int64_t>::max(), std::numeric_limits<std::int64_t>::min(),
                std::numeric_limits<std::int64_t>::max(), std::numeric_limits<std::int64_t>::min(), 123}));
}

TEST(ReferenceCast, IntToIntWraps) {
  EXPECT_EQ(values<std::uint8_t>(cast_to(make<std::int32_t>({257, -1, 128}, {3}), DType::u8)),
            (std::vector<std::uint8_t>{1, 255, 128}));
  EXPECT_EQ(values<std::int32_t>(cast_to(make<std::int64_t>({(std::int64_t{1} << 32) + 5, -1}, {2}), DType::s32)),
            (std::vector<std::int32_t>{5, -1}));
  EXPECT_EQ(values<std::int32_t>(cast_to(make<std::uint8_t>({200}, {1}, DType::u8), DType::s32)),
            (std::vector<std::int32_t>{200}));  // u8 is unsigned
}

TEST(ReferenceCast, ToAndFromPred) {
  EXPECT_EQ(values<std::uint8_t>(cast_to(make<float>({0, -0.0f, kNaNf, 0.1f}, {4}), DType::pred)),
            (std::vector<std::uint8_t>{0, 0, 1, 1}));
  EXPECT_EQ(values<std::uint8_t>(cast_to(make<std::int32_t>({0, 256, -1}, {3}), DType::pred)),
            (std::vector<std::uint8_t>{0, 1, 1}));  // x != 0, not a truncation to 8 bits
  EXPECT_EQ(values<float>(cast_to(make<std::uint8_t>({1, 0}, {2}, DType::pred), DType::f32)),
            (std::vector<float>{1, 0}));
}

TEST(ReferenceCast, ToFloatRoundsToNearestEven) {
  // f64 -> f32: 1 + 2^-24 is halfway between 1 and 1 + 2^-23 (ties to even: 1); 1 + 3 * 2^-24 goes up.
  EXPECT_EQ(values<float>(cast_to(make<double>({1 + 0x1p-24, 1 + 3 * 0x1p-24}, {2}), DType::f32)),
            (std::vector<float>{1.0f, 1.0f + 0x1p-22f}));
  // s64 -> f32: 2^24 + 1 ties to 2^24, 2^24 + 3 ties to 2^24 + 4.
  EXPECT_EQ(values<float>(cast_to(make<std::int64_t>({(1 << 24) + 1, (1 << 24) + 3}, {2}), DType::f32)),
            (std::vector<float>{16777216.0f, 16777220.0f}));
}

TEST(ReferenceCast, EmptyAndRankZero) {
  EXPECT_TRUE(values<double>(cast_to(make<float>({}, {2, 0}), DType::f64)).empty());
  EXPECT_EQ(values<std::int64_t>(cast_to(make<float>({-7.5f}, {}), DType::s64)), (std::vector<std::int64_t>{-7}));
}

}  // namespace
}  // namespace nxv::reference_test
