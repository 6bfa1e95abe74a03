// The reference backend reached through the public API (nxv::add, nxv::sum, ...): checks that the front end's
// OpCalls and the kernels agree on attrs (axes, strides, padding, keys) for a few hand-computed cases.
#include <cstdint>

#include <gtest/gtest.h>

#include "nxv/ops.hpp"

namespace nxv {
namespace {

TEST(ReferenceFrontEnd, BroadcastAddAndSumWithKeepAxes) {
  Backend& ref = reference_backend();
  auto m = tensor<float>({1, 2, 3, 4, 5, 6}, {2, 3}, ref);
  auto v = tensor<float>({10, 20, 30}, {3}, ref);
  EXPECT_EQ((m + v).to_vector<float>(), (std::vector<float>{11, 22, 33, 14, 25, 36}));
  auto s = sum(m, Axes{1}, true);
  EXPECT_EQ(s.shape(), (Shape{2, 1}));
  EXPECT_EQ(s.to_vector<float>(), (std::vector<float>{6, 15}));
}

TEST(ReferenceFrontEnd, DotSliceTransposePadReverse) {
  Backend& ref = reference_backend();
  auto a = tensor<std::int32_t>({1, 2, 3, 4, 5, 6}, {2, 3}, ref);
  EXPECT_EQ(dot(a, transpose(a)).to_vector<std::int32_t>(), (std::vector<std::int32_t>{14, 32, 32, 77}));
  EXPECT_EQ(slice(a, {0, 0}, {2, 2}, Axes{1, 2}).to_vector<std::int32_t>(), (std::vector<std::int32_t>{1, 3, 4, 6}));
  auto p = pad(tensor<std::int32_t>({1, 2}, {2}, ref), -1, {{1, -1, 1}});
  EXPECT_EQ(p.to_vector<std::int32_t>(), (std::vector<std::int32_t>{-1, 1, -1}));
  EXPECT_EQ(reverse(a, Axes{0}).to_vector<std::int32_t>(), (std::vector<std::int32_t>{4, 5, 6, 1, 2, 3}));
}

TEST(ReferenceFrontEnd, ArgmaxAndCast) {
  Backend& ref = reference_backend();
  auto x = tensor<float>({3, 9, 9, -1}, {2, 2}, ref);
  EXPECT_EQ(argmax(x).to_vector<std::int64_t>(), (std::vector<std::int64_t>{1}));
  EXPECT_EQ(argmax(x, 1).to_vector<std::int64_t>(), (std::vector<std::int64_t>{1, 0}));
  EXPECT_EQ(as_type(x, DType::u8).to_vector<std::uint8_t>(), (std::vector<std::uint8_t>{3, 9, 9, 0}));
}

TEST(ReferenceFrontEnd, UniformIsDeterministicPerKey) {
  Backend& ref = reference_backend();
  const Key k = key(42);
  auto a = uniform(k, {100}, DType::f32, 0.0, 1.0, ref).to_vector<float>();
  EXPECT_EQ(a, uniform(k, {100}, DType::f32, 0.0, 1.0, ref).to_vector<float>());
  const auto [k1, k2] = split(k);
  EXPECT_NE(a, uniform(k1, {100}, DType::f32, 0.0, 1.0, ref).to_vector<float>());
  EXPECT_NE(uniform(k1, {100}, DType::f32, 0.0, 1.0, ref).to_vector<float>(),
            uniform(k2, {100}, DType::f32, 0.0, 1.0, ref).to_vector<float>());
}

}  // namespace
}  // namespace nxv
