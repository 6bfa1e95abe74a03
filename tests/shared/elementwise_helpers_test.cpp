// The elementwise helpers of shared/elementwise_helpers.glsl.h that compute in f32 where the f64 algorithm would
// give the same bits (so that a device without f64 runs them natively): f32 round against
// float(nxv_round_half_away(double(x))), on every 97th bit pattern and around every power of two and half-integer;
// f32 remainder against float(nxv_fmod(double(a), double(b))) on random pairs of every exponent and the specials.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <random>
#include <utility>
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

TEST(ElementwiseHelpers, F32RemainderFromTheBitsEqualsTheF64Algorithm) {
  std::mt19937 bits(31);
  std::vector<std::pair<float, float>> pairs;
  for (int i = 0; i < (1 << 21); ++i)
    pairs.emplace_back(std::bit_cast<float>(static_cast<std::uint32_t>(bits())),
                       std::bit_cast<float>(static_cast<std::uint32_t>(bits())));
  for (int i = 0; i < (1 << 18); ++i) {  // exponents within 30 of each other, and denormals
    const auto e = static_cast<std::uint32_t>(bits() % 220);
    pairs.emplace_back(
        std::bit_cast<float>(static_cast<std::uint32_t>(((e + bits() % 30) << 23) | (bits() & 0x807fffffu))),
        std::bit_cast<float>(static_cast<std::uint32_t>((e << 23) | (bits() & 0x807fffffu))));
  }
  for (const float a :
       {0.0f, -0.0f, INFINITY, -INFINITY, NAN, 1.0f, -1.0f, 1e-45f, 1.17549435e-38f, 3.4028235e38f, 7.5f})
    for (const float b : {0.0f, -0.0f, INFINITY, NAN, -3.0f, 1e-45f, 3.4028235e38f, 0.5f, 2.5f, -7.5f})
      pairs.emplace_back(a, b);
  int mismatches = 0;
  for (const auto& [a, b] : pairs) {
    const float got = nxv::math::nxv_remainder(a, b);
    const float want = static_cast<float>(nxv::math::nxv_fmod(static_cast<double>(a), static_cast<double>(b)));
    const bool same =
        std::isnan(want) ? std::isnan(got) : std::bit_cast<std::uint32_t>(got) == std::bit_cast<std::uint32_t>(want);
    if (!same && ++mismatches <= 10) ADD_FAILURE() << a << " % " << b << ": " << got << ", through f64 " << want;
  }
  EXPECT_EQ(mismatches, 0) << "of " << pairs.size();
}

}  // namespace
