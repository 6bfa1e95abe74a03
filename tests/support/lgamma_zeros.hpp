// The zeros of lgamma below -2, found from the long double lgammal (glibc's lgamma_negl.c stays relatively exact
// near them: within 2^-62 of mpmath at the doubles nearest each zero), for the tests that check lgamma's relative
// error there (tests/shared/math_special_test.cpp on the CPU, tests/vulkan/kernels/math_ulp_test.cpp on the device).
#pragma once
#include <cmath>

namespace nxv::testing {

// The zero in [-(i+5)/2, -(i+4)/2), i >= 0 (one per half-integer interval; from -17 down it lies within 1/17! of
// the pole): bisection between the pole, where lgammal is +inf, and the half-integer, where it is negative.
inline long double ld_lgamma_zero(int i) {
  const long double mid_interval = -(i + 4) / 2.0L - 0.25L;
  long double pole = std::nearbyint(mid_interval), far = i % 2 ? mid_interval + 0.25L : mid_interval - 0.25L;
  for (int k = 0; k < 200; k++) {
    const long double mid = (pole + far) / 2;
    (std::lgamma(mid) > 0 ? pole : far) = mid;
  }
  return far;
}

}  // namespace nxv::testing
