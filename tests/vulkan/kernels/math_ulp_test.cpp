// ULP bounds of the transcendental elementwise ops measured on the Vulkan device itself (tests/shared/math_test.cpp
// measures the shared math library on the CPU; the parity suites show both backends compute the same bits on their
// inputs). Each op runs once per dtype over every binary exponent (a few mantissas each, both signs) and the special
// values; every result is compared with glibc (f64) or with the correctly rounded long double result (f32).
//
// Bounds: f64 within `f64_ulp` of glibc, except at points where glibc itself is more than that off the long double
// result and ours is not (counted as "libm-off", as math_test does); f32 within 1 ulp of the long double result rounded
// to float (the f64 algorithm rounded once: at most the f64 error plus the final rounding). A line per op and dtype
// prints the maxima seen: `[ nxv_math_gpu ] exp f64 max 1 ulp vs glibc (libm-off 0)`. lgamma is also checked
// densely around its zeros below -2, against lgammal (relative, 1 ulp), where few of the sweep's inputs fall.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <random>
#include <vector>

#include "nxv/ops.hpp"
#include "support/lgamma_zeros.hpp"
#include "support/parity.hpp"

namespace nxv {
namespace {

using LongFn = long double (*)(long double);
using DoubleFn = double (*)(double);

long double sigmoid_ld(long double x) { return 1.0L / (1.0L + std::exp(-x)); }
long double softplus_ld(long double x) { return x > 40 ? x + std::log1p(std::exp(-x)) : std::log1p(std::exp(x)); }
long double log_sigmoid_ld(long double x) { return -softplus_ld(-x); }
long double rsqrt_ld(long double x) { return 1.0L / std::sqrt(x); }
double sigmoid_d(double x) { return static_cast<double>(sigmoid_ld(x)); }
double softplus_d(double x) { return static_cast<double>(softplus_ld(x)); }
double log_sigmoid_d(double x) { return static_cast<double>(log_sigmoid_ld(x)); }
double rsqrt_d(double x) { return static_cast<double>(rsqrt_ld(x)); }

struct Row {
  const char* name;
  Tensor (*op)(const Tensor&);
  DoubleFn libm;  // glibc, or the long double formula rounded where glibc has no such function
  LongFn ld;      // the long double reference (x87 libm, 11 more bits)
  int f64_ulp;    // tests/shared/math_test.cpp's (math_special_test.cpp's) bound
};

// The FLOAT-class unary ops of shared/elementwise.def that glibc (or a long double formula) can check.
const Row kRows[] = {
    {"exp", exp, ::exp, ::expl, 1},
    {"expm1", expm1, ::expm1, ::expm1l, 1},
    {"log", log, ::log, ::logl, 1},
    {"log1p", log1p, ::log1p, ::log1pl, 1},
    {"sqrt", sqrt, ::sqrt, ::sqrtl, 0},
    {"rsqrt", rsqrt, rsqrt_d, rsqrt_ld, 1},
    {"sigmoid", sigmoid, sigmoid_d, sigmoid_ld, 1},
    {"tanh", tanh, ::tanh, ::tanhl, 1},
    {"sin", sin, ::sin, ::sinl, 1},
    {"cos", cos, ::cos, ::cosl, 1},
    {"erf", erf, ::erf, ::erfl, 1},
    {"softplus", softplus, softplus_d, softplus_ld, 1},
    {"tan", tan, ::tan, ::tanl, 1},
    {"sinh", sinh, ::sinh, ::sinhl, 1},
    {"cosh", cosh, ::cosh, ::coshl, 1},
    {"asinh", asinh, ::asinh, ::asinhl, 1},
    {"acosh", acosh, ::acosh, ::acoshl, 1},
    {"atanh", atanh, ::atanh, ::atanhl, 1},
    {"cbrt", cbrt, ::cbrt, ::cbrtl, 1},
    {"asin", asin, ::asin, ::asinl, 1},
    {"acos", acos, ::acos, ::acosl, 1},
    {"atan", atan, ::atan, ::atanl, 1},
    {"erfc", erfc, ::erfc, ::erfcl, 4},
    {"log_sigmoid", log_sigmoid, log_sigmoid_d, log_sigmoid_ld, 1},
    {"lgamma", lgamma, ::lgamma, ::lgammal, 1},
};
// erf_inv, digamma and trigamma have no glibc function: tests/shared/math_special_test.cpp bounds them against its
// long double oracles, and tests/parity/special_functions_parity_test.cpp shows the device computes the same bits.

template <class T>
using Bits = std::conditional_t<sizeof(T) == 8, std::uint64_t, std::uint32_t>;

// Distance in representable values (saturating at 2^62); both finite or both the same infinity.
template <class T>
std::uint64_t ulp_distance(T a, T b) {
  const auto key = [](T v) {
    const auto u = std::bit_cast<Bits<T>>(v);
    const Bits<T> sign = Bits<T>{1} << (8 * sizeof(T) - 1);
    return (u & sign) ? static_cast<std::int64_t>(sign - (u & ~sign)) - static_cast<std::int64_t>(sign)
                      : static_cast<std::int64_t>(u);
  };
  const std::int64_t d = key(a) - key(b);
  return static_cast<std::uint64_t>(d < 0 ? -d : d);
}

// Error of `got` against the long double `ref`, in ulps of T at ref.
template <class T>
long double error_in_ulps(T got, long double ref) {
  if (std::isinf(ref) || std::isnan(ref)) return got == ref ? 0 : std::numeric_limits<long double>::infinity();
  int e = 0;
  std::frexp(ref, &e);
  const int digits = std::numeric_limits<T>::digits, min_exp = std::numeric_limits<T>::min_exponent;
  const long double ulp = std::ldexp(1.0L, std::max(e, min_exp) - digits);
  return std::fabs(static_cast<long double>(got) - ref) / ulp;
}

// Every binary exponent (denormals included unless the device flushes f32 denormals), `per` mantissas each
// (the power of two, the largest mantissa and random ones), both signs, and the special values.
template <class T>
std::vector<T> exponent_sweep(int per, bool skip_denormals) {
  using L = std::numeric_limits<T>;
  std::mt19937_64 rng(20261202);
  std::vector<T> xs{T(0),        -T(0),    L::infinity(), -L::infinity(), L::quiet_NaN(), L::max(),
                    L::lowest(), L::min(), T(1),          T(-1),          T(0.5),         T(2)};
  const int mant_bits = L::digits - 1;
  for (int e = L::min_exponent - L::digits; e < L::max_exponent; ++e) {
    if (skip_denormals && e < L::min_exponent - 1) continue;
    for (int k = 0; k < per; ++k) {
      const Bits<T> mantissa = k == 0   ? 0
                               : k == 1 ? (Bits<T>{1} << mant_bits) - 1
                                        : static_cast<Bits<T>>(rng()) & ((Bits<T>{1} << mant_bits) - 1);
      const T x = std::ldexp(T(1) + static_cast<T>(mantissa) / static_cast<T>(Bits<T>{1} << mant_bits), e);
      if (x == T(0) || std::isinf(x)) continue;
      xs.push_back(x);
      xs.push_back(-x);
    }
  }
  return xs;
}

struct Measured {
  std::uint64_t max_ulp = 0, libm_off = 0, failures = 0;
  double first_failure = 0;
};

TEST(VulkanMathUlp, TranscendentalsMeetTheirBoundsOnTheDevice) {
  NXV_REQUIRE_VULKAN();
  const bool flushes = testing::vulkan_flushes_f32_denormals();
  const std::vector<double> xs64 = exponent_sweep<double>(8, false);
  const std::vector<float> xs32 = exponent_sweep<float>(32, flushes);
  const Tensor x64 = from_data<double>(xs64, Shape{static_cast<std::int64_t>(xs64.size())}, vulkan::backend());
  const Tensor x32 = from_data<float>(xs32, Shape{static_cast<std::int64_t>(xs32.size())}, vulkan::backend());
  for (const Row& r : kRows) {
    const std::vector<double> got64 = r.op(x64).to_vector<double>();
    Measured m64;
    for (std::size_t i = 0; i < xs64.size(); ++i) {
      const double want = r.libm(xs64[i]), got = got64[i];
      bool ok;
      if (std::isnan(want) || std::isnan(got)) {
        ok = std::isnan(want) == std::isnan(got);
      } else {
        const std::uint64_t d = ulp_distance(got, want);
        ok = d <= static_cast<std::uint64_t>(r.f64_ulp);
        if (!ok && error_in_ulps(got, r.ld(xs64[i])) <= r.f64_ulp) {  // glibc is the one that is off here
          ok = true;
          ++m64.libm_off;
        } else {
          m64.max_ulp = std::max(m64.max_ulp, d);
        }
      }
      if (!ok && m64.failures++ == 0) m64.first_failure = xs64[i];
    }
    std::printf("[ nxv_math_gpu ] %-12s f64 max %llu ulp vs glibc (libm-off %llu) over %zu inputs\n", r.name,
                static_cast<unsigned long long>(m64.max_ulp), static_cast<unsigned long long>(m64.libm_off),
                xs64.size());
    EXPECT_EQ(m64.failures, 0u) << r.name << " f64: first failure at x = " << m64.first_failure;

    const std::vector<float> got32 = r.op(x32).to_vector<float>();
    Measured m32;
    for (std::size_t i = 0; i < xs32.size(); ++i) {
      const float want = static_cast<float>(r.ld(xs32[i])), got = got32[i];
      bool ok;
      if (std::isnan(want) || std::isnan(got)) {
        ok = std::isnan(want) == std::isnan(got);
      } else if (flushes && std::fpclassify(want) == FP_SUBNORMAL) {
        ok = got == 0 || std::fpclassify(got) == FP_SUBNORMAL || ulp_distance(got, want) <= 1;
      } else {
        const std::uint64_t d = ulp_distance(got, want);
        m32.max_ulp = std::max(m32.max_ulp, d);
        ok = d <= 1;
      }
      if (!ok && m32.failures++ == 0) m32.first_failure = xs32[i];
    }
    std::printf("[ nxv_math_gpu ] %-12s f32 max %llu ulp vs the long double result over %zu inputs\n", r.name,
                static_cast<unsigned long long>(m32.max_ulp), xs32.size());
    EXPECT_EQ(m32.failures, 0u) << r.name << " f32: first failure at x = " << m32.first_failure;
  }
}

// lgamma's zeros in (-28, -2) (tests/support/lgamma_zeros.hpp): the 32 doubles on each side of each, distances
// 2^-k |x0| up to k = 52, and uniform samples; f64 within 1 ulp of lgammal (its relative error: glibc's lgamma is a
// few ulp off here), f32 within 1 ulp of lgammal rounded to float, at the same inputs rounded to float.
TEST(VulkanMathUlp, LgammaIsRelativelyExactNearItsNegativeZeros) {
  NXV_REQUIRE_VULKAN();
  std::vector<double> xs;
  for (int i = 0; i < 52; ++i) {
    const double x0 = static_cast<double>(testing::ld_lgamma_zero(i));
    double lo = x0, hi = x0;
    xs.push_back(x0);
    for (int k = 0; k < 32; ++k) {
      xs.push_back(lo = std::nextafter(lo, -std::numeric_limits<double>::infinity()));
      xs.push_back(hi = std::nextafter(hi, std::numeric_limits<double>::infinity()));
    }
    for (int k = 1; k <= 52; ++k)
      xs.push_back(x0 * (1 + std::ldexp(1.0, -k))), xs.push_back(x0 * (1 - std::ldexp(1.0, -k)));
  }
  std::mt19937_64 rng(20261203);
  for (int k = 0; k < 20000; ++k) xs.push_back(std::uniform_real_distribution<double>(-28.0, -2.0)(rng));
  const Tensor x64 = from_data<double>(xs, Shape{static_cast<std::int64_t>(xs.size())}, vulkan::backend());
  const std::vector<double> got64 = lgamma(x64).to_vector<double>();
  const std::vector<float> got32 = lgamma(as_type(x64, DType::f32)).to_vector<float>();
  long double worst64 = 0, worst32 = 0;
  double at64 = 0, at32 = 0;
  for (std::size_t i = 0; i < xs.size(); ++i) {
    const float x32 = static_cast<float>(xs[i]);
    const long double e64 = error_in_ulps(got64[i], ::lgammal(xs[i]));
    const long double e32 = error_in_ulps(got32[i], ::lgammal(x32));
    if (e64 > worst64) worst64 = e64, at64 = xs[i];
    if (e32 > worst32) worst32 = e32, at32 = x32;
  }
  std::printf("[ nxv_math_gpu ] lgamma near its zeros: f64 max %.3Lf ulp, f32 max %.3Lf ulp over %zu inputs\n", worst64,
              worst32, xs.size());
  EXPECT_LE(worst64, 1.0L) << "lgamma f64 at x = " << at64;
  EXPECT_LE(worst32, 1.0L) << "lgamma f32 at x = " << at32;
}

}  // namespace
}  // namespace nxv
