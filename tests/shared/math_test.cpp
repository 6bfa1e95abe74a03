// Tests for the shared GLSL/C++ double-precision math library
// (src/shared/math.glsl.h via src/shared/math.hpp) against glibc's libm.
//
// Build (the real build adds these flags too):
//   g++ -std=c++20 -O2 -ffp-contract=off -fwrapv -I src tests/shared/math_test.cpp
//       -lgtest -lgtest_main -pthread -o math_test
//
// For every function: >= 1e6 inputs (random bit patterns over the whole
// domain, uniform/log-uniform samples in interesting ranges, points a few ulps
// around every branch switch of the algorithm) plus special values. Asserts:
//   * NaN exactly where libm gives NaN,
//   * bit-exact +-0 and +-inf where libm gives them,
//   * otherwise max |ulp distance| <= 1 (0 for fmod / round / sqrt).
// glibc itself is not correctly rounded everywhere (e.g. cos at the classic
// worst case 6381956970095103*2^797 is 8 ulp off, log1p near -0.2929 and
// tanh > 1 ulp off). Where the libm result is > 1 ulp away from ours, the
// point is accepted only if our real-valued error against the long double
// reference (x87 libm, 11 extra bits) is <= 1 ulp -- libm's own error there
// is then >= 1 ulp; such points are counted and printed ("libm-off"),
// together with libm's max error against the same reference.
// The max ulp distance seen is printed per function, and (for information)
// the max error against the long double reference.
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

namespace {

namespace nm = nxv::math;

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kPi = 3.14159265358979323846;
constexpr double kLn2 = 0.69314718055994530942;

// ------------------------------ ulp helpers ---------------------------------
int64_t ordered(double x) {
  int64_t i = std::bit_cast<int64_t>(x);
  return i < 0 ? std::numeric_limits<int64_t>::min() - i : i;
}
int32_t ordered(float x) {
  int32_t i = std::bit_cast<int32_t>(x);
  return i < 0 ? std::numeric_limits<int32_t>::min() - i : i;
}
// ulp distance between two non-NaN values (saturating)
uint64_t ulp_dist(double a, double b) {
  int64_t ia = ordered(a), ib = ordered(b);
  return ia > ib ? uint64_t(ia) - uint64_t(ib) : uint64_t(ib) - uint64_t(ia);
}
uint64_t ulp_dist(float a, float b) {
  int64_t ia = ordered(a), ib = ordered(b);
  return uint64_t(ia > ib ? ia - ib : ib - ia);
}

// Error of `got` (a double) against a long double reference, in ulps of the
// double closest to the reference (informational only).
double ld_err(double got, long double ref) {
  if (std::isnan(got) || std::isnan(ref) || std::isinf(got) || std::isinf(ref)) return 0.0;
  double r = double(ref);
  if (std::isinf(r)) return 0.0;
  int e;
  std::frexp(r == 0 ? DBL_MIN : r, &e);
  long double ulp = std::ldexp(1.0L, std::max(e - 53, -1074));
  return double(std::fabs((long double)got - ref) / ulp);
}

// real-valued error of got vs an extended-precision reference, in ulps of T
template <class T>
double real_err(T got, long double ref) {
  T r = T(ref);
  if (!std::isfinite(r) || !std::isfinite(got)) return got == r ? 0.0 : 1e9;
  int e;
  std::frexp(r == 0 ? std::numeric_limits<T>::min() : r, &e);
  const int dig = std::numeric_limits<T>::digits;
  const int emin = std::numeric_limits<T>::min_exponent;  // -1021 / -125
  long double ulp = std::ldexp(1.0L, std::max(e, emin) - dig);
  return double(std::fabs((long double)got - ref) / ulp);
}

std::string hex(double x) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%a (0x%016" PRIx64 ")", x, std::bit_cast<uint64_t>(x));
  return buf;
}
std::string hexf(float x) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%a (0x%08" PRIx32 ")", double(x), std::bit_cast<uint32_t>(x));
  return buf;
}

// ------------------------------ comparison ----------------------------------
template <class T>
struct Stats {
  std::string name;
  uint64_t max_ulp = 0;
  T worst_a{}, worst_b{};
  T worst_got{}, worst_ref{};
  double max_ld = 0.0;       // ours vs long double reference (double functions only)
  double max_ld_libm = 0.0;  // libm vs long double reference
  uint64_t n = 0;
  uint64_t failures = 0;
  uint64_t libm_off = 0;  // points where libm is > 1 ulp off and we are not
  uint64_t max_ulp_libm_off = 0;
  std::string first_failure;
};

// Compare got vs ref (libm). Special-value rules; returns true if ok.
template <class T>
bool check_one(Stats<T>& st, T a, T b, T got, T ref, uint64_t tol, const long double* truth = nullptr) {
  st.n++;
  bool ok = true;
  uint64_t d = 0;
  if (std::isnan(ref) || std::isnan(got)) {
    ok = std::isnan(ref) && std::isnan(got);
  } else if (std::isinf(ref) || std::isinf(got)) {
    ok = std::bit_cast<std::conditional_t<sizeof(T) == 8, uint64_t, uint32_t>>(ref) ==
         std::bit_cast<std::conditional_t<sizeof(T) == 8, uint64_t, uint32_t>>(got);
  } else {
    d = ulp_dist(got, ref);
    if (d <= tol && ref == 0 && got == 0)
      ok = std::signbit(ref) == std::signbit(got);
    else
      ok = d <= tol;
    if (!ok && tol > 0 && truth && std::isfinite(*truth)) {
      // libm disagrees by > tol: accept iff our error against the
      // extended-precision reference is <= 1 ulp (then libm's own
      // error there is >= 1 ulp too).
      if (real_err(got, *truth) <= 1.0) {
        st.libm_off++;
        st.max_ulp_libm_off = std::max(st.max_ulp_libm_off, d);
        return true;
      }
    }
    if (d > st.max_ulp) {
      st.max_ulp = d;
      st.worst_a = a;
      st.worst_b = b;
      st.worst_got = got;
      st.worst_ref = ref;
    }
  }
  if (!ok) {
    if (st.failures == 0) {
      char buf[512];
      if constexpr (sizeof(T) == 8)
        std::snprintf(buf, sizeof buf, "%s(%s, %s): got %s, libm %s", st.name.c_str(), hex(a).c_str(), hex(b).c_str(),
                      hex(got).c_str(), hex(ref).c_str());
      else
        std::snprintf(buf, sizeof buf, "%s(%s, %s): got %s, libm %s", st.name.c_str(), hexf(a).c_str(), hexf(b).c_str(),
                      hexf(got).c_str(), hexf(ref).c_str());
      st.first_failure = buf;
    }
    st.failures++;
  }
  return ok;
}

template <class T>
void report(const Stats<T>& st, uint64_t tol) {
  if constexpr (sizeof(T) == 8)
    std::printf("[ nxv_math ] %-16s n=%8" PRIu64 "  max ulp vs libm = %" PRIu64
                "  worst at (%.17g, %.17g)  libm-off points: %" PRIu64 " (up to %" PRIu64
                " ulp)  | err vs long double ref: ours <= %.3f ulp, libm <= %.3f ulp\n",
                st.name.c_str(), st.n, st.max_ulp, double(st.worst_a), double(st.worst_b), st.libm_off,
                st.max_ulp_libm_off, st.max_ld, st.max_ld_libm);
  else
    std::printf("[ nxv_math ] %-16s n=%8" PRIu64 "  max ulp vs libm = %" PRIu64
                "  worst at (%.9g, %.9g)"
                "  libm-off points: %" PRIu64 "\n",
                st.name.c_str(), st.n, st.max_ulp, double(st.worst_a), double(st.worst_b), st.libm_off);
  std::fflush(stdout);
  EXPECT_EQ(st.failures, 0u) << st.name << ": " << st.failures << " failures, first: " << st.first_failure;
  EXPECT_LE(st.max_ulp, tol) << st.name;
}

// ------------------------------ input generation ----------------------------
struct Gen {
  std::mt19937_64 rng;
  explicit Gen(uint64_t seed) : rng(seed) {}
  uint64_t bits() { return rng(); }
  double any() {  // random bit pattern (any double, incl. NaN/inf/subnormal)
    return std::bit_cast<double>(rng());
  }
  double uni(double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(rng); }
  // sign * 2^e * m, e uniform in [emin, emax]: log-uniform magnitudes
  double logu(int emin, int emax, bool allow_neg = true) {
    int e = std::uniform_int_distribution<int>(emin, emax)(rng);
    double m = std::uniform_real_distribution<double>(1.0, 2.0)(rng);
    double v = std::ldexp(m, e);
    if (allow_neg && (rng() & 1)) v = -v;
    return v;
  }
  double around(double c, int ulps = 8) {  // c moved by a few ulps
    int k = std::uniform_int_distribution<int>(-ulps, ulps)(rng);
    double v = c;
    for (int i = 0; i < std::abs(k); i++) v = std::nextafter(v, k > 0 ? kInf : -kInf);
    return v;
  }
  double subnormal() { return std::bit_cast<double>(rng() & 0x800fffffffffffffULL); }
  float anyf() { return std::bit_cast<float>(uint32_t(rng())); }
};

