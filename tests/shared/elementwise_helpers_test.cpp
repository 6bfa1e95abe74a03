// The elementwise helpers of shared/elementwise_helpers.glsl.h that compute in f32 where the f64 algorithm would
// give the same bits (so that a device without f64 runs them natively): f32 round against
// float(nxv_round_half_away(double(x))), on every 97th bit pattern and around every power of two and half-integer.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <vector>

#include "ops/elementwise_eval.hpp"

namespace {

std::uint32_t round_bits(float x) { return std::bit_cast<std::uint32_t>(nxv::math::nxv_round(x)); }
std::uint32_t through_f64(float x) {
  return std::bit_cast<std::uint32_t>(static_cast<float>(nxv::math::nxv_round_half_away(static_cast<double>(x))));
}

TEST(ElementwiseHelpers, F32RoundInF32EqualsTheF64Algorithm) {
  std::vector<float> xs;
  for (std::uint64_t u = 0; u <= 0xffffffffu; u += 97)
    xs.push_back(std::bit_cast<float>(static_cast<std::uint32_t>(u)));
  for (int k = -30; k <= 30; ++k)
    for (const float base : {std::ldexp(1.0f, k), std::ldexp(1.0f, k) + 0.5f, static_cast<float>(k) + 0.5f})
      for (const float x : {std::nextafter(base, 0.0f), base, std::nextafter(base, INFINITY)}) {
        xs.push_back(x);
        xs.push_back(-x);
      }
  int mismatches = 0;
  for (const float x : xs) {
    if (std::isnan(x)) {
      EXPECT_TRUE(std::isnan(nxv::math::nxv_round(x)));
      continue;
    }
    if (round_bits(x) != through_f64(x) && ++mismatches <= 10)
      ADD_FAILURE() << "round(" << x << " = 0x" << std::hex << std::bit_cast<std::uint32_t>(x) << "): 0x"
                    << round_bits(x) << ", through f64 0x" << through_f64(x);
  }
  EXPECT_EQ(mismatches, 0) << "of " << xs.size();
}

}  // namespace
