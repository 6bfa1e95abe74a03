// Tests for the special functions of the shared GLSL/C++ math library (src/shared/math_special.glsl.h via
// src/shared/math.hpp): erf_inv, lgamma, digamma, trigamma, in f64 and as their f32 entry points.
//
// lgamma is compared with glibc's lgamma for x > 0 (the bound: 1 ulp, or 1 ulp of the long double lgammal where
// glibc is further off, as tests/shared/math_test.cpp does) and with lgammal for x < 0 (glibc's own lgamma_neg.c
// errs by a few ulp near the zeros; its long double lgamma_negl.c is within 2^-62 of mpmath there). erf_inv, digamma
// and trigamma have no glibc function: they are measured against long double (x87, 11 extra bits) oracles written here,
// independent of the algorithms under test (Newton on erfl/erfcl; recurrence to x >= 20 and the asymptotic series;
// reflection for x < 0). Inputs: every binary exponent (both signs), random bit patterns, uniform samples over each
// reduction range, a few ulps around every switch point of the algorithms, the poles, the roots and the special values.
// The largest error seen is printed per function ("[ nxv_math ]" lines); the bounds asserted are those stated in
// shared/math_special.glsl.h.
#include <gtest/gtest.h>

#include <bit>
#include <cfloat>
#include <cinttypes>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "shared/math.hpp"
#include "support/lgamma_zeros.hpp"