// Fixed list of "special" doubles every unary function is tested on.
std::vector<double> specials() {
  std::vector<double> v = {0.0,
                           -0.0,
                           kInf,
                           -kInf,
                           kNaN,
                           -kNaN,
                           std::bit_cast<double>(0x7ff0000000000001ULL),  // sNaN
                           std::numeric_limits<double>::denorm_min(),
                           -std::numeric_limits<double>::denorm_min(),
                           DBL_MIN,
                           -DBL_MIN,
                           std::nextafter(DBL_MIN, 0.0),
                           DBL_MAX,
                           -DBL_MAX,
                           1.0,
                           -1.0,
                           std::nextafter(1.0, 0.0),
                           std::nextafter(1.0, 2.0),
                           std::nextafter(-1.0, 0.0),
                           std::nextafter(-1.0, -2.0),
                           0.5,
                           -0.5,
                           2.0,
                           -2.0,
                           1e-300,
                           -1e-300,
                           1e300,
                           -1e300,
                           kPi,
                           -kPi,
                           kPi / 2,
                           kPi / 4,
                           kLn2,
                           -kLn2,
                           1e22,
                           -1e22,
                           1e300,
                           0x1p1023,
                           0x1p-1022,
                           0x1p-1074,
                           3.0,
                           10.0,
                           100.0,
                           709.782712893384,
                           -745.1332191019412,
                           -745.2,
                           710.0,
                           -708.5};
  for (int k = -10; k <= 10; k++) {
    v.push_back(k * kLn2);
    v.push_back(k * kPi / 4);
    v.push_back(k * kPi / 2);
    v.push_back(k + 0.5);
    v.push_back(double(k));
  }
  return v;
}

// ------------------------------ drivers -------------------------------------
using F1 = std::function<double(double)>;
using F1L = std::function<long double(long double)>;

// Run a unary double function over generated inputs.
void run_unary(const char* name, double (*mine)(double), double (*ref)(double), long double (*ldref)(long double),
               const std::function<double(Gen&, int)>& gen, int n, uint64_t tol,
               const std::vector<double>& extra = {}) {
  Stats<double> st;
  st.name = name;
  std::vector<double> inputs = specials();
  inputs.insert(inputs.end(), extra.begin(), extra.end());
  Gen g(std::hash<std::string>{}(name));
  for (int i = 0; i < n; i++) inputs.push_back(gen(g, i));
  int ldcount = 0;
  for (double x : inputs) {
    double got = mine(x), r = ref(x);
    long double truth = 0;
    bool have_truth = false;
    if (ldref && (std::isnan(r) || std::isnan(got) || ulp_dist(got, r) > tol)) {
      truth = ldref((long double)x);
      have_truth = true;
    }
    check_one(st, x, 0.0, got, r, tol, have_truth ? &truth : nullptr);
    if (ldref && (ldcount++ % 4 == 0 || have_truth)) {
      long double t = have_truth ? truth : ldref((long double)x);
      st.max_ld = std::max(st.max_ld, ld_err(got, t));
      st.max_ld_libm = std::max(st.max_ld_libm, ld_err(r, t));
    }
  }
  report(st, tol);
}

void run_binary(const char* name, double (*mine)(double, double), double (*ref)(double, double),
                const std::function<std::pair<double, double>(Gen&, int)>& gen, int n, uint64_t tol,
                long double (*ldref)(long double, long double) = nullptr) {
  Stats<double> st;
  st.name = name;
  std::vector<std::pair<double, double>> inputs;
  std::vector<double> sp = specials();
  // all pairs of a reduced special set
  std::vector<double> sp2 = {0.0,
                             -0.0,
                             kInf,
                             -kInf,
                             kNaN,
                             1.0,
                             -1.0,
                             0.5,
                             -0.5,
                             2.0,
                             -2.0,
                             3.0,
                             -3.0,
                             1e300,
                             -1e300,
                             1e-300,
                             4.9e-324,
                             -4.9e-324,
                             DBL_MAX,
                             -DBL_MAX,
                             DBL_MIN,
                             std::nextafter(1.0, 2.0),
                             std::nextafter(1.0, 0.0),
                             -std::nextafter(1.0, 2.0),
                             0.25,
                             1e-5,
                             7.0,
                             -7.0,
                             1023.5,
                             -1075.0,
                             2.5,
                             -2.5,
                             1e17,
                             -1e17,
                             9007199254740993.0};
  for (double a : sp2)
    for (double b : sp2) inputs.push_back({a, b});
  for (double a : sp) inputs.push_back({a, 1.5}), inputs.push_back({1.5, a});
  Gen g(std::hash<std::string>{}(name));
  for (int i = 0; i < n; i++) inputs.push_back(gen(g, i));
  int ldcount = 0;
  for (auto [a, b] : inputs) {
    double got = mine(a, b), r = ref(a, b);
    long double truth = 0;
    bool have_truth = false;
    if (ldref && (std::isnan(r) || std::isnan(got) || ulp_dist(got, r) > tol)) {
      truth = ldref((long double)a, (long double)b);
      have_truth = true;
    }
    check_one(st, a, b, got, r, tol, have_truth ? &truth : nullptr);
    if (ldref && (ldcount++ % 4 == 0 || have_truth)) {
      long double t = have_truth ? truth : ldref((long double)a, (long double)b);
      st.max_ld = std::max(st.max_ld, ld_err(got, t));
      st.max_ld_libm = std::max(st.max_ld_libm, ld_err(r, t));
    }
  }
  report(st, tol);
}

void run_unary_f(const char* name, float (*mine)(float), float (*ref)(float),
                 const std::function<float(Gen&, int)>& gen, int n, uint64_t tol,
                 long double (*ldref)(long double) = nullptr) {
  Stats<float> st;
  st.name = name;
  std::vector<float> inputs;
  for (double d : specials()) inputs.push_back(float(d));
  float fsp[] = {std::numeric_limits<float>::denorm_min(),
                 FLT_MIN,
                 FLT_MAX,
                 -FLT_MAX,
                 88.72284f,
                 -103.97208f,
                 -87.3f,
                 89.0f,
                 1e-40f,
                 -1e-40f};
  for (float f : fsp) inputs.push_back(f);
  Gen g(std::hash<std::string>{}(name));
  for (int i = 0; i < n; i++) inputs.push_back(gen(g, i));
  for (float x : inputs) {
    float got = mine(x), r = ref(x);
    long double truth = 0;
    bool have = ldref && !std::isnan(r) && !std::isnan(got) && ulp_dist(got, r) > tol;
    if (have) truth = ldref((long double)x);
    check_one(st, x, 0.0f, got, r, tol, have ? &truth : nullptr);
  }
  report(st, tol);
}

void run_binary_f(const char* name, float (*mine)(float, float), float (*ref)(float, float),
                  const std::function<std::pair<float, float>(Gen&, int)>& gen, int n, uint64_t tol,
                  long double (*ldref)(long double, long double) = nullptr) {
  Stats<float> st;
  st.name = name;
  std::vector<std::pair<float, float>> inputs;
  float sp[] = {0.0f,  -0.0f, INFINITY, -INFINITY, NAN,    1.0f,    -1.0f,   0.5f, -0.5f, 2.0f,  -2.0f,      3.0f,
                -3.0f, 1e30f, -1e30f,   1e-30f,    1e-45f, FLT_MAX, FLT_MIN, 7.0f, 2.5f,  -2.5f, 16777217.0f};
  for (float a : sp)
    for (float b : sp) inputs.push_back({a, b});
  Gen g(std::hash<std::string>{}(name));
  for (int i = 0; i < n; i++) inputs.push_back(gen(g, i));
  for (auto [a, b] : inputs) {
    float got = mine(a, b), r = ref(a, b);
    long double truth = 0;
    bool have = ldref && !std::isnan(r) && !std::isnan(got) && ulp_dist(got, r) > tol;
    if (have) truth = ldref((long double)a, (long double)b);
    check_one(st, a, b, got, r, tol, have ? &truth : nullptr);
  }
  report(st, tol);
}

constexpr int N = 1000000;   // random inputs per function (f64)
constexpr int NF = 1000000;  // random inputs per function (f32)

