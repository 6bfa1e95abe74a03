// Tensors, dtypes, promotion, broadcasting and printing (src/core), on the reference backend.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "nxv/ops.hpp"

namespace nxv {
namespace {

Backend& ref() { return reference_backend(); }

TEST(DTypes, PromotionFollowsNx) {
  EXPECT_EQ(promote(DType::s32, DType::f32), DType::f32);
  EXPECT_EQ(promote(DType::s64, DType::f32), DType::f32);
  EXPECT_EQ(promote(DType::f32, DType::f64), DType::f64);
  EXPECT_EQ(promote(DType::u8, DType::s32), DType::s32);
  EXPECT_EQ(promote(DType::s32, DType::u8), DType::s32);
  EXPECT_EQ(promote(DType::s32, DType::s64), DType::s64);
  EXPECT_EQ(promote(DType::pred, DType::u8), DType::u8);
  EXPECT_EQ(promote(DType::pred, DType::pred), DType::pred);
  // Mixed signedness (Nx.Type.merge): a signed type of twice the unsigned width, at most 64 bits.
  EXPECT_EQ(promote(DType::s8, DType::u8), DType::s16);
  EXPECT_EQ(promote(DType::u8, DType::s16), DType::s16);
  EXPECT_EQ(promote(DType::s16, DType::u16), DType::s32);
  EXPECT_EQ(promote(DType::u16, DType::s32), DType::s32);
  EXPECT_EQ(promote(DType::s8, DType::u32), DType::s64);
  EXPECT_EQ(promote(DType::u64, DType::s8), DType::s64);
  EXPECT_EQ(promote(DType::u64, DType::s64), DType::s64);
  EXPECT_EQ(promote(DType::u8, DType::u64), DType::u64);
  EXPECT_EQ(promote(DType::s8, DType::s16), DType::s16);
  EXPECT_EQ(promote(DType::u64, DType::f32), DType::f32);
  EXPECT_EQ(promote(DType::pred, DType::s8), DType::s8);
  for (DType t : real_dtypes) EXPECT_EQ(float_type(t), is_float(t) ? t : DType::f32) << name(t);
  for (DType a : real_dtypes)
    for (DType b : real_dtypes) EXPECT_EQ(promote(a, b), promote(b, a)) << name(a) << " " << name(b);
  EXPECT_EQ(dtype_from_name("s64"), DType::s64);
  EXPECT_EQ(size_of(DType::pred), 1u);
}

TEST(Tensors, ScalarLiteralsAreWeak) {
  const Tensor x = tensor<float>({1, 2}, {2}, ref());
  EXPECT_EQ((x * 2.0).dtype(), DType::f32);
  EXPECT_EQ((2 * x).dtype(), DType::f32);
  const Tensor i = tensor<std::int32_t>({1, 2}, {2}, ref());
  EXPECT_EQ((i + 1).dtype(), DType::s32);
  EXPECT_EQ((i * 0.5).dtype(), DType::f32);
  EXPECT_EQ((i * 0.5).to_vector<float>(), (std::vector<float>{0.5f, 1.0f}));
  const Tensor d = tensor<double>({1}, {1}, ref());
  EXPECT_EQ((d * 0.1).to_vector<double>()[0], 0.1);  // the literal's full double value, not 0.1f
  EXPECT_EQ(divide(i, i).dtype(), DType::f32);       // true division of integers gives a float
}

TEST(Tensors, BroadcastingShapes) {
  EXPECT_EQ(broadcast_shapes({3, 1, 5}, {4, 5}, "t"), (Shape{3, 4, 5}));
  EXPECT_EQ(broadcast_shapes({}, {2, 3}, "t"), (Shape{2, 3}));
  EXPECT_EQ(broadcast_shapes({0, 1}, {1, 3}, "t"), (Shape{0, 3}));
  const Tensor a = tensor<float>({1, 2, 3}, {3, 1}, ref());
  const Tensor b = tensor<float>({10, 20}, {2}, ref());
  EXPECT_EQ((a + b).to_vector<float>(), (std::vector<float>{11, 21, 12, 22, 13, 23}));
}

TEST(Tensors, ViewsAndImmutability) {
  const Tensor x = iota({2, 3}, 1, DType::s32, ref());
  const Tensor r = reshape(x, {3, 2});
  EXPECT_EQ(r.storage(), x.storage());
  const Tensor y = x + 1;
  EXPECT_EQ(x.to_vector<std::int32_t>(), (std::vector<std::int32_t>{0, 1, 2, 0, 1, 2}));  // inputs unchanged
  EXPECT_EQ(y.to_vector<std::int32_t>(), (std::vector<std::int32_t>{1, 2, 3, 1, 2, 3}));
  EXPECT_EQ(flatten(x).shape(), (Shape{6}));
  EXPECT_EQ(expand_dims(x, -1).shape(), (Shape{2, 3, 1}));
  EXPECT_EQ(squeeze(expand_dims(x, 0)).shape(), (Shape{2, 3}));
}

TEST(Tensors, CreationAndTransfer) {
  EXPECT_EQ(eye(2, 3, DType::s32, ref()).to_vector<std::int32_t>(), (std::vector<std::int32_t>{1, 0, 0, 0, 1, 0}));
  EXPECT_EQ(full({2}, 2.5, DType::f64, ref()).to_vector<double>(), (std::vector<double>{2.5, 2.5}));
  EXPECT_EQ(zeros({0, 3}, DType::f32, ref()).size(), 0);
  EXPECT_EQ(scalar(3, DType::u8, ref()).item(), 3.0);
  EXPECT_EQ(tensor<bool>({true, false}, {2}, ref()).to_vector<bool>(), (std::vector<bool>{true, false}));
  const Tensor x = tensor<float>({1, 2, 3, 4}, {2, 2}, ref());
  EXPECT_EQ(x.to_host().storage(), x.storage());
  EXPECT_EQ(x.dim(-1), 2);
}

TEST(Tensors, PrintsLikeNumPy) {
  EXPECT_EQ(tensor<float>({1, 2.5f, 3, 4}, {2, 2}, ref()).to_string(), "f32[2, 2]\n[[1, 2.5],\n [3, 4]]");
  EXPECT_EQ(scalar(7, DType::s64, ref()).to_string(), "s64[]\n7");
  EXPECT_EQ(tensor<bool>({true, false}, {2}, ref()).to_string(), "pred[2]\n[true, false]");
  EXPECT_EQ(zeros({0}, DType::f32, ref()).to_string(), "f32[0]\n[]");
  const double nan = std::numeric_limits<double>::quiet_NaN();
  EXPECT_EQ(tensor<double>({nan, -INFINITY, -0.0}, {3}, ref()).to_string(), "f64[3]\n[nan, -inf, -0]");
  const std::string big = iota({2000}, 0, DType::s32, ref()).to_string();
  EXPECT_NE(big.find("[0, 1, 2, ..., 1997, 1998, 1999]"), std::string::npos) << big;
}

TEST(Random, KeysAndDistributions) {
  const Tensor u = uniform(key(1), {10000}, DType::f64, -1, 3, ref());
  const auto v = u.to_vector<double>();
  double lo = 1e9, hi = -1e9, total = 0;
  for (double x : v) lo = std::min(lo, x), hi = std::max(hi, x), total += x;
  EXPECT_GE(lo, -1);
  EXPECT_LT(hi, 3);
  EXPECT_NEAR(total / v.size(), 1.0, 0.05);
  const auto n = normal(key(2), {20000}, DType::f32, 0, 1, ref()).to_vector<float>();
  double m = 0, s = 0;
  for (float x : n) m += x, s += double(x) * x;
  m /= n.size();
  EXPECT_NEAR(m, 0.0, 0.03);
  EXPECT_NEAR(s / n.size() - m * m, 1.0, 0.05);
  const auto keys = split(key(1));
  EXPECT_FALSE(keys[0] == keys[1]);
  EXPECT_FALSE(uniform(keys[0], {4}, DType::f32, 0, 1, ref()).to_vector<float>() ==
               uniform(keys[1], {4}, DType::f32, 0, 1, ref()).to_vector<float>());
}

}  // namespace
}  // namespace nxv
