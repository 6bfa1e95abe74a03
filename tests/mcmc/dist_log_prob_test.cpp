// nxv::dist log densities against scipy.stats (data/dist_reference.hpp, made once by make_dist_reference.py) and
// closed forms, the out-of-support rule, and the errors for bad parameters.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "mcmc/data/dist_reference.hpp"
#include "mcmc/dist_cases.hpp"
#include "nxv/nn.hpp"
#include "support/expect_error.hpp"

namespace nxv::testing {
namespace {

namespace ref = dist_reference;

// Tolerances: f64 within 1e-13 relative (+1e-13 absolute: values near 0 come from cancellation of O(1)
// terms); f32 within 2e-6 relative plus 1e-5 (1 + |x|) absolute: the rounding of a handful of f32 ops on terms
// as large as x log x (Poisson(250) at 300: lgamma(301) = 1414 in f32 is 6e-5 off).
struct Tol {
  double rtol, atol;
};
Tol tolerance(DType dtype) { return dtype == DType::f64 ? Tol{1e-13, 1e-13} : Tol{2e-6, 1e-5}; }

double scalar_log_prob(const ref::ScalarRow& row, DType dtype) {
  std::vector<Tensor> params;
  for (int i = 0; i < row.n_params; ++i) params.push_back(scalar(row.params[i], dtype, reference_backend()));
  return log_prob_of(row.dist, params, scalar(row.x, dtype, reference_backend())).item();
}

class ScipyReference : public ::testing::TestWithParam<DType> {};

TEST_P(ScipyReference, ScalarDistributionsMatchScipy) {
  const DType dtype = GetParam();
  const Tol tol = tolerance(dtype);
  int checked = 0;
  for (const ref::ScalarRow& row : ref::kScalarRows) {
    // f32: the parameters and the point are rounded to f32 first; rows whose rounding moves the answer beyond
    // the tolerance are none in this table (its values are short decimals).
    const double got = scalar_log_prob(row, dtype);
    const double want = row.log_prob;
    if (std::isinf(want)) {
      EXPECT_EQ(got, want) << row.dist << " at " << row.x;
    } else {
      const double scale = dtype == DType::f64 ? 1.0 : 1 + std::abs(row.x);
      EXPECT_NEAR(got, want, tol.atol * scale + tol.rtol * std::abs(want))
          << row.dist << "(" << row.params[0] << ", ...) at " << row.x << " in " << std::string(name(dtype));
    }
    ++checked;
  }
  EXPECT_GE(checked, 120);
}

TEST_P(ScipyReference, VectorDistributionsMatchScipy) {
  const DType dtype = GetParam();
  const Tol tol = tolerance(dtype);
  int checked = 0;
  for (const ref::VectorRow& row : ref::kVectorRows) {
    std::vector<Tensor> params;
    for (int i = 0; i < row.n_params; ++i)
      params.push_back(as_type(tensor(std::vector<double>(row.params[i], row.params[i] + row.k), {row.k}), dtype));
    const bool categorical = std::string(row.dist) == "Categorical";
    const Tensor x = categorical ? scalar(row.x[0], DType::s64)
                                 : as_type(tensor(std::vector<double>(row.x, row.x + row.k), {row.k}), dtype);
    const double got = log_prob_of(row.dist, params, x).item();
    EXPECT_NEAR(got, row.log_prob, tol.atol + tol.rtol * std::abs(row.log_prob))
        << row.dist << " in " << std::string(name(dtype));
    ++checked;
  }
  EXPECT_GE(checked, 8);
}

INSTANTIATE_TEST_SUITE_P(Dtypes, ScipyReference, ::testing::Values(DType::f64, DType::f32),
                         [](const auto& info) { return std::string(name(info.param)); });

Tensor f64(double v) { return scalar(v, DType::f64); }

// Closed forms at points where the density is a short expression.
TEST(DistClosedForm, DensitiesAtTheirSimplePoints) {
  using namespace nxv::dist;
  const double log2pi = std::log(2 * std::numbers::pi), pi = std::numbers::pi;
  EXPECT_DOUBLE_EQ(Normal(f64(3), f64(2)).log_prob(f64(3)).item(), -std::log(2.0) - 0.5 * log2pi);
  EXPECT_DOUBLE_EQ(Normal(f64(0), f64(1)).log_prob(f64(1)).item(), -0.5 - 0.5 * log2pi);
  EXPECT_DOUBLE_EQ(HalfNormal(f64(1)).log_prob(f64(0)).item(), 0.5 * std::log(2 / pi));
  EXPECT_DOUBLE_EQ(Cauchy(f64(1), f64(3)).log_prob(f64(1)).item(), -std::log(3 * pi));
  EXPECT_DOUBLE_EQ(Cauchy(f64(0), f64(1)).log_prob(f64(1)).item(), -std::log(2 * pi));
  EXPECT_DOUBLE_EQ(HalfCauchy(f64(1)).log_prob(f64(1)).item(), -std::log(pi));
  EXPECT_DOUBLE_EQ(Laplace(f64(-1), f64(4)).log_prob(f64(-1)).item(), -std::log(8.0));
  EXPECT_DOUBLE_EQ(Logistic(f64(0), f64(1)).log_prob(f64(0)).item(), -std::log(4.0));
  EXPECT_DOUBLE_EQ(Exponential(f64(3)).log_prob(f64(0)).item(), std::log(3.0));
  EXPECT_DOUBLE_EQ(Exponential(f64(3)).log_prob(f64(2)).item(), std::log(3.0) - 6);
  EXPECT_DOUBLE_EQ(LogNormal(f64(0), f64(1)).log_prob(f64(1)).item(), -0.5 * log2pi);
  EXPECT_DOUBLE_EQ(Uniform(f64(2), f64(6)).log_prob(f64(5)).item(), -std::log(4.0));
  EXPECT_DOUBLE_EQ(Weibull(f64(2), f64(1)).log_prob(f64(0)).item(), -std::log(2.0));  // Exponential(1/2)
  // Truncated to [loc, inf): twice the normal's density.
  EXPECT_NEAR(TruncatedNormal(f64(0), f64(1), f64(0), f64(INFINITY)).log_prob(f64(0.5)).item(),
              std::log(2.0) - 0.125 - 0.5 * log2pi, 1e-15);
  EXPECT_DOUBLE_EQ(BernoulliProbs(f64(0.25)).log_prob(f64(1)).item(), std::log(0.25));
  EXPECT_DOUBLE_EQ(BernoulliProbs(f64(0.25)).log_prob(scalar(0, DType::s64)).item(), std::log(0.75));
  EXPECT_DOUBLE_EQ(BernoulliLogits(f64(0)).log_prob(f64(1)).item(), -std::log(2.0));
  // Equal logits: each of k categories has probability 1/k.
  EXPECT_DOUBLE_EQ(Categorical(tensor<double>({7, 7, 7, 7}, {4})).log_prob(scalar(2, DType::s64)).item(),
                   -std::log(4.0));
  EXPECT_DOUBLE_EQ(MultivariateNormalDiag(tensor<double>({1, 2}, {2}), tensor<double>({1, 1}, {2}))
                       .log_prob(tensor<double>({1, 2}, {2}))
                       .item(),
                   -log2pi);
  // With lgamma: Gamma(1, b) is Exponential(b); Beta(1, 1) is Uniform(0, 1); StudentT(1) is Cauchy.
  EXPECT_DOUBLE_EQ(Gamma(f64(1), f64(3)).log_prob(f64(2)).item(), std::log(3.0) - 6);
  EXPECT_DOUBLE_EQ(Gamma(f64(2), f64(1)).log_prob(f64(1)).item(), -1);         // x e^-x
  EXPECT_DOUBLE_EQ(InverseGamma(f64(1), f64(1)).log_prob(f64(1)).item(), -1);  // x^-2 e^(-1/x)
  EXPECT_DOUBLE_EQ(Beta(f64(1), f64(1)).log_prob(f64(0.3)).item(), 0);
  EXPECT_NEAR(Beta(f64(2), f64(1)).log_prob(f64(0.25)).item(), std::log(0.5), 1e-15);  // 2x
  EXPECT_NEAR(StudentT(f64(1), f64(0), f64(1)).log_prob(f64(1)).item(), -std::log(2 * pi), 1e-15);
  EXPECT_DOUBLE_EQ(Poisson(f64(2)).log_prob(scalar(0, DType::s64)).item(), -2);
  EXPECT_NEAR(Poisson(f64(2)).log_prob(f64(3)).item(), std::log(8.0 / 6) - 2, 1e-15);
  EXPECT_NEAR(Binomial(f64(4), f64(0.5)).log_prob(f64(2)).item(), std::log(6.0 / 16), 1e-15);
  EXPECT_NEAR(NegativeBinomial(f64(1), f64(0.25)).log_prob(f64(2)).item(), std::log(0.75 * 0.0625), 1e-15);
  EXPECT_NEAR(Dirichlet(tensor<double>({1, 1, 1}, {3})).log_prob(tensor<double>({0.2, 0.3, 0.5}, {3})).item(),
              std::log(2.0), 1e-15);  // the uniform density on the 2-simplex: Gamma(3)
}

// The rule of dist.hpp: -inf outside the support, NaN at NaN, and a zero gradient outside.
TEST(DistSupport, OutsideTheSupportIsMinusInfinityAndNaNStaysNaN) {
  using namespace nxv::dist;
  const double inf = INFINITY;
  struct Case {
    std::string dist;
    std::vector<double> params, outside;
  };
  const std::vector<Case> cases = {
      {"HalfNormal", {1}, {-1e-300, -1, -inf}},
      {"HalfCauchy", {1}, {-0.5, -inf}},
      {"Exponential", {2}, {-1e-3, -inf}},
      {"LogNormal", {0, 1}, {0, -0.0, -2, -inf}},
      {"Uniform", {0, 1}, {-1e-9, 1.0000001, inf}},
      {"Weibull", {1, 2}, {-3}},
      {"TruncatedNormal", {0, 1, -1, 2}, {-1.5, 2.5, inf, -inf}},
      {"BernoulliProbs", {0.5}, {0.5, 2, -1}},
      {"BernoulliLogits", {0.5}, {0.5, 2, -1}},
      {"Gamma", {2, 1}, {-1, -inf}},
      {"InverseGamma", {2, 1}, {0, -1, -inf}},
      {"Beta", {2, 3}, {-0.1, 1.1, inf}},
      {"Binomial", {5, 0.3}, {-1, 6, 2.5, inf}},
      {"Poisson", {3}, {-1, 2.5, inf}},
      {"NegativeBinomial", {3, 0.4}, {-1, 0.5, inf}},
  };
  for (const Case& c : cases) {
    std::vector<Tensor> params;
    for (const double p : c.params) params.push_back(f64(p));
    for (const double x : c.outside)
      EXPECT_EQ(log_prob_of(c.dist, params, f64(x)).item(), -inf) << c.dist << " at " << x;
    EXPECT_TRUE(std::isnan(log_prob_of(c.dist, params, f64(NAN)).item())) << c.dist << " at NaN";
    // The gradient outside is 0, not NaN: the density is never evaluated out there.
    const Tensor g = grad([&](const Tensor& x) { return log_prob_of(c.dist, params, x); })(f64(c.outside[0]));
    EXPECT_EQ(g.item(), 0.0) << c.dist;
  }
  const Tensor logits = tensor<double>({0, 1, 2}, {3});
  for (const double k : {-1.0, 3.0, 0.5})
    EXPECT_EQ(Categorical(logits).log_prob(f64(k)).item(), -inf) << "Categorical at " << k;
  EXPECT_EQ(Categorical(logits).log_prob(scalar(5, DType::s64)).item(), -inf);
  const Dirichlet dir(tensor<double>({2, 3, 4}, {3}));
  for (const std::vector<double>& x : {std::vector<double>{0.5, 0.6, -0.1}, {0.2, 0.2, 0.2}, {1, 0, 0.01}})
    EXPECT_EQ(dir.log_prob(tensor(x, {3})).item(), -inf) << "Dirichlet at " << x[0] << ", " << x[1] << ", " << x[2];
  EXPECT_TRUE(std::isnan(dir.log_prob(tensor<double>({0.5, NAN, 0.5}, {3})).item()));
  EXPECT_EQ(
      grad([&](const Tensor& x) { return dir.log_prob(x); })(tensor<double>({0.5, 0.6, -0.1}, {3})).to_vector<double>(),
      (std::vector<double>{0, 0, 0}));
}

TEST(DistSupport, SupportsAreDeclared) {
  using namespace nxv::dist;
  EXPECT_EQ(Normal::support(), Support::real);
  EXPECT_EQ(HalfNormal::support(), Support::nonnegative);
  EXPECT_EQ(LogNormal::support(), Support::positive);
  EXPECT_EQ(Uniform::support(), Support::interval);
  EXPECT_EQ(BernoulliLogits::support(), Support::boolean);
  EXPECT_EQ(Categorical::support(), Support::integer_interval);
  EXPECT_EQ(MultivariateNormalDiag::support(), Support::real_vector);
  EXPECT_EQ(Beta::support(), Support::unit_interval);
  EXPECT_EQ(Poisson::support(), Support::nonnegative_integer);
  EXPECT_EQ(Binomial::support(), Support::integer_interval);
  EXPECT_EQ(Dirichlet::support(), Support::simplex);
  EXPECT_EQ(InverseGamma::support(), Support::positive);
  EXPECT_STREQ(name(Support::unit_interval), "unit_interval");
}

using testing::expect_error;

TEST(DistErrors, BadParametersNameTheDistribution) {
  using namespace nxv::dist;
  const Tensor a3 = zeros({3}, DType::f64), a4 = ones({4}, DType::f64);
  expect_error([&] { Normal(a3, a4); }, {"Normal", "[3]"});
  expect_error([&] { TruncatedNormal(f64(0), f64(1), a3, a4); }, {"TruncatedNormal", "[4]"});
  expect_error([&] { Normal(f64(0), scalar(1, DType::s64)); }, {"Normal", "s64"});
  expect_error([&] { Laplace(f64(0), scalar(1, DType::f32)); }, {"Laplace", "one dtype"});
  expect_error([&] { Exponential(scalar(1, DType::s32)); }, {"Exponential", "s32"});
  expect_error([&] { Categorical(f64(1)); }, {"Categorical", "rank >= 1"});
  expect_error([&] { Categorical(zeros({2, 0}, DType::f64)); }, {"Categorical", "at least one category"});
  expect_error([&] { MultivariateNormalDiag(a3, a4); }, {"MultivariateNormalDiag", "event shapes"});
  expect_error([&] { StudentT(a3, a4, f64(1)); }, {"StudentT", "[4]"});
  expect_error([&] { Gamma(a3, scalar(1, DType::f32)); }, {"Gamma", "one dtype"});
  expect_error([&] { Binomial(scalar(10, DType::s64), f64(0.5)); }, {"Binomial", "s64"});
  expect_error([&] { Dirichlet(f64(1)); }, {"Dirichlet", "rank >= 1"});
  expect_error([&] { Poisson(f64(1)).log_prob(scalar(1, DType::f32)); }, {"Poisson", "integer"});
  // Values: a continuous distribution takes its own dtype; shapes must broadcast against the batch.
  expect_error([&] { Normal(a3, a3).log_prob(scalar(1, DType::f32)); }, {"Normal", "f32"});
  expect_error([&] { Normal(a3, a3).log_prob(scalar(1, DType::s64)); }, {"Normal", "s64"});
  expect_error([&] { Normal(a3, a3).log_prob(a4); }, {"Normal", "[4]"});
  expect_error([&] { MultivariateNormalDiag(a3, a3).log_prob(a4); }, {"MultivariateNormalDiag", "trailing axes"});
  expect_error([&] { BernoulliProbs(f64(0.5)).log_prob(scalar(1, DType::f32)); }, {"BernoulliProbs", "integer"});
}

}  // namespace
}  // namespace nxv::testing