// ------------------------------ wrappers ------------------------------------
double lm_exp(double x) { return std::exp(x); }
double lm_expm1(double x) { return std::expm1(x); }
double lm_log(double x) { return std::log(x); }
double lm_log1p(double x) { return std::log1p(x); }
double lm_pow(double x, double y) { return std::pow(x, y); }
double lm_sin(double x) { return std::sin(x); }
double lm_cos(double x) { return std::cos(x); }
double lm_tanh(double x) { return std::tanh(x); }
double lm_erf(double x) { return std::erf(x); }
double lm_atan(double x) { return std::atan(x); }
double lm_atan2(double y, double x) { return std::atan2(y, x); }
double lm_fmod(double x, double y) { return std::fmod(x, y); }
double lm_round(double x) { return std::round(x); }
double lm_sqrt(double x) { return std::sqrt(x); }
// sigmoid has no libm counterpart: reference = long double formula, rounded.
long double ld_sigmoid(long double x) { return 1.0L / (1.0L + std::exp(-x)); }
double lm_sigmoid(double x) {
  if (std::isnan(x)) return x;
  return double(ld_sigmoid(x));
}

// softplus has no libm counterpart either: long double log1p(exp(-|x|)) + max(x, 0), rounded.
long double ld_softplus(long double x) { return (x > 0 ? x : 0.0L) + std::log1p(std::exp(-std::fabs(x))); }
double lm_softplus(double x) {
  if (std::isnan(x)) return x;
  return double(ld_softplus(x));
}

// tan, the hyperbolics and their inverses, cbrt
double lm_tan(double x) { return std::tan(x); }
long double ld_tan(long double x) { return std::tan(x); }
float lmf_tan(float x) { return std::tan(x); }
double lm_sinh(double x) { return std::sinh(x); }
long double ld_sinh(long double x) { return std::sinh(x); }
float lmf_sinh(float x) { return std::sinh(x); }
double lm_cosh(double x) { return std::cosh(x); }
long double ld_cosh(long double x) { return std::cosh(x); }
float lmf_cosh(float x) { return std::cosh(x); }
double lm_asinh(double x) { return std::asinh(x); }
long double ld_asinh(long double x) { return std::asinh(x); }
float lmf_asinh(float x) { return std::asinh(x); }
double lm_acosh(double x) { return std::acosh(x); }
long double ld_acosh(long double x) { return std::acosh(x); }
float lmf_acosh(float x) { return std::acosh(x); }
double lm_atanh(double x) { return std::atanh(x); }
long double ld_atanh(long double x) { return std::atanh(x); }
float lmf_atanh(float x) { return std::atanh(x); }
double lm_cbrt(double x) { return std::cbrt(x); }
long double ld_cbrt(long double x) { return std::cbrt(x); }
float lmf_cbrt(float x) { return std::cbrt(x); }

// log_sigmoid, xlogy and xlog1py have no libm counterpart: the long double formula, rounded. scipy's convention:
// x == 0 gives +0 unless y is NaN.
long double ld_log_sigmoid(long double x) { return -ld_softplus(-x); }
double lm_log_sigmoid(double x) {
  if (std::isnan(x)) return x;
  return double(ld_log_sigmoid(x));
}
long double ld_xlogy(long double x, long double y) { return x == 0 && !std::isnan(y) ? 0.0L : x * std::log(y); }
long double ld_xlog1py(long double x, long double y) { return x == 0 && !std::isnan(y) ? 0.0L : x * std::log1p(y); }
double lm_xlogy(double x, double y) { return double(ld_xlogy(x, y)); }
double lm_xlog1py(double x, double y) { return double(ld_xlog1py(x, y)); }
double lm_asin(double x) { return std::asin(x); }
double lm_acos(double x) { return std::acos(x); }
double lm_erfc(double x) { return std::erfc(x); }

long double ld_exp(long double x) { return std::exp(x); }
long double ld_expm1(long double x) { return std::expm1(x); }
long double ld_log(long double x) { return std::log(x); }
long double ld_log1p(long double x) { return std::log1p(x); }
long double ld_pow(long double x, long double y) { return std::pow(x, y); }
long double ld_sin(long double x) { return std::sin(x); }
long double ld_cos(long double x) { return std::cos(x); }
long double ld_tanh(long double x) { return std::tanh(x); }
long double ld_erf(long double x) { return std::erf(x); }
long double ld_atan(long double x) { return std::atan(x); }
long double ld_atan2(long double y, long double x) { return std::atan2(y, x); }
long double ld_asin(long double x) { return std::asin(x); }
long double ld_acos(long double x) { return std::acos(x); }
long double ld_erfc(long double x) { return std::erfc(x); }

float lmf_exp(float x) { return std::exp(x); }
float lmf_expm1(float x) { return std::expm1(x); }
float lmf_log(float x) { return std::log(x); }
float lmf_log1p(float x) { return std::log1p(x); }
float lmf_pow(float x, float y) { return std::pow(x, y); }
float lmf_sin(float x) { return std::sin(x); }
float lmf_cos(float x) { return std::cos(x); }
float lmf_tanh(float x) { return std::tanh(x); }
float lmf_erf(float x) { return std::erf(x); }
float lmf_atan(float x) { return std::atan(x); }
float lmf_atan2(float y, float x) { return std::atan2(y, x); }
float lmf_fmod(float x, float y) { return std::fmod(x, y); }
float lmf_round(float x) { return std::round(x); }
float lmf_sqrt(float x) { return std::sqrt(x); }
float lmf_sigmoid(float x) {
  if (std::isnan(x)) return x;
  return float(ld_sigmoid(x));
}
float lmf_softplus(float x) {
  if (std::isnan(x)) return x;
  return float(ld_softplus(x));
}
float lmf_log_sigmoid(float x) {
  if (std::isnan(x)) return x;
  return float(ld_log_sigmoid(x));
}
float lmf_asin(float x) { return std::asin(x); }
float lmf_acos(float x) { return std::acos(x); }
float lmf_erfc(float x) { return std::erfc(x); }
float lmf_xlogy(float x, float y) { return float(ld_xlogy(x, y)); }
float lmf_xlog1py(float x, float y) { return float(ld_xlog1py(x, y)); }

// points a few ulps around c (both signs)
void add_around(std::vector<double>& v, double c, int ulps = 4) {
  for (double s : {c, -c}) {
    double lo = s, hi = s;
    v.push_back(s);
    for (int i = 0; i < ulps; i++) {
      lo = std::nextafter(lo, -kInf);
      hi = std::nextafter(hi, kInf);
      v.push_back(lo);
      v.push_back(hi);
    }
  }
}
// double whose high word is hw (low word 0), and its neighbours
void add_hiword(std::vector<double>& v, uint32_t hw, int ulps = 4) {
  add_around(v, std::bit_cast<double>(uint64_t(hw) << 32), ulps);
}

// 2^e, 1.5 * 2^e and their neighbours for every binary exponent e in [emin, emax], both signs (and subnormals
// below -1022): sweeps every branch a function takes on its argument's exponent.
void add_every_exponent(std::vector<double>& v, int emin = -1074, int emax = 1023) {
  for (int e = emin; e <= emax; e++) {
    add_around(v, std::ldexp(1.0, e), 1);
    if (e > -1074) add_around(v, std::ldexp(1.5, e), 1);
  }
}

}  // namespace

// ============================== f64 tests ====================================

TEST(NxvMath, Exp) {
  std::vector<double> ex;
  for (uint32_t hw : {0x40862E42u, 0x3fd62e42u, 0x3FF0A2B2u, 0x3e300000u}) add_hiword(ex, hw);
  for (double c : {709.782712893383973096, -745.13321910194110842, -708.3964185322641, -744.44007192138126})
    add_around(ex, c, 16);
  for (int k = -1080; k <= 1030; k++) add_around(ex, k * kLn2, 2);
  run_unary(
      "exp", nm::nxv_exp, lm_exp, ld_exp,
      [](Gen& g, int i) {
        switch (i % 6) {
          case 0:
            return g.any();
          case 1:
            return g.uni(-745.2, 709.8);
          case 2:
            return g.uni(-1, 1);
          case 3:
            return g.logu(-80, 9);
          case 4:
            return g.uni(-745.2, -708.0);  // subnormal results
          default:
            return g.around(std::round(g.uni(-1075, 1025)) * kLn2, 1000);
        }
      },
      N, 1, ex);
}

