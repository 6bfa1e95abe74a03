// Parity of bitcast (src/ops/bitcast.cpp): every pair of dtypes of one width, raw data with its special values
// (NaN payloads, ±inf, -0.0 and the integer extremes read as floats), empty, rank-0 and multi-workgroup shapes,
// and bitcasts between computed values (integer bit tricks on floats), bit-identical with no host fallback.
#include "support/parity.hpp"

namespace nxv::testing {
namespace {

// The (from, to) pairs of equal width among the dtypes (pred is refused; u8 has no partner but itself).
std::vector<std::pair<DType, DType>> same_width_pairs() {
  std::vector<std::pair<DType, DType>> pairs;
  for (DType from : real_dtypes)
    for (DType to : real_dtypes)
      if (from != DType::pred && to != DType::pred && size_of(from) == size_of(to)) pairs.emplace_back(from, to);
  return pairs;
}

TEST(BitcastParity, EveryPairOfOneWidth) {
  NXV_REQUIRE_VULKAN();
  const std::vector<std::pair<DType, DType>> pairs = same_width_pairs();
  ASSERT_GE(pairs.size(), 7u);  // s32<->f32, s64<->f64 both ways, and each numeric dtype to itself
  for (const auto& pair : pairs) {
    const DType to = pair.second;
    const std::string cell = "bitcast:" + std::string(name(pair.first)) + "->" + std::string(name(to));
    for (const Shape& s : {Shape{3, 5, 7}, Shape{}, Shape{0, 4}, Shape{1}, Shape{70001}})
      expect_parity(cell, [to](auto& in) { return bitcast(in[0], to); }, {test_data(pair.first, s, 111)});
    // Of a computed value and into further ops: the view must see the producer's bytes.
    expect_parity(cell, [to](auto& in) { return bitcast(reverse(in[0]), to); }, {test_data(pair.first, {9, 4}, 112)});
  }
}

TEST(BitcastParity, IntegerBitTricksOnFloats) {
  NXV_REQUIRE_VULKAN();
  // |x| by clearing the sign bit, and the exponent field: integer ops between two bitcasts.
  expect_parity("bitcast:f32->s32",
                [](auto& in) { return bitcast(bitwise_and(bitcast(in[0], DType::s32), 0x7fffffff), DType::f32); },
                {test_data(DType::f32, {5000}, 113)});
  expect_parity("bitcast:f64->s64", [](auto& in) { return right_shift(bitcast(in[0] * 3.0, DType::s64), 52); },
                {test_uniform(DType::f64, {64, 33}, 114, -1e6, 1e6)});
  expect_parity("bitcast:s32->f32",
                [](auto& in) {
                  return bitcast(in[0] + 1065353216, DType::f32) * 2.0;  // 1.0f's bits plus a few ulps
                },
                {test_uniform(DType::s32, {300}, 115, 0, 1000)});
}

}  // namespace
}  // namespace nxv::testing
