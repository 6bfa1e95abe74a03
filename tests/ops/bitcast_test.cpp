// bitcast (src/ops/bitcast.cpp) on the reference backend: known bit patterns, that it is a view (no copy), and
// its errors (pred, widths that differ, an undefined tensor).
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <limits>

#include "nxv/ops.hpp"
#include "support/expect_error.hpp"

namespace nxv {
namespace {

using testing::expect_error;

TEST(Bitcast, KnownBitPatterns) {
  const Tensor f = tensor<float>({1.0f, -0.0f, -2.5f}, {3}, reference_backend());
  const Tensor i = bitcast(f, DType::s32);
  EXPECT_EQ(i.type(), (TensorType{{3}, DType::s32}));
  EXPECT_EQ(i.to_vector<std::int32_t>(), (std::vector<std::int32_t>{0x3f800000, static_cast<std::int32_t>(0x80000000u),
                                                                    static_cast<std::int32_t>(0xc0200000u)}));
  const std::vector<float> back = bitcast(i, DType::f32).to_vector<float>();
  EXPECT_EQ(std::memcmp(back.data(), f.to_vector<float>().data(), sizeof(float) * 3), 0);
  const Tensor d = bitcast(
      tensor<std::int64_t>({0x3ff0000000000000LL, 0x7ff0000000000000LL}, {2, 1}, reference_backend()), DType::f64);
  EXPECT_EQ(d.shape(), (Shape{2, 1}));
  EXPECT_EQ(d.to_vector<double>(), (std::vector<double>{1.0, std::numeric_limits<double>::infinity()}));
  // To its own dtype: the tensor itself.
  const Tensor u = tensor<std::uint8_t>({7, 255}, {2}, reference_backend());
  EXPECT_EQ(bitcast(u, DType::u8).storage(), u.storage());
}

TEST(Bitcast, IsAView) {
  const Tensor f = tensor<float>({1.0f, 2.0f}, {2}, reference_backend());
  EXPECT_EQ(bitcast(f, DType::s32).storage(), f.storage());
}

TEST(Bitcast, Errors) {
  const Tensor f = zeros({2}, DType::f32, reference_backend());
  expect_error([&] { bitcast(f, DType::f64); }, {"bitcast", "f32[2]", "32 bits", "f64", "64 bits", "same bit width"});
  expect_error([&] { bitcast(f, DType::u8); }, {"bitcast", "8 bits"});
  expect_error([&] { bitcast(zeros({2}, DType::pred, reference_backend()), DType::u8); }, {"bitcast", "pred"});
  expect_error([&] { bitcast(zeros({2}, DType::u8, reference_backend()), DType::pred); }, {"bitcast", "pred"});
  expect_error([&] { bitcast(Tensor(), DType::f32); }, {"bitcast", "undefined"});
}

}  // namespace
}  // namespace nxv