TEST(NxvMath, Expm1) {
  std::vector<double> ex;
  for (uint32_t hw : {0x4043687Au, 0x40862E42u, 0x3fd62e42u, 0x3FF0A2B2u, 0x3c900000u}) add_hiword(ex, hw);
  add_around(ex, 709.782712893383973096, 16);
  add_around(ex, 56 * kLn2, 16);
  for (int k = -60; k <= 1030; k++) add_around(ex, k * kLn2, 2);
  run_unary(
      "expm1", nm::nxv_expm1, lm_expm1, ld_expm1,
      [](Gen& g, int i) {
        switch (i % 6) {
          case 0:
            return g.any();
          case 1:
            return g.uni(-50, 50);
          case 2:
            return g.uni(-1, 1);
          case 3:
            return g.logu(-80, 9);
          case 4:
            return g.uni(-40, 709.8);
          default:
            return g.around(std::round(g.uni(-60, 1025)) * kLn2, 1000);
        }
      },
      N, 1, ex);
}

TEST(NxvMath, Log) {
  std::vector<double> ex;
  for (uint32_t hw : {0x3ff00000u, 0x3fefffffu, 0x3ff00001u, 0x00100000u, 0x7fefffffu, 0x3ff6a09eu, 0x3fe6a09eu})
    add_hiword(ex, hw);
  run_unary(
      "log", nm::nxv_log, lm_log, ld_log,
      [](Gen& g, int i) {
        switch (i % 6) {
          case 0:
            return g.any();
          case 1:
            return std::fabs(g.any());
          case 2:
            return g.uni(0.5, 2.0);
          case 3:
            return 1.0 + g.logu(-60, -1);  // near 1
          case 4:
            return std::fabs(g.subnormal());
          default:
            return g.logu(-1074, 1023, false);
        }
      },
      N, 1, ex);
}

TEST(NxvMath, Log1p) {
  std::vector<double> ex;
  for (uint32_t hw : {0x3FDA827Au, 0xbfd2bec4u, 0x3e200000u, 0x3c900000u, 0x43400000u, 0x3ff00000u}) add_hiword(ex, hw);
  add_around(ex, -1.0, 16);
  run_unary(
      "log1p", nm::nxv_log1p, lm_log1p, ld_log1p,
      [](Gen& g, int i) {
        switch (i % 6) {
          case 0:
            return g.any();
          case 1:
            return g.uni(-1.0, 1.0);
          case 2:
            return g.logu(-80, 0);
          case 3:
            return -1.0 + g.logu(-60, -1, false);  // near -1
          case 4:
            return g.uni(-0.3, 0.5);
          default:
            return g.logu(-10, 1023, false);
        }
      },
      N, 1, ex);
}

TEST(NxvMath, Pow) {
  run_binary(
      "pow", nm::nxv_pow, lm_pow,
      [](Gen& g, int i) -> std::pair<double, double> {
        switch (i % 10) {
          case 0:
            return {g.any(), g.any()};
          case 1:
            return {g.logu(-20, 20, false), g.uni(-30, 30)};
          case 2:
            return {g.uni(0.5, 2.0), g.uni(-1000, 1000)};
          case 3:
            return {1.0 + g.logu(-53, -20), g.logu(20, 70)};  // x ~ 1, huge y
          case 4:
            return {-g.logu(-10, 10, false), std::round(g.uni(-100, 100))};  // neg x, int y
          case 5:
            return {g.logu(-1074, 1023, false), g.uni(-2, 2)};
          case 6: {  // results near overflow / underflow
            double x = g.logu(-30, 30, false);
            double target = (g.bits() & 1) ? g.uni(1000, 1025) : g.uni(-1080, -1000);
            double y = target / std::log2(x);
            return {x, y};
          }
          case 7:
            return {std::round(g.uni(-100, 100)), std::round(g.uni(-40, 40))};  // int ** int
          case 8:
            return {g.uni(0, 10), g.logu(-60, 0)};
          default:
            return {g.uni(-10, 10), g.uni(-10, 10)};
        }
      },
      N, 1, ld_pow);
}

TEST(NxvMath, Sin) {
  std::vector<double> ex;
  for (uint32_t hw : {0x3fe921fbu, 0x3e400000u, 0x400f6a7au, 0x4002d97cu, 0x401c463bu, 0x4015fdbcu, 0x4012d97cu,
                      0x401921fbu, 0x413921fbu, 0x7fefffffu})
    add_hiword(ex, hw, 8);
  for (int k = -2000; k <= 2000; k++) add_around(ex, k * (kPi / 4), 2);
  for (int k = 0; k < 2000; k++) ex.push_back(std::ldexp(1.0, k % 1024) * 1.5707963267948966);
  auto gen = [](Gen& g, int i) {
    switch (i % 7) {
      case 0:
        return g.any();
      case 1:
        return g.uni(-kPi, kPi);
      case 2:
        return g.uni(-1e5, 1e5);
      case 3:
        return g.uni(-1686629713.0, 1686629713.0);  // |x| < 2^20*pi/2 ... and a bit beyond
      case 4:
        return g.logu(21, 1023);  // huge: Payne-Hanek
      case 5:
        return g.around(std::round(g.uni(-1e6, 1e6)) * (kPi / 2), 4);
      default:
        return g.logu(-60, 3);
    }
  };
  run_unary("sin", nm::nxv_sin, lm_sin, ld_sin, gen, N, 1, ex);
  run_unary("cos", nm::nxv_cos, lm_cos, ld_cos, gen, N, 1, ex);
}

TEST(NxvMath, Tanh) {
  std::vector<double> ex;
  for (uint32_t hw : {0x40360000u, 0x3e300000u, 0x3ff00000u}) add_hiword(ex, hw, 8);
  run_unary(
      "tanh", nm::nxv_tanh, lm_tanh, ld_tanh,
      [](Gen& g, int i) {
        switch (i % 5) {
          case 0:
            return g.any();
          case 1:
            return g.uni(-25, 25);
          case 2:
            return g.uni(-1.2, 1.2);
          case 3:
            return g.logu(-80, 5);
          default:
            return g.uni(-3, 3);
        }
      },
      N, 1, ex);
}

TEST(NxvMath, Erf) {
  std::vector<double> ex;
  for (uint32_t hw : {0x3feb0000u, 0x3e300000u, 0x00800000u, 0x3ff40000u, 0x40180000u, 0x4006DB6Eu})
    add_hiword(ex, hw, 8);
  run_unary(
      "erf", nm::nxv_erf, lm_erf, ld_erf,
      [](Gen& g, int i) {
        switch (i % 5) {
          case 0:
            return g.any();
          case 1:
            return g.uni(-6.5, 6.5);
          case 2:
            return g.uni(-1.3, 1.3);
          case 3:
            return g.logu(-1074, 3);
          default:
            return g.uni(-3, 3);
        }
      },
      N, 1, ex);
}

TEST(NxvMath, Atan) {
  std::vector<double> ex;
  for (uint32_t hw : {0x44100000u, 0x3fdc0000u, 0x3e200000u, 0x3ff30000u, 0x3fe60000u, 0x40038000u})
    add_hiword(ex, hw, 8);
  run_unary(
      "atan", nm::nxv_atan, lm_atan, ld_atan,
      [](Gen& g, int i) {
        switch (i % 4) {
          case 0:
            return g.any();
          case 1:
            return g.uni(-3, 3);
          case 2:
            return g.logu(-40, 70);
          default:
            return g.logu(-1074, 1023);
        }
      },
      N, 1, ex);
}

TEST(NxvMath, Atan2) {
  run_binary(
      "atan2", nm::nxv_atan2, lm_atan2,
      [](Gen& g, int i) -> std::pair<double, double> {
        switch (i % 5) {
          case 0:
            return {g.any(), g.any()};
          case 1:
            return {g.uni(-10, 10), g.uni(-10, 10)};
          case 2:
            return {g.logu(-100, 100), g.logu(-100, 100)};
          case 3: {  // |y/x| around 2^+-60
            double x = g.logu(-100, 100);
            return {std::ldexp(x, std::uniform_int_distribution<int>(-64, 64)(g.rng)) * ((g.bits() & 1) ? 1 : -1), x};
          }
          default:
            return {g.logu(-1074, 1023), g.logu(-1074, 1023)};
        }
      },
      N, 1, ld_atan2);
}

TEST(NxvMath, Fmod) {
  run_binary(
      "fmod", nm::nxv_fmod, lm_fmod,
      [](Gen& g, int i) -> std::pair<double, double> {
        switch (i % 6) {
          case 0:
            return {g.any(), g.any()};
          case 1:
            return {g.uni(-100, 100), g.uni(-10, 10)};
          case 2:
            return {g.logu(-1074, 1023), g.logu(-1074, 1023)};
          case 3:
            return {g.subnormal(), g.subnormal()};
          case 4:
            return {g.logu(900, 1023), g.logu(-1074, -1000)};  // long loop
          default:
            return {g.logu(-60, 60), g.logu(-60, 60)};
        }
      },
      N / 2, 0);
}

