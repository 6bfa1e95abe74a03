// Reference kernels: iota, eye, full, and Philox-4x32-10 with the uniform/normal bit recipes.
#include <cmath>
#include <cstdint>
#include <limits>

#include "nxv/ops.hpp"
#include "shared/math.hpp"
#include "shared/philox.hpp"
#include "support/reference.hpp"

namespace nxv::reference_test {
namespace {

using philox::philox4x32_10;
using Words = std::array<std::uint32_t, 4>;

// Random123's known-answer vectors (its kat_vectors file), the three "philox4x32 10" lines (counter, key -> output).
TEST(ReferencePhilox, MatchesRandom123KnownAnswers) {
  EXPECT_EQ(philox4x32_10({0, 0, 0, 0}, {0, 0}), (Words{0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8}));
  EXPECT_EQ(philox4x32_10({0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff}, {0xffffffff, 0xffffffff}),
            (Words{0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd}));
  EXPECT_EQ(philox4x32_10({0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344}, {0xa4093822, 0x299f31d0}),
            (Words{0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1}));
}

// 10^12 elements: more than any test machine's memory, refused with an nxv::Error before allocating (not
// std::bad_alloc, and not an OOM kill or a sanitizer abort under overcommit), and the backend works on.
TEST(ReferenceAllocation, TensorsLargerThanTheHostAreAnErrorNotBadAlloc) {
  const Shape huge{1000000000000};
  for (OpCode code : {OpCode::full, OpCode::iota}) {
    const OpAttrs attrs = code == OpCode::full ? OpAttrs{FullAttrs{0}} : OpAttrs{AxisAttrs{0}};
    try {
      run(code, attrs, {}, {huge, DType::f32});
      ADD_FAILURE() << "expected an nxv::Error";
    } catch (const Error& e) {
      const std::string msg = e.what();
      EXPECT_NE(msg.find(op_name(code)), std::string::npos) << msg;
      EXPECT_NE(msg.find("4000000000000 bytes"), std::string::npos) << msg;
    }
  }
  EXPECT_THROW(zeros(huge, DType::u8, ref()), Error);
  EXPECT_THROW(iota(huge, 0, DType::s64, ref()), Error);
  EXPECT_EQ(values<float>(run(OpCode::full, FullAttrs{2}, {}, {{2}, DType::f32})), (std::vector<float>{2, 2}));
}

TEST(ReferenceIota, AlongEachAxisAndDtype) {
  AxisAttrs a{.axis = 1};
  EXPECT_EQ(values<std::int32_t>(run(OpCode::iota, a, {}, {{2, 3}, DType::s32})),
            (std::vector<std::int32_t>{0, 1, 2, 0, 1, 2}));
  a.axis = 0;
  EXPECT_EQ(values<float>(run(OpCode::iota, a, {}, {{2, 3}, DType::f32})), (std::vector<float>{0, 0, 0, 1, 1, 1}));
  EXPECT_EQ(values<std::int64_t>(run(OpCode::iota, a, {}, {{}, DType::s64})), (std::vector<std::int64_t>{0}));
  EXPECT_TRUE(values<std::int64_t>(run(OpCode::iota, a, {}, {{0, 4}, DType::s64})).empty());
  auto u = values<std::uint8_t>(run(OpCode::iota, a, {}, {{300}, DType::u8}));
  EXPECT_EQ(u[255], 255);
  EXPECT_EQ(u[256], 0);  // wraps as an int -> u8 cast does
  EXPECT_EQ(u[299], 43);
}

TEST(ReferenceEye, RectangularAndPred) {
  EXPECT_EQ(values<float>(run(OpCode::eye, {}, {}, {{2, 3}, DType::f32})), (std::vector<float>{1, 0, 0, 0, 1, 0}));
  EXPECT_EQ(values<std::uint8_t>(run(OpCode::eye, {}, {}, {{3, 2}, DType::pred})),
            (std::vector<std::uint8_t>{1, 0, 0, 1, 0, 0}));
}

TEST(ReferenceFull, ScalarConvertedAsByCast) {
  FullAttrs a{.value = 2.7};
  EXPECT_EQ(values<std::int32_t>(run(OpCode::full, a, {}, {{2}, DType::s32})), (std::vector<std::int32_t>{2, 2}));
  EXPECT_EQ(values<float>(run(OpCode::full, a, {}, {{}, DType::f32})), (std::vector<float>{2.7f}));
  a.value = 300;
  EXPECT_EQ(values<std::uint8_t>(run(OpCode::full, a, {}, {{1}, DType::u8})), (std::vector<std::uint8_t>{255}));
  a.value = std::numeric_limits<double>::quiet_NaN();
  EXPECT_EQ(values<std::int64_t>(run(OpCode::full, a, {}, {{1}, DType::s64})), (std::vector<std::int64_t>{0}));
  EXPECT_EQ(values<std::uint8_t>(run(OpCode::full, a, {}, {{1}, DType::pred})), (std::vector<std::uint8_t>{1}));
  a.value = 0.5;
  EXPECT_EQ(values<std::uint8_t>(run(OpCode::full, a, {}, {{1}, DType::pred})), (std::vector<std::uint8_t>{1}));
  EXPECT_TRUE(values<double>(run(OpCode::full, a, {}, {{3, 0}, DType::f64})).empty());
}

UniformAttrs uniform_attrs(Key key, double low, double high) { return {.key = key, .low = low, .high = high}; }
NormalAttrs normal_attrs(Key key, double mean, double stddev) { return {.key = key, .mean = mean, .stddev = stddev}; }

TEST(ReferenceRandom, UniformElementZeroUnderKeyZeroUsesTheFirstKnownAnswer) {
  // Element 0 under key (0, 0) is the block of counter 0: w = 6627e8d5 e169c58d bc57ac4c 9b00dbd8.
  auto f32 = values<float>(run(OpCode::random_uniform, uniform_attrs({0, 0}, -1, 3), {}, {{2}, DType::f32}));
  EXPECT_EQ(f32[0], static_cast<float>(-1.0 + 4.0 * (double(0x6627e8d5u >> 8) * 0x1p-24)));
  auto f64 = values<double>(run(OpCode::random_uniform, uniform_attrs({0, 0}, 0, 1), {}, {{1}, DType::f64}));
  EXPECT_EQ(f64[0], double(((std::uint64_t{0x6627e8d5} << 32) | 0xe169c58d) >> 11) * 0x1p-53);
}

TEST(ReferenceRandom, ElementIUsesCounterIAndDependsOnTheKey) {
  const Key key{0xa4093822, 0x299f31d0};
  auto r = values<double>(run(OpCode::random_uniform, uniform_attrs(key, 0, 1), {}, {{2, 3}, DType::f64}));
  for (std::uint32_t i = 0; i < 6; ++i) {
    const Words w = philox4x32_10({i, 0, 0, 0}, {key.k0, key.k1});
    EXPECT_EQ(r[i], double(((std::uint64_t{w[0]} << 32) | w[1]) >> 11) * 0x1p-53) << "element " << i;
  }
  auto other = values<double>(run(OpCode::random_uniform, uniform_attrs({1, 0}, 0, 1), {}, {{2, 3}, DType::f64}));
  EXPECT_NE(r, other);
}

TEST(ReferenceRandom, NormalElementZeroFollowsBoxMuller) {
  const double u1 = (double(((std::uint64_t{0x6627e8d5} << 32) | 0xe169c58d) >> 11) + 1.0) * 0x1p-53;
  const double u2 = double(((std::uint64_t{0xbc57ac4c} << 32) | 0x9b00dbd8) >> 11) * 0x1p-53;
  const double z = std::sqrt(-2.0 * math::nxv_log(u1)) * math::nxv_cos(6.283185307179586 * u2);
  auto f64 = values<double>(run(OpCode::random_normal, normal_attrs({0, 0}, 10, 2), {}, {{1}, DType::f64}));
  EXPECT_EQ(f64[0], 10 + 2 * z);
  auto f32 = values<float>(run(OpCode::random_normal, normal_attrs({0, 0}, 10, 2), {}, {{1}, DType::f32}));
  EXPECT_EQ(f32[0], static_cast<float>(10 + 2 * z));
}

TEST(ReferenceRandom, MomentsAndRange) {
  const int n = 20000;
  auto u = values<float>(run(OpCode::random_uniform, uniform_attrs({7, 9}, 2, 5), {}, {{n}, DType::f32}));
  double sum = 0;
  for (float x : u) {
    EXPECT_GE(x, 2.0f);
    EXPECT_LT(x, 5.0f);
    sum += x;
  }
  EXPECT_NEAR(sum / n, 3.5, 0.03);  // sd of the mean: (3 / sqrt(12)) / sqrt(n) ~ 0.006
  auto z = values<double>(run(OpCode::random_normal, normal_attrs({7, 9}, 0, 1), {}, {{n}, DType::f64}));
  double m = 0, m2 = 0;
  for (double x : z) {
    m += x;
    m2 += x * x;
  }
  EXPECT_NEAR(m / n, 0.0, 0.04);
  EXPECT_NEAR(m2 / n, 1.0, 0.05);
}

}  // namespace
}  // namespace nxv::reference_test
