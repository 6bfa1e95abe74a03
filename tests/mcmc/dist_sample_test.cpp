// nxv::dist samplers: moments and a Kolmogorov-Smirnov test against the CDF, at a fixed seed, in f64 and f32.
//
// Bounds (the draws are fixed by the seed, so these are the levels at which a correct sampler would fail for
// some seed): mean within 5 standard errors (sigma / sqrt(n)); variance within 5 standard errors of the sample
// variance, sqrt((m4 - s^4) / n) with m4 the sample's fourth central moment (~6e-7 two-sided each, normal
// approximation); KS statistic below its critical value at alpha = 0.001 (support/ks.hpp).
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <numbers>

#include "mcmc/cdfs.hpp"
#include "mcmc/dist_cases.hpp"
#include "nxv/nn.hpp"
#include "support/ks.hpp"

namespace nxv::testing {
namespace {

constexpr std::int64_t kDraws = 20000;
constexpr double kAlpha = 1e-3;

double phi(double z) { return 0.5 * std::erfc(-z / std::numbers::sqrt2); }

// The CDF of a count distribution from its log mass function.
std::function<double(double)> count_cdf(std::function<double(double)> log_pmf) {
  return [log_pmf](double x) {
    double f = 0;
    for (int k = 0; k <= x; ++k) f += std::exp(log_pmf(k));
    return f;
  };
}

struct SampleCase {
  std::string dist;
  std::vector<double> params;
  std::function<double(double)> cdf;
  double mean = NAN, variance = NAN;  // NaN: not finite (only the KS test)
  bool discrete = false;
  long lo = 0, hi = 0;  // the discrete support checked by the KS statistic
};

std::vector<SampleCase> sample_cases() {
  const double pi = std::numbers::pi;
  const auto trunc = [](double m, double s, double a, double b) {
    return [=](double x) { return (phi((x - m) / s) - phi((a - m) / s)) / (phi((b - m) / s) - phi((a - m) / s)); };
  };
  // The moments of a normal truncated to [a, b] (standardised alpha, beta).
  const auto trunc_moments = [](double m, double s, double a, double b) {
    const double al = (a - m) / s, be = (b - m) / s;
    const double pdf_a = std::exp(-al * al / 2) / std::sqrt(2 * std::numbers::pi),
                 pdf_b = std::exp(-be * be / 2) / std::sqrt(2 * std::numbers::pi);
    const double z = phi(be) - phi(al);
    const double r = (pdf_a - pdf_b) / z;
    const double var = s * s * (1 + (al * pdf_a - (std::isinf(be) ? 0 : be * pdf_b)) / z - r * r);
    return std::pair<double, double>{m + s * r, var};
  };
  const auto t1 = trunc_moments(1, 2, -1, 4), t2 = trunc_moments(0, 1, 2.5, INFINITY);
  return {
      {"Normal", {0.5, 2}, [](double x) { return phi((x - 0.5) / 2); }, 0.5, 4},
      {"HalfNormal",
       {1.5},
       [](double x) { return std::erf(x / 1.5 / std::numbers::sqrt2); },
       1.5 * std::sqrt(2 / pi),
       2.25 * (1 - 2 / pi)},
      {"Cauchy", {-1, 0.5}, [pi](double x) { return 0.5 + std::atan((x + 1) / 0.5) / pi; }},
      {"HalfCauchy", {2}, [pi](double x) { return 2 / pi * std::atan(x / 2); }},
      {"Laplace",
       {1, 0.7},
       [](double x) { return x < 1 ? 0.5 * std::exp((x - 1) / 0.7) : 1 - 0.5 * std::exp(-(x - 1) / 0.7); },
       1,
       2 * 0.49},
      {"Logistic", {0, 1.5}, [](double x) { return 1 / (1 + std::exp(-x / 1.5)); }, 0, 2.25 * pi * pi / 3},
      {"Exponential", {2.5}, [](double x) { return 1 - std::exp(-2.5 * x); }, 0.4, 0.16},
      {"LogNormal",
       {0.3, 0.8},
       [](double x) { return phi((std::log(x) - 0.3) / 0.8); },
       std::exp(0.3 + 0.32),
       (std::exp(0.64) - 1) * std::exp(0.6 + 0.64)},
      {"Uniform", {-1, 3}, [](double x) { return (x + 1) / 4; }, 1, 16.0 / 12},
      {"Weibull",
       {2, 1.5},
       [](double x) { return 1 - std::exp(-std::pow(x / 2, 1.5)); },
       2 * std::tgamma(1 + 1 / 1.5),
       4 * (std::tgamma(1 + 2 / 1.5) - std::pow(std::tgamma(1 + 1 / 1.5), 2))},
      {"TruncatedNormal", {1, 2, -1, 4}, trunc(1, 2, -1, 4), t1.first, t1.second},
      {"TruncatedNormal", {0, 1, 2.5, INFINITY}, trunc(0, 1, 2.5, INFINITY), t2.first, t2.second},
      {"BernoulliProbs", {0.3}, [](double x) { return x < 0   ? 0
                                                      : x < 1 ? 0.7
                                                              : 1; }, 0.3, 0.21, true, 0, 1},
      {"BernoulliLogits",
       {-1},
       [](double x) { return x < 0   ? 0
                             : x < 1 ? 1 - 1 / (1 + std::exp(1.0))
                                     : 1; },
       1 / (1 + std::exp(1.0)),
       (1 / (1 + std::exp(1.0))) * (1 - 1 / (1 + std::exp(1.0))),
       true,
       0,
       1},
      {"StudentT", {5, 0.5, 2}, [](double x) { return student_t_cdf(5, (x - 0.5) / 2); }, 0.5, 4 * 5.0 / 3},
      {"StudentT", {1.5, 0, 1}, [](double x) { return student_t_cdf(1.5, x); }},  // infinite variance
      {"Gamma", {2.5, 1.5}, [](double x) { return gamma_p(2.5, 1.5 * x); }, 2.5 / 1.5, 2.5 / 2.25},
      {"Gamma", {0.4, 2}, [](double x) { return gamma_p(0.4, 2 * x); }, 0.2, 0.1},  // the boost, alpha < 1
      {"Gamma", {1, 1}, [](double x) { return gamma_p(1, x); }, 1, 1},
      {"Gamma", {300, 3}, [](double x) { return gamma_p(300, 3 * x); }, 100, 300.0 / 9},
      {"InverseGamma", {5, 2}, [](double x) { return 1 - gamma_p(5, 2 / x); }, 0.5, 4.0 / 16 / 3},
      {"Beta", {2, 5}, [](double x) { return beta_i(2, 5, x); }, 2.0 / 7, 10.0 / (49 * 8)},
      {"Beta", {0.5, 0.5}, [](double x) { return beta_i(0.5, 0.5, x); }, 0.5, 0.125},
      {"Poisson",
       {3.5},
       count_cdf([](double k) { return k * std::log(3.5) - 3.5 - std::lgamma(k + 1); }),
       3.5,
       3.5,
       true,
       0,
       20},
      {"Poisson",
       {250},
       count_cdf([](double k) { return k * std::log(250.0) - 250 - std::lgamma(k + 1); }),
       250,
       250,
       true,
       180,
       320},
      {"Binomial",
       {10, 0.3},
       count_cdf([](double k) {
         return std::lgamma(11) - std::lgamma(k + 1) - std::lgamma(11 - k) + k * std::log(0.3) +
                (10 - k) * std::log(0.7);
       }),
       3,
       2.1,
       true,
       0,
       10},
      {"Binomial",
       {200, 0.7},
       count_cdf([](double k) {  // BTRS on the flipped side
         return std::lgamma(201) - std::lgamma(k + 1) - std::lgamma(201 - k) + k * std::log(0.7) +
                (200 - k) * std::log(0.3);
       }),
       140,
       42,
       true,
       100,
       180},
      {"NegativeBinomial",
       {4, 0.3},
       count_cdf([](double k) {
         return std::lgamma(k + 4) - std::lgamma(4) - std::lgamma(k + 1) + 4 * std::log(0.7) + k * std::log(0.3);
       }),
       4 * 0.3 / 0.7,
       4 * 0.3 / 0.49,
       true,
       0,
       30},
  };
}

struct Moments {
  double mean, variance, m4;
};
Moments moments(const std::vector<double>& x) {
  double m = 0;
  for (const double v : x) m += v;
  m /= x.size();
  double v2 = 0, v4 = 0;
  for (const double v : x) {
    v2 += (v - m) * (v - m);
    v4 += std::pow(v - m, 4);
  }
  return {m, v2 / (x.size() - 1), v4 / x.size()};
}

void check_draws(const std::string& what, const std::vector<double>& x, const SampleCase& c) {
  const double n = static_cast<double>(x.size());
  if (!std::isnan(c.mean)) {
    const Moments m = moments(x);
    EXPECT_NEAR(m.mean, c.mean, 5 * std::sqrt(c.variance / n)) << what << ": mean";
    EXPECT_NEAR(m.variance, c.variance, 5 * std::sqrt((m.m4 - m.variance * m.variance) / n)) << what << ": variance";
  }
  const double d = c.discrete ? discrete_ks_statistic(x, c.cdf, c.lo, c.hi) : ks_statistic(x, c.cdf);
  EXPECT_LT(d, ks_critical_value(x.size(), kAlpha)) << what << ": KS statistic";
}

class DistSample : public ::testing::TestWithParam<DType> {};

TEST_P(DistSample, MomentsAndKolmogorovSmirnov) {
  const DType dtype = GetParam();
  for (const SampleCase& c : sample_cases()) {
    std::vector<Tensor> params;
    for (const double p : c.params) params.push_back(scalar(p, dtype));
    const Tensor draws = sample_of(c.dist, params, nn::key_tensor(key(2026)), {kDraws});
    ASSERT_EQ(draws.shape(), (Shape{kDraws})) << c.dist;
    ASSERT_EQ(draws.dtype(), c.discrete ? DType::s64 : dtype) << c.dist;
    const std::vector<double> x = as_type(draws, DType::f64).to_vector<double>();
    for (const double v : x) ASSERT_TRUE(std::isfinite(v)) << c.dist << " drew " << v;
    // Every draw lies in the support: its log density is not -inf (nor NaN). It may be +inf: Beta(1/2, 1/2) in f32
    // draws exact 0s and 1s (x / (x + y) rounds), where the density is infinite.
    const Tensor lp = log_prob_of(c.dist, params, draws);
    EXPECT_FALSE(any(logical_or(is_nan(lp), equal(lp, -INFINITY))).item()) << c.dist << " drew outside";
    check_draws(c.dist + "(" + std::to_string(c.params[0]) + ", ...) in " + std::string(name(dtype)), x, c);
  }
}

TEST_P(DistSample, CategoricalFrequenciesAndDiagonalNormalMoments) {
  const DType dtype = GetParam();
  const std::vector<double> logits = {0.5, -1, 2, 0};
  double z = 0;
  for (const double l : logits) z += std::exp(l);
  const Tensor k = dist::Categorical(as_type(tensor(logits, {4}), dtype)).sample(nn::key_tensor(key(5)), {kDraws});
  ASSERT_EQ(k.dtype(), DType::s64);
  const std::vector<double> ks = as_type(k, DType::f64).to_vector<double>();
  double below = 0;
  SampleCase c{"Categorical", {}, [&](double x) {
                 double f = 0;
                 for (int i = 0; i <= x && i < 4; ++i) f += std::exp(logits[i]) / z;
                 return f;
               }};
  c.discrete = true;
  c.lo = 0;
  c.hi = 3;
  for (int i = 0; i < 4; ++i) below += std::exp(logits[i]) / z * i;
  c.mean = below;
  double second = 0;
  for (int i = 0; i < 4; ++i) second += std::exp(logits[i]) / z * i * i;
  c.variance = second - below * below;
  check_draws(std::string("Categorical in ") + std::string(name(dtype)), ks, c);

  // Each coordinate of the diagonal normal is its own normal.
  const Tensor loc = as_type(tensor<double>({-1, 4}, {2}), dtype), sd = as_type(tensor<double>({0.5, 3}, {2}), dtype);
  const Tensor draws = dist::MultivariateNormalDiag(loc, sd).sample(nn::key_tensor(key(6)), {kDraws});
  ASSERT_EQ(draws.shape(), (Shape{kDraws, 2}));
  const std::vector<double> all = as_type(draws, DType::f64).to_vector<double>();
  const double locs[2] = {-1, 4}, sds[2] = {0.5, 3};
  for (int j = 0; j < 2; ++j) {
    std::vector<double> x;
    for (std::int64_t i = 0; i < kDraws; ++i) x.push_back(all[i * 2 + j]);
    const double m = locs[j], s = sds[j];
    check_draws("MultivariateNormalDiag[" + std::to_string(j) + "]", x,
                {"", {}, [m, s](double v) { return phi((v - m) / s); }, m, s * s});
  }

  // Each coordinate of a Dirichlet is a Beta(a_j, sum(a) - a_j).
  const std::vector<double> alpha = {2, 0.5, 3.5};
  const Tensor simplex = dist::Dirichlet(as_type(tensor(alpha, {3}), dtype)).sample(nn::key_tensor(key(7)), {kDraws});
  ASSERT_EQ(simplex.shape(), (Shape{kDraws, 3}));
  const std::vector<double> points = as_type(simplex, DType::f64).to_vector<double>();
  for (int j = 0; j < 3; ++j) {
    std::vector<double> x;
    for (std::int64_t i = 0; i < kDraws; ++i) x.push_back(points[i * 3 + j]);
    const double a = alpha[j], b = 6 - a;
    check_draws("Dirichlet[" + std::to_string(j) + "]", x,
                {"", {}, [a, b](double v) { return beta_i(a, b, v); }, a / 6, a * b / (36 * 7)});
  }
}

INSTANTIATE_TEST_SUITE_P(Dtypes, DistSample, ::testing::Values(DType::f64, DType::f32),
                         [](const auto& info) { return std::string(name(info.param)); });

// Draws depend only on the key: the same key gives the same draws, another key others.
TEST(DistSampleChecks, DrawsAreAFunctionOfTheKey) {
  const dist::Normal d(scalar(0.0, DType::f64), scalar(1.0, DType::f64));
  const auto a = d.sample(nn::key_tensor(key(1)), {64}).to_vector<double>();
  EXPECT_EQ(a, d.sample(nn::key_tensor(key(1)), {64}).to_vector<double>());
  EXPECT_NE(a, d.sample(nn::key_tensor(key(2)), {64}).to_vector<double>());
}

// The KS test of support/ks.hpp can fail: draws of one distribution against another's CDF are rejected.
TEST(DistSampleChecks, KolmogorovSmirnovRejectsTheWrongDistribution) {
  const Tensor draws =
      dist::Normal(scalar(0.0, DType::f64), scalar(1.1, DType::f64)).sample(nn::key_tensor(key(9)), {kDraws});
  const double d = ks_statistic(draws.to_vector<double>(), phi);
  EXPECT_GT(d, ks_critical_value(kDraws, kAlpha));
}

}  // namespace
}  // namespace nxv::testing