TEST(NxvMath, Sigmoid) {
  // reference: long double 1/(1+expl(-x)) rounded to double
  run_unary(
      "sigmoid", nm::nxv_sigmoid, lm_sigmoid, ld_sigmoid,
      [](Gen& g, int i) {
        switch (i % 4) {
          case 0:
            return g.any();
          case 1:
            return g.uni(-40, 40);
          case 2:
            return g.uni(-750, 750);
          default:
            return g.logu(-60, 5);
        }
      },
      N, 1);
  EXPECT_EQ(nm::nxv_sigmoid(kInf), 1.0);
  EXPECT_EQ(std::bit_cast<uint64_t>(nm::nxv_sigmoid(-kInf)), 0u);
  EXPECT_EQ(nm::nxv_sigmoid(0.0), 0.5);
  EXPECT_EQ(nm::nxv_sigmoid(800.0), 1.0);
  EXPECT_EQ(nm::nxv_sigmoid(-800.0), 0.0);
  EXPECT_TRUE(std::isnan(nm::nxv_sigmoid(kNaN)));
}

// The bound stated in shared/math.glsl.h: 2 ulp.
TEST(NxvMath, Softplus) {
  run_unary(
      "softplus", nm::nxv_softplus, lm_softplus, ld_softplus,
      [](Gen& g, int i) {
        switch (i % 4) {
          case 0:
            return g.any();
          case 1:
            return g.uni(-45, 45);
          case 2:
            return g.uni(-750, 750);
          default:
            return g.logu(-60, 6);
        }
      },
      N, 2);
  EXPECT_EQ(nm::nxv_softplus(kInf), kInf);
  EXPECT_EQ(std::bit_cast<uint64_t>(nm::nxv_softplus(-kInf)), 0u);
  EXPECT_EQ(nm::nxv_softplus(0.0), std::log(2.0));
  EXPECT_EQ(nm::nxv_softplus(-0.0), std::log(2.0));
  EXPECT_EQ(nm::nxv_softplus(1e300), 1e300);
  EXPECT_TRUE(std::isnan(nm::nxv_softplus(kNaN)));
}

// The bounds stated in shared/math.glsl.h: < 1 ulp, checked as "within 1 ulp of glibc, or of the long double value
// where glibc is further off" (the test's rule, see the top of this file).
TEST(NxvMath, Tan) {
  std::vector<double> ex;
  add_every_exponent(ex);
  for (uint32_t hw : {0x3fe921fbu, 0x3e400000u, 0x3FE59428u, 0x400f6a7au, 0x4002d97cu, 0x413921fbu}) add_hiword(ex, hw);
  for (int k = -64; k <= 64; k++) add_around(ex, k * kPi / 4, 8);
  add_around(ex, 0.6744, 8);
  run_unary(
      "tan", nm::nxv_tan, lm_tan, ld_tan,
      [](Gen& g, int i) {
        switch (i % 5) {
          case 0:
            return g.any();
          case 1:
            return g.uni(-kPi / 4, kPi / 4);
          case 2:
            return g.uni(-100, 100);
          case 3:
            return g.logu(-60, 1023);
          default:
            return g.around(std::round(g.uni(-1e6, 1e6)) * kPi / 2, 1000);
        }
      },
      N, 1, ex);
  EXPECT_EQ(std::bit_cast<uint64_t>(nm::nxv_tan(-0.0)), std::bit_cast<uint64_t>(-0.0));
  EXPECT_TRUE(std::isnan(nm::nxv_tan(kInf)));
  EXPECT_TRUE(std::isnan(nm::nxv_tan(-kInf)));
}

namespace {
// sinh, cosh: the branch edges 2^-28, 2^-55, 0.5 ln2, 22, log(DBL_MAX) and the overflow threshold.
std::vector<double> hyperbolic_edges() {
  std::vector<double> ex;
  add_every_exponent(ex, -1074, 10);
  for (uint32_t hw : {0x3e300000u, 0x3c800000u, 0x3fd62e42u, 0x3fd62e43u, 0x40360000u, 0x40862E42u, 0x408633CEu})
    add_hiword(ex, hw);
  add_around(ex, 0.5 * kLn2, 16);
  add_around(ex, 709.782712893383973096, 16);
  add_around(ex, std::bit_cast<double>(0x408633CE8fb9f87dULL), 16);
  return ex;
}
double gen_hyperbolic(Gen& g, int i) {
  switch (i % 5) {
    case 0:
      return g.any();
    case 1:
      return g.uni(-1, 1);
    case 2:
      return g.uni(-25, 25);
    case 3:
      return g.uni(-711, 711);
    default:
      return g.logu(-60, 10);
  }
}
}  // namespace

TEST(NxvMath, Sinh) {
  run_unary("sinh", nm::nxv_sinh, lm_sinh, ld_sinh, gen_hyperbolic, N, 1, hyperbolic_edges());
  EXPECT_EQ(std::bit_cast<uint64_t>(nm::nxv_sinh(-0.0)), std::bit_cast<uint64_t>(-0.0));
  EXPECT_EQ(nm::nxv_sinh(-kInf), -kInf);
  EXPECT_EQ(nm::nxv_sinh(711.0), kInf);
}

TEST(NxvMath, Cosh) {
  run_unary("cosh", nm::nxv_cosh, lm_cosh, ld_cosh, gen_hyperbolic, N, 1, hyperbolic_edges());
  EXPECT_EQ(nm::nxv_cosh(-0.0), 1.0);
  EXPECT_EQ(nm::nxv_cosh(-kInf), kInf);
  EXPECT_EQ(nm::nxv_cosh(-711.0), kInf);
}

TEST(NxvMath, Asinh) {
  std::vector<double> ex;
  add_every_exponent(ex);
  for (uint32_t hw : {0x3e300000u, 0x40000000u, 0x41b00000u, 0x7fe00000u}) add_hiword(ex, hw);
  run_unary(
      "asinh", nm::nxv_asinh, lm_asinh, ld_asinh,
      [](Gen& g, int i) {
        switch (i % 4) {
          case 0:
            return g.any();
          case 1:
            return g.uni(-2, 2);
          case 2:
            return g.uni(-1e3, 1e3);
          default:
            return g.logu(-60, 1023);
        }
      },
      N, 1, ex);
  EXPECT_EQ(std::bit_cast<uint64_t>(nm::nxv_asinh(-0.0)), std::bit_cast<uint64_t>(-0.0));
  EXPECT_EQ(nm::nxv_asinh(-kInf), -kInf);
}

TEST(NxvMath, Acosh) {
  std::vector<double> ex;
  add_every_exponent(ex, 0, 1023);
  for (uint32_t hw : {0x3ff00000u, 0x40000000u, 0x41b00000u, 0x7fe00000u}) add_hiword(ex, hw, 16);
  run_unary(
      "acosh", nm::nxv_acosh, lm_acosh, ld_acosh,
      [](Gen& g, int i) {
        switch (i % 5) {
          case 0:
            return g.any();
          case 1:
            return g.uni(1, 2);
          case 2:
            return 1 + g.logu(-60, 0, false);
          case 3:
            return g.uni(1, 1e3);
          default:
            return g.logu(0, 1023, false);
        }
      },
      N, 1, ex);
  EXPECT_EQ(std::bit_cast<uint64_t>(nm::nxv_acosh(1.0)), 0u);
  EXPECT_EQ(nm::nxv_acosh(kInf), kInf);
  EXPECT_TRUE(std::isnan(nm::nxv_acosh(std::nextafter(1.0, 0.0))));
  EXPECT_TRUE(std::isnan(nm::nxv_acosh(-kInf)));
}

TEST(NxvMath, Atanh) {
  std::vector<double> ex;
  add_every_exponent(ex, -1074, 0);
  for (uint32_t hw : {0x3e300000u, 0x3fe00000u, 0x3ff00000u}) add_hiword(ex, hw, 16);
  run_unary(
      "atanh", nm::nxv_atanh, lm_atanh, ld_atanh,
      [](Gen& g, int i) {
        switch (i % 4) {
          case 0:
            return g.any();
          case 1:
            return g.uni(-1, 1);
          case 2:
            return (g.bits() & 1 ? 1 : -1) * (1 - g.logu(-53, -1, false));
          default:
            return g.logu(-60, 0);
        }
      },
      N, 1, ex);
  EXPECT_EQ(std::bit_cast<uint64_t>(nm::nxv_atanh(-0.0)), std::bit_cast<uint64_t>(-0.0));
  EXPECT_EQ(nm::nxv_atanh(1.0), kInf);
  EXPECT_EQ(nm::nxv_atanh(-1.0), -kInf);
  EXPECT_TRUE(std::isnan(nm::nxv_atanh(std::nextafter(1.0, 2.0))));
  EXPECT_TRUE(std::isnan(nm::nxv_atanh(-kInf)));
}

