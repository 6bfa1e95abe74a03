// The f32 sigmoid, softplus and log_sigmoid of shared/math.glsl.h, which evaluate in double algorithms made for a
// float result (good to 2^-46 relative) instead of the f64 functions: each float result must be the correctly
// rounded long double value, except where that value lies within 2^-20 ulp of a tie between two floats (there the
// neighbour is allowed, and nothing else). The GPU's side (the same bits) is the parity suites' job.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "shared/math.hpp"

namespace nm = nxv::math;

namespace {

long double sigmoid_ld(long double x) { return 1.0L / (1.0L + std::exp(-x)); }
long double softplus_ld(long double x) { return (x > 0 ? x : 0.0L) + std::log1p(std::exp(-std::fabs(x))); }
long double log_sigmoid_ld(long double x) { return -softplus_ld(-x); }

// Distance of t from the nearest midpoint between two adjacent floats, in ulps of the float it rounds to.
long double distance_to_tie_in_ulps(long double t) {
  const float r = static_cast<float>(t);
  const float up = std::nextafter(r, std::numeric_limits<float>::infinity());
  const float down = std::nextafter(r, -std::numeric_limits<float>::infinity());
  const long double ulp = static_cast<long double>(up) - static_cast<long double>(r);
  const long double mid_up = (static_cast<long double>(r) + static_cast<long double>(up)) / 2;
  const long double mid_down = (static_cast<long double>(r) + static_cast<long double>(down)) / 2;
  return std::min(std::fabs(t - mid_up), std::fabs(t - mid_down)) / ulp;
}

std::vector<float> inputs() {
  using limits = std::numeric_limits<float>;
  std::vector<float> xs = {limits::denorm_min(), limits::min(), limits::max(), -limits::max()};
  for (float x : {0.0f,   -0.0f,  1.0f,    -1.0f,  0.5f,    17.0f,  -17.0f,  39.99f, 40.0f,   40.01f, -40.0f, 87.3f,
                  -87.3f, 103.9f, -103.9f, 104.0f, -104.0f, 104.1f, -104.1f, 1e-30f, -1e-30f, 1e-40f, -1e-40f})
    xs.push_back(x);
  // Geometric steps of 2^-12 from 1e-30 to 120, both signs, then random ones over the ranges that matter.
  for (float x = 1e-30f; x < 120.0f; x *= 1.0002441f) {
    xs.push_back(x);
    xs.push_back(-x);
  }
  std::mt19937_64 rng(42);
  std::uniform_real_distribution<float> wide(-110.0f, 110.0f);
  std::uniform_real_distribution<float> narrow(-2.0f, 2.0f);
  for (int i = 0; i < 400000; ++i) {
    xs.push_back(wide(rng));
    xs.push_back(narrow(rng));
  }
  return xs;
}

void expect_correctly_rounded_but_near_ties(const char* name, float (*mine)(float), long double (*truth)(long double)) {
  int off_by_one = 0, checked = 0;
  for (const float x : inputs()) {
    const long double t = truth(x);
    const float want = static_cast<float>(t);
    const float got = mine(x);
    ++checked;
    if (std::bit_cast<std::uint32_t>(got) == std::bit_cast<std::uint32_t>(want)) continue;
    if (std::nextafter(want, got) == got && distance_to_tie_in_ulps(t) < 0x1p-20L) {
      ++off_by_one;
      continue;
    }
    ADD_FAILURE() << name << "(" << x << ") = " << got << ", the correctly rounded value is " << want;
    return;
  }
  std::printf("[ nxv_math ] %s f32: %d inputs, %d off by one ulp next to a tie\n", name, checked, off_by_one);
}

}  // namespace

TEST(NxvMathLogisticF32, CorrectlyRoundedButWithinTwoToTheMinus20UlpOfATie) {
  expect_correctly_rounded_but_near_ties("sigmoid", nm::nxv_sigmoidf, sigmoid_ld);
  expect_correctly_rounded_but_near_ties("softplus", nm::nxv_softplusf, softplus_ld);
  expect_correctly_rounded_but_near_ties("log_sigmoid", nm::nxv_log_sigmoidf, log_sigmoid_ld);
}

TEST(NxvMathLogisticF32, SpecialValues) {
  const float inf = std::numeric_limits<float>::infinity();
  EXPECT_EQ(nm::nxv_sigmoidf(inf), 1.0f);
  EXPECT_EQ(std::bit_cast<std::uint32_t>(nm::nxv_sigmoidf(-inf)), 0u);  // +0
  EXPECT_EQ(nm::nxv_sigmoidf(0.0f), 0.5f);
  EXPECT_EQ(nm::nxv_sigmoidf(-0.0f), 0.5f);
  EXPECT_EQ(nm::nxv_softplusf(inf), inf);
  EXPECT_EQ(std::bit_cast<std::uint32_t>(nm::nxv_softplusf(-inf)), 0u);
  EXPECT_EQ(nm::nxv_softplusf(1e30f), 1e30f);
  EXPECT_EQ(nm::nxv_softplusf(0.0f), static_cast<float>(std::log(2.0L)));
  EXPECT_EQ(nm::nxv_log_sigmoidf(-inf), -inf);
  EXPECT_EQ(std::bit_cast<std::uint32_t>(nm::nxv_log_sigmoidf(inf)), 0x80000000u);  // -0
  // NaN in, the same NaN quieted out, its sign kept (as the f64 functions do).
  const float negative_nan = std::bit_cast<float>(0xff800001u);
  for (float (*f)(float) : {nm::nxv_sigmoidf, nm::nxv_softplusf, nm::nxv_log_sigmoidf}) {
    EXPECT_EQ(std::bit_cast<std::uint32_t>(f(negative_nan)) & 0x80000000u, 0x80000000u);
    EXPECT_TRUE(std::isnan(f(negative_nan)));
    EXPECT_TRUE(std::isnan(f(std::numeric_limits<float>::quiet_NaN())));
  }
}