namespace {

namespace nm = nxv::math;
using nxv::testing::ld_lgamma_zero;

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr long double kPiL = 3.141592653589793238462643383279502884L;
constexpr int N = 300000;  // random inputs per function and generator

// ------------------------------ oracles (long double) ------------------------------
// erf_inv: Newton on erfl (|x| < 1/2) or on erfcl with 1 - |x| exact (beyond, where erfl(y) - x would lose the
// digits that 1 - x keeps), from our value.
long double ld_erf_inv(double x, double start) {
  const long double ax = std::fabs((long double)x);
  long double y = std::fabs((long double)start);
  for (int i = 0; i < 6; i++) {
    const long double f = ax < 0.5L ? std::erf(y) - ax : (1.0L - ax) - std::erfc(y);
    y -= f / (2.0L / std::sqrt(kPiL) * std::exp(-y * y));
  }
  return x < 0 ? -y : y;
}

// digamma near its positive root x0: its Taylor series there (coefficients psi^(k)(x0)/k!, mpmath, 25 digits),
// where the recurrence below cancels; the test DigammaOraclesAgree checks the two against each other.
// x0 = 1.461632144968362341262659542325721328... as three doubles, so that x - x0 is exact to ~2^-150
const double kX0[3] = {1.4616321449683622, 9.549995429965697e-17, 2.89392992820415e-33};
const long double kRootCoef[] = {
    0.9676722454476211704274448L,        -0.4427631689835921060928653L,      0.2584997609556510106244014L,
    -0.1639427054424065275042513L,       0.1078240506912623657571829L,       -0.07219956125645471092612178L,
    0.04880428816414310722509253L,       -0.0331611264748473592922584L,      0.02259764823221810465962483L,
    -0.01542476590494895913880032L,      0.01053879161661217538812405L,      -0.007204534386356868240970474L,
    0.004926781395729853446354266L,      -0.003369801655439328082792857L,    0.00230512632673492783693838L,
    -0.001576936771430197259270935L,     0.001078825201916296580691918L,     -0.0007380709389960051295660474L,
    0.0005049532658346020351773982L,     -0.000345468025106307699555568L,    0.000236356015640270527923696L,
    -0.0001617062209197480344935831L,    0.0001106337276874741090408716L,    -0.00007569179582195065919237709L,
    0.00005178575795222080868993268L,    -0.00003543007094765960631569882L,  0.00002424006611860131765268307L,
    -0.00001658424227185413337524254L,   0.00001134638458466384980670156L,   -0.000007762817668462094425267736L,
    0.000005311060920889863387322302L,   -0.000003633650789801045668371446L, 0.000002486022733129537948897997L,
    -0.000001700853885433260658246003L,  0.000001163667536354884270291376L,  -0.0000007961425431241970400351683L,
    0.0000005446941930669445278501293L,  -0.00000037266161283438229588973L,  0.000000254962655202155425666169L,
    -0.0000001744369511772774521813057L, 0.0000001193439482983024277898384L, -8.165115189488408840841312e-8L,
    5.586299683532171444280089e-8L,      -3.82196006191749421242827e-8L,     2.614857695196186627952763e-8L,
    -1.788998486491149265145489e-8L,     1.223973140323366193907852e-8L,     -8.37401629767179054290382e-9L,
    5.729222859849993771600845e-9L,      -3.91974333594233207776871e-9L,     2.681757752408109160188791e-9L,
    -1.83476927600296821587078e-9L,      1.255287989059610142939888e-9L,     -8.588262056089889130614418e-10L,
    5.875802667349349541954478e-10L};
long double ld_digamma_root(long double x) {
  const long double t = ((x - kX0[0]) - kX0[1]) - kX0[2];
  long double acc = 0;
  for (int k = int(std::size(kRootCoef)) - 1; k >= 0; k--) acc = acc * t + kRootCoef[k];
  return acc * t;
}
// x > 0: digamma(x) = digamma(x + n) - sum 1/(x + k), then log z - 1/(2z) - sum B_2k / (2k z^2k) at z >= 20.
long double ld_digamma_rec(long double x) {
  long double acc = 0;
  while (x < 20) acc -= 1 / x, x += 1;
  const long double b[] = {1.0L / 12,       -1.0L / 120, 1.0L / 252,      -1.0L / 240,      1.0L / 132,
                           -691.0L / 32760, 1.0L / 12,   -3617.0L / 8160, 43867.0L / 14364, -174611.0L / 6600};
  const long double z2 = 1 / (x * x);
  long double s = 0;
  for (int k = int(std::size(b)) - 1; k >= 0; k--) s = s * z2 + b[k];
  return acc + std::log(x) - 0.5L / x - s * z2;
}
long double ld_digamma(long double x) {
  if (x > 0) return std::fabs(x - kX0[0]) < 0.25L ? ld_digamma_root(x) : ld_digamma_rec(x);
  const long double r = x - std::nearbyint(x);
  return ld_digamma(1 - x) - kPiL * std::cos(kPiL * r) / std::sin(kPiL * r);
}
// trigamma: x > 0 by the recurrence (all terms positive) and 1/z + 1/(2z^2) + sum B_2k / z^(2k+1) at z >= 20;
// x < 0 by the reflection pi^2 / sin^2(pi x) - trigamma(1 - x).
long double ld_trigamma(long double x) {
  if (x < 0) {
    const long double s = std::sin(kPiL * (x - std::nearbyint(x)));
    return kPiL * kPiL / (s * s) - ld_trigamma(1 - x);
  }
  long double acc = 0;
  while (x < 20) acc += 1 / (x * x), x += 1;
  const long double b[] = {1.0L / 6,       -1.0L / 30, 1.0L / 42,      -1.0L / 30,     5.0L / 66,
                           -691.0L / 2730, 7.0L / 6,   -3617.0L / 510, 43867.0L / 798, -174611.0L / 330};
  const long double z2 = 1 / (x * x);
  long double s = 0;
  for (int k = int(std::size(b)) - 1; k >= 0; k--) s = s * z2 + b[k];
  return acc + 1 / x + z2 / 2 + s * z2 / x;
}

// ------------------------------ error measures ------------------------------
// |got - ref| in ulps of T at the magnitude `scale` (the reference itself, or for a cancelling reflection the
// larger of its terms)
template <class T>
double ulps_at(T got, long double ref, long double scale) {
  int e;
  std::frexp(scale == 0 ? (long double)std::numeric_limits<T>::min() : std::fabs(scale), &e);
  const long double ulp =
      std::ldexp(1.0L, std::max(e, std::numeric_limits<T>::min_exponent) - std::numeric_limits<T>::digits);
  return double(std::fabs((long double)got - ref) / ulp);
}
int64_t ordered(double x) {
  const int64_t i = std::bit_cast<int64_t>(x);
  return i < 0 ? std::numeric_limits<int64_t>::min() - i : i;
}
uint64_t ulp_dist(double a, double b) {
  const int64_t ia = ordered(a), ib = ordered(b);
  return ia > ib ? uint64_t(ia) - uint64_t(ib) : uint64_t(ib) - uint64_t(ia);
}
bool same_bits(double a, double b) { return std::bit_cast<uint64_t>(a) == std::bit_cast<uint64_t>(b); }

// The largest error of one function over a set of inputs, with the input where it occurred.
struct Worst {
  const char* name;
  double max = 0;
  double at = 0;
  uint64_t n = 0;
  void add(double err, double x) {
    n++;
    if (err > max || std::isnan(err)) max = std::isnan(err) ? 1e9 : err, at = x;
  }
  void print() const {
    std::printf("[ nxv_math ] %-28s n=%8" PRIu64 "  max err %.3f ulp at %.17g\n", name, n, max, at);
    std::fflush(stdout);
  }
};

// ------------------------------ inputs ------------------------------
struct Gen {
  std::mt19937_64 rng;
  explicit Gen(uint64_t seed) : rng(seed) {}
  double any() { return std::bit_cast<double>(rng()); }
  double uni(double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(rng); }
  double logu(int emin, int emax) {
    const int e = std::uniform_int_distribution<int>(emin, emax)(rng);
    return std::ldexp(std::uniform_real_distribution<double>(1.0, 2.0)(rng), e);
  }
};
// every binary exponent, both signs, `per` values each (subnormals rounded to their grid)
void add_every_exponent(std::vector<double>& v, Gen& g, int per = 6) {
  for (int e = -1074; e <= 1023; e++)
    for (int k = 0; k < per; k++) v.push_back(std::ldexp(g.uni(1.0, 2.0), e) * (k % 2 ? -1 : 1));
}
// c and the `ulps` doubles on each side of it
void add_around(std::vector<double>& v, double c, int ulps = 6) {
  double lo = c, hi = c;
  v.push_back(c);
  for (int i = 0; i < ulps; i++)
    v.push_back(lo = std::nextafter(lo, -kInf)), v.push_back(hi = std::nextafter(hi, kInf));
}
std::vector<double> specials() {
  return {0.0,       -0.0,       kInf,    -kInf,    kNaN,    -kNaN,    std::bit_cast<double>(0x7ff0000000000001ULL),
          0x1p-1074, -0x1p-1074, DBL_MIN, -DBL_MIN, DBL_MAX, -DBL_MAX, 1.0,
          -1.0,      0.5,        -0.5,    2.0,      -2.0,    3.0,      -3.0,
          1e300,     -1e300};
}

// f32: float(f64 function of the widened input), against the oracle at the same point rounded once.
template <class Oracle>
void check_f32(const char* name, float (*mine)(float), Oracle oracle, const std::vector<float>& xs, double bound) {
  Worst w{name};
  for (float x : xs) {
    const float got = mine(x);
    const long double ref = oracle(double(x));
    if (std::isnan(ref) || std::isinf(float(ref))) {
      EXPECT_TRUE(std::isnan(ref) ? std::isnan(got) : got == float(ref)) << name << "(" << x << ") = " << got;
      continue;
    }
    w.add(ulps_at<float>(got, ref, ref), x);
  }
  w.print();
  EXPECT_LE(w.max, bound) << name << " at " << w.at;
}
std::vector<float> f32_inputs(uint64_t seed, float lo, float hi) {
  std::mt19937_64 rng(seed);
  std::vector<float> v;
  for (int e = -149; e <= 127; e++)
    for (int k = 0; k < 4; k++) v.push_back(std::ldexp(1.0f + float(k) / 4.0f, e) * (k % 2 ? -1.0f : 1.0f));
  for (int i = 0; i < N; i++) {
    v.push_back(std::bit_cast<float>(uint32_t(rng())));
    v.push_back(std::uniform_real_distribution<float>(lo, hi)(rng));
  }
  return v;
}

// ------------------------------ erf_inv ------------------------------
TEST(NxvMathSpecial, ErfInv) {
  Gen g(11);
  std::vector<double> xs = specials();
  add_every_exponent(xs, g);
  // the switch points: the tiny-argument series, the guess's two branches (w = 5), the residual's three forms
  for (double c : {0x1p-28, 0.5, std::erf(0.84375), std::erf(1.25), std::sqrt(1 - std::exp(-5.0)), 1.0})
    add_around(xs, c), add_around(xs, -c);
  for (int i = 0; i < N; i++) {
    xs.push_back(g.uni(-1, 1));
    xs.push_back(1 - g.logu(-53, -1));
    xs.push_back(g.logu(-1074, -1) * (i % 2 ? -1 : 1));
    xs.push_back(g.any());
  }
  Worst w{"erf_inv f64 vs long double"};
  for (double x : xs) {
    const double got = nm::nxv_erf_inv(x);
    if (std::isnan(x) || std::fabs(x) > 1) {
      EXPECT_TRUE(std::isnan(got)) << "erf_inv(" << x << ") = " << got;
    } else if (std::fabs(x) == 1) {
      EXPECT_EQ(got, std::copysign(kInf, x));
    } else if (x == 0) {
      EXPECT_TRUE(same_bits(got, x)) << "erf_inv(-0) keeps the sign";
    } else {
      const long double ref = ld_erf_inv(x, got);
      w.add(ulps_at<double>(got, ref, ref), x);
    }
  }
  w.print();
  EXPECT_LE(w.max, 1.0) << "erf_inv at " << w.at;
  check_f32(
      "erf_inv f32 vs long double", nm::nxv_erf_invf,
      [](double x) -> long double {
        if (std::isnan(x) || std::fabs(x) > 1) return kNaN;
        if (std::fabs(x) == 1 || x == 0) return std::copysign(std::fabs(x) == 1 ? kInf : 0.0, x);
        return ld_erf_inv(x, nm::nxv_erf_inv(x));
      },
      f32_inputs(12, -1.0f, 1.0f), 1.0);
}

// ------------------------------ lgamma ------------------------------
TEST(NxvMathSpecial, LgammaZeroOracle) {
  // the bisection's zeros against mpmath's (60 digits) at both ends of the range the tests sweep
  EXPECT_NEAR(double(ld_lgamma_zero(0)), -2.457024738220800623, 1e-17);
  EXPECT_NEAR(double(ld_lgamma_zero(1)), -2.747682646727412601, 1e-17);
  EXPECT_NEAR(double(ld_lgamma_zero(29)), -16.99999999999999718854, 1e-15);  // not -17
  EXPECT_EQ(double(ld_lgamma_zero(50)), -27.0);                              // 1/27! from the pole: not a double
}

TEST(NxvMathSpecial, Lgamma) {
  Gen g(21);
  std::vector<double> xs = specials();
  add_every_exponent(xs, g);
  for (double c : {0x1p-60, 0.5, 1.0, 1.5, 2.0, 2.5, 8.0, 0x1p52, 0x1p58}) add_around(xs, c), add_around(xs, -c);
  for (int k = 1; k <= 40; k++) add_around(xs, -double(k) + 0.5), add_around(xs, -double(k), 3);
  for (int i = 0; i < N; i++) {
    xs.push_back(g.uni(0, 10));
    xs.push_back(g.logu(-80, 1023));
    xs.push_back(g.uni(-30, 0));
    xs.push_back(g.uni(-28, -2));
    xs.push_back(-g.logu(-80, 60));
    xs.push_back(g.any());
  }
  // the zeros in (-28, -2): the 64 doubles on each side of each, and distances 2^-k |x0| for every k up to 60
  for (int i = 0; i < 52; i++) {
    const double x0 = double(ld_lgamma_zero(i));
    add_around(xs, x0, 64);
    for (int k = 1; k <= 60; k++)
      xs.push_back(x0 * (1 + std::ldexp(1.0, -k))), xs.push_back(x0 * (1 - std::ldexp(1.0, -k)));
  }
  Worst vs_glibc{"lgamma f64 vs glibc (x > 0)"};
  Worst pos{"lgamma f64 vs long double (x > 0)"};
  Worst zeros{"lgamma f64 vs long double (-17.5 < x < -2)"};
  Worst neg{"lgamma f64 vs long double (other x < 0)"};
  uint64_t glibc_off = 0;
  for (double x : xs) {
    const double got = nm::nxv_lgamma(x);
    const double ref = std::lgamma(x);
    if (std::isnan(ref) || std::isinf(ref)) {
      EXPECT_TRUE(std::isnan(ref) ? std::isnan(got) : same_bits(got, ref)) << "lgamma(" << x << ") = " << got;
      continue;
    }
    const long double truth = std::lgamma((long double)x);
    if (x > 0) {
      const uint64_t d = ulp_dist(got, ref);
      // beyond 1 ulp of glibc only where glibc is itself further off: ours is then within 1 ulp of lgammal
      if (d > 1 && ulps_at<double>(got, truth, truth) <= 1.0)
        glibc_off++;
      else
        vs_glibc.add(double(d), x);
      pos.add(ulps_at<double>(got, truth, truth), x);
    } else {
      // relative, as for x > 0 (in (-17.5, -2) the path relative to the zeros)
      (x > -17.5 && x < -2 ? zeros : neg).add(ulps_at<double>(got, truth, truth), x);
    }
  }
  vs_glibc.print(), pos.print(), zeros.print(), neg.print();
  std::printf("[ nxv_math ] lgamma: %" PRIu64 " points > 1 ulp from glibc where glibc is off lgammal\n", glibc_off);
  EXPECT_LE(vs_glibc.max, 1.0) << "lgamma at " << vs_glibc.at;
  EXPECT_LE(pos.max, 1.0) << "lgamma at " << pos.at;
  EXPECT_LE(zeros.max, 1.0) << "lgamma at " << zeros.at;
  EXPECT_LE(neg.max, 1.0) << "lgamma at " << neg.at;
  EXPECT_EQ(nm::nxv_lgamma(1.0), 0.0);
  EXPECT_EQ(nm::nxv_lgamma(2.0), 0.0);
  EXPECT_EQ(nm::nxv_lgamma(0.0), kInf);
  EXPECT_EQ(nm::nxv_lgamma(-0.0), kInf);
  EXPECT_EQ(nm::nxv_lgamma(-3.0), kInf);
  EXPECT_EQ(nm::nxv_lgamma(-0x1p60), kInf);
  EXPECT_EQ(nm::nxv_lgamma(kInf), kInf);
  EXPECT_EQ(nm::nxv_lgamma(-kInf), kInf);
  EXPECT_EQ(nm::nxv_lgamma(DBL_MAX), kInf);
  EXPECT_TRUE(std::isnan(nm::nxv_lgamma(kNaN)));
  check_f32(
      "lgamma f32 vs long double", nm::nxv_lgammaf,
      [](double x) -> long double {
        if (x <= 0 && std::floor(x) == x) return kInf;
        return std::lgamma((long double)x);
      },
      f32_inputs(22, -40.0f, 40.0f), 1.0);
}

// ------------------------------ digamma ------------------------------
TEST(NxvMathSpecial, DigammaOraclesAgree) {
  // the root series and the recurrence, where both are accurate (the recurrence cancels within 0.1 of x0)
  for (long double x = kX0[0] - 0.25L; x <= kX0[0] + 0.25L; x += 0.001L) {
    if (std::fabs(x - kX0[0]) < 0.12L) continue;
    const long double a = ld_digamma_root(x), b = ld_digamma_rec(x);
    EXPECT_LE(std::fabs(a - b), std::fabs(a) * 0x1p-56L) << "at " << double(x);
  }
}

TEST(NxvMathSpecial, Digamma) {
  Gen g(31);
  std::vector<double> xs = specials();
  add_every_exponent(xs, g);
  for (double c : {0x1p-896, 1.0, 2.0, 10.0, 0x1p52, kX0[0]}) add_around(xs, c), add_around(xs, -c);
  for (int k = 1; k <= 40; k++) add_around(xs, -double(k) + 0.5), add_around(xs, -double(k), 3);
  for (int i = 0; i < N; i++) {
    xs.push_back(g.uni(0, 12));
    xs.push_back(g.logu(-1074, 1023));
    xs.push_back(g.uni(-40, 0));
    xs.push_back(-g.logu(-60, 60));
    xs.push_back(g.any());
  }
  Worst pos{"digamma f64 vs long double (x > 0)"};
  Worst neg{"digamma f64 vs long double (x < 0, abs)"};
  for (double x : xs) {
    const double got = nm::nxv_digamma(x);
    if (std::isnan(x) || (x <= 0 && std::floor(x) == x)) {
      EXPECT_TRUE(std::isnan(got)) << "digamma(" << x << ") = " << got;
    } else if (x == kInf) {
      EXPECT_EQ(got, kInf);
    } else if (std::isinf(double(ld_digamma(x)))) {
      EXPECT_EQ(got, double(ld_digamma(x))) << "digamma(" << x << ") overflows";  // -1/x for tiny x
    } else if (x > 0) {
      const long double ref = ld_digamma(x);
      pos.add(ulps_at<double>(got, ref, ref), x);
    } else {
      // the reflection digamma(1 - x) - pi cot(pi x) cancels near the negative roots: measured at its larger term
      const long double a = ld_digamma(1 - (long double)x);
      const long double r = x - std::nearbyint((long double)x);
      const long double c = kPiL * std::cos(kPiL * r) / std::sin(kPiL * r);
      neg.add(ulps_at<double>(got, a - c, std::max(std::fabs(a), std::fabs(c))), x);
    }
  }
  pos.print(), neg.print();
  EXPECT_LE(pos.max, 1.0) << "digamma at " << pos.at;
  EXPECT_LE(neg.max, 2.0) << "digamma at " << neg.at;
  EXPECT_TRUE(std::isnan(nm::nxv_digamma(0.0)));
  EXPECT_TRUE(std::isnan(nm::nxv_digamma(-0.0)));
  EXPECT_TRUE(std::isnan(nm::nxv_digamma(-kInf)));
  EXPECT_EQ(nm::nxv_digamma(kInf), kInf);
  EXPECT_EQ(nm::nxv_digamma(0x1p-1074), -kInf);  // -1/x overflows
  EXPECT_LT(std::fabs(nm::nxv_digamma(kX0[0])), 1e-16);
  check_f32(
      "digamma f32 vs long double", nm::nxv_digammaf,
      [](double x) -> long double {
        if (std::isnan(x) || (x <= 0 && std::floor(x) == x)) return kNaN;
        if (x == kInf) return kInf;
        const long double v = ld_digamma(x);
        return std::isinf(float(v)) ? v : v;
      },
      f32_inputs(32, 0.0f, 40.0f), 1.0);
}

// ------------------------------ trigamma ------------------------------
TEST(NxvMathSpecial, Trigamma) {
  Gen g(41);
  std::vector<double> xs = specials();
  add_every_exponent(xs, g);
  for (double c : {0x1p-512, 0x1p-500, 1.0, 10.0, 0x1p900}) add_around(xs, c), add_around(xs, -c);
  for (int k = 1; k <= 40; k++) add_around(xs, -double(k) + 0.5), add_around(xs, -double(k), 3);
  for (int i = 0; i < N; i++) {
    xs.push_back(g.uni(0, 12));
    xs.push_back(g.logu(-1074, 1023));
    xs.push_back(g.uni(-40, 0));
    xs.push_back(-g.logu(-60, 60));
    xs.push_back(g.any());
  }
  Worst pos{"trigamma f64 vs long double (x > 0)"};
  Worst neg{"trigamma f64 vs long double (x < 0)"};
  for (double x : xs) {
    const double got = nm::nxv_trigamma(x);
    if (std::isnan(x) || x == -kInf) {
      EXPECT_TRUE(std::isnan(got)) << "trigamma(" << x << ") = " << got;
    } else if (x <= 0 && std::floor(x) == x) {
      EXPECT_EQ(got, kInf) << "trigamma(" << x << ")";
    } else if (x == kInf) {
      EXPECT_TRUE(same_bits(got, 0.0));
    } else {
      const long double ref = ld_trigamma(x);
      if (std::isinf(double(ref))) {
        EXPECT_EQ(got, kInf) << "trigamma(" << x << ")";
        continue;
      }
      (x > 0 ? pos : neg).add(ulps_at<double>(got, ref, ref), x);
    }
  }
  pos.print(), neg.print();
  EXPECT_LE(pos.max, 1.0) << "trigamma at " << pos.at;
  EXPECT_LE(neg.max, 1.0) << "trigamma at " << neg.at;
  EXPECT_EQ(nm::nxv_trigamma(0.0), kInf);
  EXPECT_EQ(nm::nxv_trigamma(-0.0), kInf);
  EXPECT_EQ(nm::nxv_trigamma(-2.0), kInf);
  EXPECT_TRUE(std::isnan(nm::nxv_trigamma(-kInf)));
  EXPECT_TRUE(same_bits(nm::nxv_trigamma(kInf), 0.0));
  EXPECT_EQ(nm::nxv_trigamma(0x1p-513), kInf);
  check_f32(
      "trigamma f32 vs long double", nm::nxv_trigammaf,
      [](double x) -> long double {
        if (std::isnan(x) || x == -kInf) return kNaN;
        if (x <= 0 && std::floor(x) == x) return kInf;
        if (x == kInf) return 0.0L;
        return ld_trigamma(x);
      },
      f32_inputs(42, -40.0f, 40.0f), 1.0);
}

}  // namespace