TEST(NxvMath, Cbrt) {
  std::vector<double> ex;
  add_every_exponent(ex);
  for (int k = 1; k <= 100; k++) add_around(ex, double(k) * k * k, 2);
  run_unary(
      "cbrt", nm::nxv_cbrt, lm_cbrt, ld_cbrt,
      [](Gen& g, int i) {
        switch (i % 4) {
          case 0:
            return g.any();
          case 1:
            return g.uni(-10, 10);
          case 2:
            return g.subnormal();
          default:
            return g.logu(-1074, 1023);
        }
      },
      N, 1, ex);
  EXPECT_EQ(std::bit_cast<uint64_t>(nm::nxv_cbrt(-0.0)), std::bit_cast<uint64_t>(-0.0));
  EXPECT_EQ(nm::nxv_cbrt(-kInf), -kInf);
  EXPECT_EQ(nm::nxv_cbrt(-27.0), -3.0);
}

// Every binary exponent of [-1074, emax], both signs: x = +-m 2^e for each e, m random in [1, 2).
std::vector<double> every_exponent(Gen& g, int emax, int per_exponent = 8) {
  std::vector<double> v;
  for (int e = -1074; e <= emax; e++)
    for (int k = 0; k < per_exponent; k++) {
      v.push_back(std::ldexp(g.uni(1.0, 2.0), e) * (k % 2 ? -1 : 1));  // denormals: rounded to their grid
    }
  return v;
}

// The bound stated in shared/math.glsl.h: 1 ulp of glibc (or of the long double value where glibc is further off).
TEST(NxvMath, Asin) {
  Gen eg(1);
  std::vector<double> ex = every_exponent(eg, 0);
  for (uint32_t hw : {0x3ff00000u, 0x3fe00000u, 0x3e500000u, 0x3FEF3333u}) add_hiword(ex, hw, 8);
  run_unary(
      "asin", nm::nxv_asin, lm_asin, ld_asin,
      [](Gen& g, int i) {
        switch (i % 4) {
          case 0:
            return g.any();
          case 1:
            return g.uni(-1, 1);
          case 2:
            return g.logu(-1074, -1);
          default:
            return g.uni(0.97, 1) * ((g.bits() & 1) ? 1 : -1);
        }
      },
      N, 1, ex);
  EXPECT_EQ(nm::nxv_asin(1.0), kPi / 2);
  EXPECT_EQ(nm::nxv_asin(-1.0), -kPi / 2);
  EXPECT_EQ(std::bit_cast<uint64_t>(nm::nxv_asin(-0.0)), std::bit_cast<uint64_t>(-0.0));
  EXPECT_EQ(nm::nxv_asin(0x1p-1074), 0x1p-1074);
  EXPECT_TRUE(std::isnan(nm::nxv_asin(std::nextafter(1.0, 2.0))));
  EXPECT_TRUE(std::isnan(nm::nxv_asin(kInf)));
  EXPECT_TRUE(std::isnan(nm::nxv_asin(kNaN)));
}

TEST(NxvMath, Acos) {
  Gen eg(2);
  std::vector<double> ex = every_exponent(eg, 0);
  for (uint32_t hw : {0x3ff00000u, 0x3fe00000u, 0x3c600000u}) add_hiword(ex, hw, 8);
  run_unary(
      "acos", nm::nxv_acos, lm_acos, ld_acos,
      [](Gen& g, int i) {
        switch (i % 4) {
          case 0:
            return g.any();
          case 1:
            return g.uni(-1, 1);
          case 2:
            return g.logu(-1074, -1);
          default:
            return g.uni(0.97, 1) * ((g.bits() & 1) ? 1 : -1);
        }
      },
      N, 1, ex);
  EXPECT_EQ(std::bit_cast<uint64_t>(nm::nxv_acos(1.0)), 0u);
  EXPECT_EQ(nm::nxv_acos(-1.0), kPi);
  EXPECT_EQ(nm::nxv_acos(0.0), kPi / 2);
  EXPECT_EQ(nm::nxv_acos(-0.0), kPi / 2);
  EXPECT_TRUE(std::isnan(nm::nxv_acos(-kInf)));
  EXPECT_TRUE(std::isnan(nm::nxv_acos(kNaN)));
}

// The bound stated in shared/math.glsl.h: 4 ulp of glibc, whose erfc (the same fdlibm algorithm) is itself up to
// 3.4 ulp off the long double value where ours stays within 2.5.
TEST(NxvMath, Erfc) {
  Gen eg(3);
  std::vector<double> ex = every_exponent(eg, 5);
  for (uint32_t hw :
       {0x3feb0000u, 0x3c700000u, 0x3fd00000u, 0x3ff40000u, 0x4006DB6Du, 0x4006DB6Eu, 0x40180000u, 0x403c0000u})
    add_hiword(ex, hw, 8);
  run_unary(
      "erfc", nm::nxv_erfc, lm_erfc, ld_erfc,
      [](Gen& g, int i) {
        switch (i % 6) {
          case 0:
            return g.any();
          case 1:
            return g.uni(-6.5, 28.5);
          case 2:
            return g.uni(-1.3, 1.3);
          case 3:
            return g.logu(-1074, 5);
          case 4:
            return g.uni(26, 27.3);  // denormal results
          default:
            return g.uni(1.25, 6);
        }
      },
      N, 4, ex);
  EXPECT_EQ(nm::nxv_erfc(0.0), 1.0);
  EXPECT_EQ(nm::nxv_erfc(-0.0), 1.0);
  EXPECT_EQ(std::bit_cast<uint64_t>(nm::nxv_erfc(kInf)), 0u);
  EXPECT_EQ(nm::nxv_erfc(-kInf), 2.0);
  EXPECT_EQ(std::bit_cast<uint64_t>(nm::nxv_erfc(30.0)), 0u);
  EXPECT_EQ(nm::nxv_erfc(-7.0), 2.0);
  EXPECT_GT(nm::nxv_erfc(26.0), 0.0);  // 5.7e-296: not 1 - erf(26) = 0
  EXPECT_TRUE(std::isnan(nm::nxv_erfc(kNaN)));
}

// The bound stated in shared/math.glsl.h: softplus's 2 ulp.
TEST(NxvMath, LogSigmoid) {
  Gen eg(4);
  run_unary(
      "log_sigmoid", nm::nxv_log_sigmoid, lm_log_sigmoid, ld_log_sigmoid,
      [](Gen& g, int i) {
        switch (i % 4) {
          case 0:
            return g.any();
          case 1:
            return g.uni(-45, 45);
          case 2:
            return g.uni(-750, 750);
          default:
            return g.logu(-60, 6);
        }
      },
      N, 2, every_exponent(eg, 1023, 2));
  EXPECT_EQ(std::bit_cast<uint64_t>(nm::nxv_log_sigmoid(kInf)), std::bit_cast<uint64_t>(-0.0));
  EXPECT_EQ(nm::nxv_log_sigmoid(-kInf), -kInf);
  EXPECT_EQ(nm::nxv_log_sigmoid(0.0), -std::log(2.0));
  EXPECT_EQ(nm::nxv_log_sigmoid(-1e300), -1e300);
  EXPECT_TRUE(std::isnan(nm::nxv_log_sigmoid(kNaN)));
}

// The bound stated in shared/math.glsl.h: 2 ulp of the long double x log(y) / x log1p(y).
TEST(NxvMath, Xlogy) {
  run_binary(
      "xlogy", nm::nxv_xlogy, lm_xlogy,
      [](Gen& g, int i) -> std::pair<double, double> {
        switch (i % 5) {
          case 0:
            return {g.any(), g.any()};
          case 1:
            return {g.uni(-10, 10), g.logu(-1074, 1023, false)};
          case 2:
            return {g.logu(-1074, 1023), g.uni(0, 2)};
          case 3:
            return {g.logu(-100, 100), g.around(1.0, 64)};
          default:
            return {0.0, g.any()};
        }
      },
      N, 2, ld_xlogy);
  EXPECT_EQ(std::bit_cast<uint64_t>(nm::nxv_xlogy(0.0, 0.0)), 0u);
  EXPECT_EQ(std::bit_cast<uint64_t>(nm::nxv_xlogy(-0.0, -1.0)), 0u);
  EXPECT_EQ(std::bit_cast<uint64_t>(nm::nxv_xlogy(0.0, kInf)), 0u);
  EXPECT_EQ(nm::nxv_xlogy(2.0, 0.0), -kInf);
  EXPECT_TRUE(std::isnan(nm::nxv_xlogy(0.0, kNaN)));
  EXPECT_TRUE(std::isnan(nm::nxv_xlogy(kNaN, 1.0)));
  EXPECT_EQ(std::bit_cast<uint64_t>(nm::nxv_xlogy(kInf, 1.0)), std::bit_cast<uint64_t>(nm::nxv_nan()));
  EXPECT_EQ(std::bit_cast<uint64_t>(nm::nxv_xlogy(1.0, -1.0)), std::bit_cast<uint64_t>(nm::nxv_nan()));
}

