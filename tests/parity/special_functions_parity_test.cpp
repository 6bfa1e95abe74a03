// Parity of erf_inv, lgamma, digamma and trigamma (src/shared/math_special.glsl.h, math_polygamma.glsl.h) over
// every binary exponent, both signs, the switch points of their algorithms, the neighbourhoods of the poles and
// of lgamma's negative zeros:
// Vulkan = reference bit for bit, so the ULP bounds measured on the CPU (tests/shared/math_special_test.cpp) hold
// on the device too. ElementwiseParity covers their dtypes, shapes and special values.
#include <cmath>
#include <limits>
#include <vector>

#include "support/lgamma_zeros.hpp"
#include "support/parity.hpp"

namespace nxv::testing {
namespace {

// c and `ulps` neighbours on each side
void add_around(std::vector<double>& v, double c, int ulps = 3) {
  double lo = c, hi = c;
  v.push_back(c);
  for (int i = 0; i < ulps; ++i) {
    lo = std::nextafter(lo, -std::numeric_limits<double>::infinity());
    hi = std::nextafter(hi, std::numeric_limits<double>::infinity());
    v.push_back(lo);
    v.push_back(hi);
  }
}

std::vector<double> inputs() {
  std::vector<double> v;
  for (int e = -1074; e <= 1023; ++e)
    for (double m : {1.0, 1.2345678901234567, 1.9999999999999998})
      v.push_back(std::ldexp(m, e)), v.push_back(-std::ldexp(m, e));
  for (double c : {0x1p-896, 0x1p-512, 0x1p-500, 0x1p-60, 0x1p-28, 0.5, 1.0, 1.4616321449683622, 1.5, 2.0, 2.5, 8.0,
                   10.0, 0x1p52, 0x1p58, 0x1p900, std::erf(0.84375), std::erf(1.25)})
    add_around(v, c), add_around(v, -c);
  for (int k = 1; k <= 53; ++k) v.push_back(1 - std::ldexp(1.0, -k)), v.push_back(std::ldexp(1.0, -k) - 1);
  for (int k = 1; k <= 40; ++k) add_around(v, -k), add_around(v, 0.5 - k);
  for (int i = 0; i < 31; ++i) add_around(v, static_cast<double>(ld_lgamma_zero(i)));  // lgamma's path near them
  return v;
}

TEST(SpecialFunctionParity, EveryExponentAndSwitchPoint) {
  NXV_REQUIRE_VULKAN();
  const std::vector<double> xs = inputs();
  const Tensor x64 =
      from_data<double>(std::span<const double>(xs), Shape{static_cast<std::int64_t>(xs.size())}, reference_backend());
  for (const Tensor& x : {x64, as_type(x64, DType::f32)}) {
    const std::string t(name(x.dtype()));
    expect_parity("erf_inv:" + t, [](auto& in) { return erf_inv(in[0]); }, {x});
    expect_parity("lgamma:" + t, [](auto& in) { return lgamma(in[0]); }, {x});
    expect_parity("digamma:" + t, [](auto& in) { return digamma(in[0]); }, {x});
    expect_parity("trigamma:" + t, [](auto& in) { return trigamma(in[0]); }, {x});
  }
}

}  // namespace
}  // namespace nxv::testing