TEST(NxvMath, Xlog1py) {
  run_binary(
      "xlog1py", nm::nxv_xlog1py, lm_xlog1py,
      [](Gen& g, int i) -> std::pair<double, double> {
        switch (i % 5) {
          case 0:
            return {g.any(), g.any()};
          case 1:
            return {g.uni(-10, 10), g.logu(-1074, 1023)};
          case 2:
            return {g.logu(-1074, 1023), g.uni(-1, 2)};
          case 3:
            return {g.logu(-100, 100), g.around(-1.0, 64)};
          default:
            return {0.0, g.any()};
        }
      },
      N, 2, ld_xlog1py);
  EXPECT_EQ(std::bit_cast<uint64_t>(nm::nxv_xlog1py(0.0, -1.0)), 0u);
  EXPECT_EQ(nm::nxv_xlog1py(2.0, -1.0), -kInf);
  EXPECT_EQ(nm::nxv_xlog1py(3.0, 0x1p-1074), 3 * 0x1p-1074);
  EXPECT_TRUE(std::isnan(nm::nxv_xlog1py(0.0, kNaN)));
  EXPECT_EQ(std::bit_cast<uint64_t>(nm::nxv_xlog1py(-kInf, 0.0)), std::bit_cast<uint64_t>(nm::nxv_nan()));
}

TEST(NxvMath, RoundSqrt) {
  auto gen = [](Gen& g, int i) {
    switch (i % 4) {
      case 0:
        return g.any();
      case 1:
        return g.uni(-100, 100);
      case 2:
        return std::round(g.uni(-1e6, 1e6)) + 0.5;
      default:
        return g.logu(-60, 60);
    }
  };
  std::vector<double> ex = {0.49999999999999994,
                            -0.49999999999999994,
                            4503599627370495.5,
                            -4503599627370495.5,
                            4503599627370497.0,
                            2.5,
                            -2.5,
                            1.5,
                            -1.5,
                            0.5,
                            -0.5,
                            0.3,
                            -0.3};
  run_unary("round_half_away", nm::nxv_round_half_away, lm_round, nullptr, gen, N / 2, 0, ex);
  run_unary("sqrt", nm::nxv_sqrt, lm_sqrt, nullptr, gen, N / 4, 0, ex);
}

// Exact special cases required by C99 Annex F.
TEST(NxvMath, SpecialCases) {
  auto same = [](double a, double b) {
    return (std::isnan(a) && std::isnan(b)) || std::bit_cast<uint64_t>(a) == std::bit_cast<uint64_t>(b);
  };
  EXPECT_TRUE(same(nm::nxv_pow(kNaN, 0.0), 1.0));
  EXPECT_TRUE(same(nm::nxv_pow(kNaN, -0.0), 1.0));
  EXPECT_TRUE(same(nm::nxv_pow(1.0, kNaN), 1.0));
  EXPECT_TRUE(same(nm::nxv_pow(-1.0, kInf), 1.0));
  EXPECT_TRUE(same(nm::nxv_pow(-1.0, -kInf), 1.0));
  EXPECT_TRUE(same(nm::nxv_pow(-0.0, 3.0), -0.0));
  EXPECT_TRUE(same(nm::nxv_pow(-0.0, -3.0), -kInf));
  EXPECT_TRUE(same(nm::nxv_pow(-0.0, 0.5), 0.0));
  EXPECT_TRUE(same(nm::nxv_pow(-0.0, -0.5), kInf));
  EXPECT_TRUE(same(nm::nxv_pow(-kInf, 3.0), -kInf));
  EXPECT_TRUE(same(nm::nxv_pow(-kInf, -3.0), -0.0));
  EXPECT_TRUE(same(nm::nxv_pow(-kInf, 0.5), kInf));
  EXPECT_TRUE(std::isnan(nm::nxv_pow(-2.0, 0.5)));
  EXPECT_TRUE(same(nm::nxv_pow(-2.0, 3.0), -8.0));
  EXPECT_LE(ulp_dist(nm::nxv_pow(2.0, 0.5), std::sqrt(2.0)), 1u);  // no sqrt special case
  EXPECT_TRUE(same(nm::nxv_pow(-8.0, 1.0 / 3.0), kNaN));
  EXPECT_TRUE(same(nm::nxv_fmod(5.5, 0.0), kNaN));
  EXPECT_TRUE(same(nm::nxv_fmod(kInf, 2.0), kNaN));
  EXPECT_TRUE(same(nm::nxv_fmod(-0.0, 2.0), -0.0));
  EXPECT_TRUE(same(nm::nxv_fmod(-4.0, 2.0), -0.0));
  EXPECT_TRUE(same(nm::nxv_fmod(5.5, kInf), 5.5));
  EXPECT_TRUE(same(nm::nxv_log(0.0), -kInf));
  EXPECT_TRUE(same(nm::nxv_log(-0.0), -kInf));
  EXPECT_TRUE(std::isnan(nm::nxv_log(-1.0)));
  EXPECT_TRUE(same(nm::nxv_log(1.0), 0.0));
  EXPECT_TRUE(same(nm::nxv_log1p(-1.0), -kInf));
  EXPECT_TRUE(same(nm::nxv_log1p(-0.0), -0.0));
  EXPECT_TRUE(same(nm::nxv_expm1(-0.0), -0.0));
  EXPECT_TRUE(same(nm::nxv_expm1(-kInf), -1.0));
  EXPECT_TRUE(same(nm::nxv_exp(-kInf), 0.0));
  EXPECT_TRUE(same(nm::nxv_exp(710.0), kInf));
  EXPECT_TRUE(same(nm::nxv_sin(-0.0), -0.0));
  EXPECT_TRUE(std::isnan(nm::nxv_sin(kInf)));
  EXPECT_TRUE(std::isnan(nm::nxv_cos(-kInf)));
  EXPECT_TRUE(same(nm::nxv_tanh(-0.0), -0.0));
  EXPECT_TRUE(same(nm::nxv_tanh(-kInf), -1.0));
  EXPECT_TRUE(same(nm::nxv_erf(-0.0), -0.0));
  EXPECT_TRUE(same(nm::nxv_erf(-kInf), -1.0));
  EXPECT_TRUE(same(nm::nxv_atan(-0.0), -0.0));
  EXPECT_TRUE(same(nm::nxv_atan2(-0.0, -0.0), -kPi));
  EXPECT_TRUE(same(nm::nxv_atan2(0.0, -0.0), kPi));
  EXPECT_TRUE(same(nm::nxv_atan2(-0.0, 0.0), -0.0));
  EXPECT_TRUE(same(nm::nxv_atan2(kInf, -kInf), 3 * kPi / 4));
  EXPECT_TRUE(same(nm::nxv_round_half_away(-0.4), -0.0));
  EXPECT_TRUE(same(nm::nxv_round_half_away(-2.5), -3.0));
  EXPECT_TRUE(same(nm::nxv_round_half_away(0.49999999999999994), 0.0));
  // NaN inputs come back quieted with sign and payload preserved
  double snan = std::bit_cast<double>(0xfff0000000000123ULL);
  EXPECT_EQ(std::bit_cast<uint64_t>(nm::nxv_exp(snan)), 0xfff8000000000123ULL);
  // NaN created from non-NaN inputs is the canonical +qNaN
  EXPECT_EQ(std::bit_cast<uint64_t>(nm::nxv_log(-1.0)), 0x7ff8000000000000ULL);
  // pow(integer, integer) is exact when representable
  EXPECT_EQ(nm::nxv_pow(3.0, 33.0), 5559060566555523.0);
  EXPECT_EQ(nm::nxv_pow(-7.0, 17.0), -232630513987207.0);
  EXPECT_EQ(nm::nxv_pow(10.0, 22.0), 1e22);
}

// Huge sin/cos arguments (Payne-Hanek reduction): expected values computed
// with mpmath at 3000 bits and rounded to double. glibc is 8 ulp off for cos
// at 6381956970095103*2^797 (the hardest case for argument reduction).
TEST(NxvMath, HugeTrig) {
  struct Case {
    double x, s, c;
  };
  const Case cases[] = {
      {0x1.0f0cf064dd592p+73, -0x1.b453ab76bf397p-1, 0x1.0be2cef01c8f4p-1},
      {0x1.0000000000000p+1023, 0x1.205248cbdb760p-1, -0x1.a719f26c232bfp-1},
      {0x1.fffffffffffffp+1023, 0x1.452fc98b34e97p-8, -0x1.fffe62ecfab75p-1},
      {0x1.6ac5b262ca1ffp+849, 0x1.0000000000000p+0, -0x1.14ae72e6ba22fp-61},
      {0x1.5a86face7e220p+755, 0x1.57a5abf436df6p-1, 0x1.7b8a3f45a3707p-1},
      {0x1.0b95d9266b8bap+997, 0x1.4eb45e29f6534p-1, 0x1.8372fc8c41565p-1},
      {0x1.1ccf385ebc8a0p+1023, 0x1.d0472b6b4d936p-2, -0x1.c859a523ff229p-1},
      {0x1.b2eed32d4b5b2p+134, -0x1.a4b60f7db920fp-4, 0x1.fd4ac4cd4de6bp-1},
      {0x1.921fb54442d18p+1000, 0x1.b921eb761288bp-1, 0x1.03e577e2d1264p-1},
  };
  for (const Case& k : cases) {
    EXPECT_LE(ulp_dist(nm::nxv_sin(k.x), k.s), 1u) << hex(k.x);
    EXPECT_LE(ulp_dist(nm::nxv_cos(k.x), k.c), 1u) << hex(k.x);
    EXPECT_LE(ulp_dist(nm::nxv_sin(-k.x), -k.s), 1u) << hex(-k.x);
    EXPECT_LE(ulp_dist(nm::nxv_cos(-k.x), k.c), 1u) << hex(-k.x);
  }
}

// The shared source's double literals are decimals that C++ (its build copy drops GLSL's lf suffix:
// cmake/cxx_from_glsl.cmake) and glslang both read as the nearest double: a few against their fdlibm hex patterns.
// The parity suites check the GPU's side: every function gives the reference's bits.
TEST(NxvMath, DecimalConstantsAreTheFdlibmDoubles) {
  EXPECT_EQ(std::bit_cast<uint64_t>(6.93147180369123816490e-01), 0x3fe62e42fee00000ULL);
  EXPECT_EQ(std::bit_cast<uint64_t>(1.90821492927058770002e-10), 0x3dea39ef35793c76ULL);
  EXPECT_EQ(std::bit_cast<uint64_t>(-2.77777777770155933842e-03), 0xBF66C16C16BEBD93ULL);
  EXPECT_EQ(std::bit_cast<uint64_t>(2.16741683877804819444e-51), 0x3569F31D00000000ULL);
}

// ============================== f32 tests ====================================

TEST(NxvMathF32, Unary) {
  auto gen_wide = [](float lo, float hi) {
    return [lo, hi](Gen& g, int i) -> float {
      switch (i % 4) {
        case 0:
          return g.anyf();
        case 1:
          return float(g.uni(lo, hi));
        case 2:
          return float(g.logu(-150, 7));
        default:
          return float(g.uni(-1, 1));
      }
    };
  };
  run_unary_f("expf", nm::nxv_expf, lmf_exp, gen_wide(-104, 89), NF, 1, ld_exp);
  run_unary_f("expm1f", nm::nxv_expm1f, lmf_expm1, gen_wide(-20, 89), NF, 1, ld_expm1);
  run_unary_f("logf", nm::nxv_logf, lmf_log, gen_wide(0, 100), NF, 1, ld_log);
  run_unary_f("log1pf", nm::nxv_log1pf, lmf_log1p, gen_wide(-1, 10), NF, 1, ld_log1p);
  run_unary_f("sinf", nm::nxv_sinf, lmf_sin, gen_wide(-1e6f, 1e6f), NF, 1, ld_sin);
  run_unary_f("cosf", nm::nxv_cosf, lmf_cos, gen_wide(-1e6f, 1e6f), NF, 1, ld_cos);
  run_unary_f("tanhf", nm::nxv_tanhf, lmf_tanh, gen_wide(-10, 10), NF, 1, ld_tanh);
  run_unary_f("erff", nm::nxv_erff, lmf_erf, gen_wide(-5, 5), NF, 1, ld_erf);
  run_unary_f("atanf", nm::nxv_atanf, lmf_atan, gen_wide(-5, 5), NF, 1, ld_atan);
  run_unary_f("sigmoidf", nm::nxv_sigmoidf, lmf_sigmoid, gen_wide(-110, 110), NF, 1);
  run_unary_f("softplusf", nm::nxv_softplusf, lmf_softplus, gen_wide(-110, 110), NF, 1);
  run_unary_f("asinf", nm::nxv_asinf, lmf_asin, gen_wide(-1, 1), NF, 1, ld_asin);
  run_unary_f("acosf", nm::nxv_acosf, lmf_acos, gen_wide(-1, 1), NF, 1, ld_acos);
  run_unary_f("erfcf", nm::nxv_erfcf, lmf_erfc, gen_wide(-5, 11), NF, 1, ld_erfc);
  run_unary_f("log_sigmoidf", nm::nxv_log_sigmoidf, lmf_log_sigmoid, gen_wide(-110, 110), NF, 1);
  run_unary_f("tanf", nm::nxv_tanf, lmf_tan, gen_wide(-1e6f, 1e6f), NF, 1, ld_tan);
  run_unary_f("sinhf", nm::nxv_sinhf, lmf_sinh, gen_wide(-90, 90), NF, 1, ld_sinh);
  run_unary_f("coshf", nm::nxv_coshf, lmf_cosh, gen_wide(-90, 90), NF, 1, ld_cosh);
  run_unary_f("asinhf", nm::nxv_asinhf, lmf_asinh, gen_wide(-1e6f, 1e6f), NF, 1, ld_asinh);
  run_unary_f("acoshf", nm::nxv_acoshf, lmf_acosh, gen_wide(1, 1e6f), NF, 1, ld_acosh);
  run_unary_f("atanhf", nm::nxv_atanhf, lmf_atanh, gen_wide(-1, 1), NF, 1, ld_atanh);
  run_unary_f("cbrtf", nm::nxv_cbrtf, lmf_cbrt, gen_wide(-1e6f, 1e6f), NF, 1, ld_cbrt);
  run_unary_f("round_half_awayf", nm::nxv_round_half_awayf, lmf_round, gen_wide(-1e7f, 1e7f), NF / 4, 0);
  run_unary_f("sqrtf", nm::nxv_sqrtf, lmf_sqrt, gen_wide(0, 1e6f), NF / 4, 0);
}

TEST(NxvMathF32, Binary) {
  run_binary_f(
      "powf", nm::nxv_powf, lmf_pow,
      [](Gen& g, int i) -> std::pair<float, float> {
        switch (i % 4) {
          case 0:
            return {g.anyf(), g.anyf()};
          case 1:
            return {float(g.logu(-20, 20, false)), float(g.uni(-10, 10))};
          case 2:
            return {float(-g.logu(-5, 5, false)), float(std::round(g.uni(-30, 30)))};
          default:
            return {float(g.uni(0.5, 2)), float(g.uni(-200, 200))};
        }
      },
      NF, 1, ld_pow);
  run_binary_f(
      "atan2f", nm::nxv_atan2f, lmf_atan2,
      [](Gen& g, int i) -> std::pair<float, float> {
        if (i % 2) return {g.anyf(), g.anyf()};
        return {float(g.uni(-10, 10)), float(g.uni(-10, 10))};
      },
      NF, 1, ld_atan2);
  run_binary_f(
      "fmodf", nm::nxv_fmodf, lmf_fmod,
      [](Gen& g, int i) -> std::pair<float, float> {
        if (i % 2) return {g.anyf(), g.anyf()};
        return {float(g.uni(-100, 100)), float(g.uni(-10, 10))};
      },
      NF / 2, 0);
  run_binary_f(
      "xlogyf", nm::nxv_xlogyf, lmf_xlogy,
      [](Gen& g, int i) -> std::pair<float, float> {
        if (i % 2) return {g.anyf(), g.anyf()};
        return {float(g.uni(-10, 10)), float(g.logu(-149, 127, false))};
      },
      NF, 1, ld_xlogy);
  run_binary_f(
      "xlog1pyf", nm::nxv_xlog1pyf, lmf_xlog1py,
      [](Gen& g, int i) -> std::pair<float, float> {
        if (i % 2) return {g.anyf(), g.anyf()};
        return {float(g.uni(-10, 10)), float(g.uni(-1, 3))};
      },
      NF, 1, ld_xlog1py);
}
