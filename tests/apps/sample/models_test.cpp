// nxv-sample's built-in models: each log density at a fixed point against the same density written out here as a
// plain double loop (an independent computation), in f64 and f32, and the unconstrained density's log-Jacobian.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "nxv/ops.hpp"
#include "nxv/vulkan.hpp"
#include "sample/models.hpp"

namespace nxv::sample_app {
namespace {

double normal_lp(double x, double loc, double scale) {
  const double z = (x - loc) / scale;
  return -0.5 * z * z - std::log(scale) - 0.5 * std::log(2 * std::numbers::pi);
}
double half_cauchy_lp(double x, double scale) {
  return std::log(2 / std::numbers::pi) - std::log(scale) - std::log1p((x / scale) * (x / scale));
}
double bernoulli_logit_lp(double y, double logit) {  // y logit - log(1 + e^logit), stably
  return y * logit - (logit > 0 ? logit + std::log1p(std::exp(-logit)) : std::log1p(std::exp(logit)));
}

Tensor vec(const std::vector<double>& v, DType dtype) {
  return as_type(tensor<double>(v, {static_cast<std::int64_t>(v.size())}, reference_backend()), dtype);
}
Tensor num(double v, DType dtype) { return scalar(v, dtype, reference_backend()); }

// The model's log density at `p` in `dtype`, against `expected` (f64: 1e-12 relative; f32: 1e-5 relative, ~100
// ulps over sums of a few hundred terms).
void expect_log_density(const BuiltinModel& b, const Params& p, double expected, DType dtype) {
  const double got = b.model.log_density(p).item();
  EXPECT_NEAR(got, expected, std::abs(expected) * (dtype == DType::f64 ? 1e-12 : 1e-5)) << b.name << " " << name(dtype);
}

class SampleModels : public ::testing::TestWithParam<DType> {};

TEST_P(SampleModels, EightSchools) {
  const DType dt = GetParam();
  const double y[8] = {28, 8, -3, 7, -1, 1, 18, 12}, sigma[8] = {15, 10, 16, 11, 9, 11, 10, 18};
  const double mu = 4.4, tau = 3.6;
  const std::vector<double> eta = {0.3, -1.2, 0.05, 0.7, -0.4, 1.9, -0.8, 0.1};
  double expected = normal_lp(mu, 0, 5) + half_cauchy_lp(tau, 5);
  for (int j = 0; j < 8; ++j) expected += normal_lp(eta[j], 0, 1) + normal_lp(y[j], mu + tau * eta[j], sigma[j]);
  const BuiltinModel b = eight_schools(dt, reference_backend());
  EXPECT_EQ(b.model.dimension(), 10);
  expect_log_density(b, {{"mu", num(mu, dt)}, {"tau", num(tau, dt)}, {"eta", vec(eta, dt)}}, expected, dt);
}

TEST_P(SampleModels, LogisticRegression) {
  const DType dt = GetParam();
  const LogisticData d = generate_logistic_data(3, 50);
  const double alpha = 0.2;
  const std::vector<double> beta = {0.9, -0.4, 1.3};
  double expected = normal_lp(alpha, 0, 1);
  for (double b : beta) expected += normal_lp(b, 0, 1);
  for (std::int64_t i = 0; i < d.n; ++i) {
    double logit = alpha;
    for (std::int64_t j = 0; j < d.k; ++j) logit += d.x[i * d.k + j] * beta[j];
    expected += bernoulli_logit_lp(d.y[i], logit);
  }
  const BuiltinModel b = logistic_regression(d, dt, reference_backend());
  EXPECT_EQ(b.model.dimension(), 4);
  expect_log_density(b, {{"alpha", num(alpha, dt)}, {"beta", vec(beta, dt)}}, expected, dt);
}

TEST_P(SampleModels, HierarchicalRegression) {
  const DType dt = GetParam();
  const HierarchicalData d = generate_hierarchical_data();
  const double mu_alpha = 0.8, tau = 0.6, beta = 1.7, sigma = 0.9;
  const std::vector<double> eta = {0.1, -0.5, 1.1, 0.0, -1.4, 0.6, 0.3, -0.2};
  double expected =
      normal_lp(mu_alpha, 0, 5) + half_cauchy_lp(tau, 2.5) + normal_lp(beta, 0, 5) + half_cauchy_lp(sigma, 2.5);
  for (double e : eta) expected += normal_lp(e, 0, 1);
  for (std::size_t i = 0; i < d.y.size(); ++i)
    expected += normal_lp(d.y[i], mu_alpha + tau * eta[d.group[i]] + beta * d.x[i], sigma);
  const BuiltinModel b = hierarchical_regression(d, dt, reference_backend());
  EXPECT_EQ(b.model.dimension(), 12);
  expect_log_density(b,
                     {{"mu_alpha", num(mu_alpha, dt)},
                      {"tau", num(tau, dt)},
                      {"eta", vec(eta, dt)},
                      {"beta", num(beta, dt)},
                      {"sigma", num(sigma, dt)}},
                     expected, dt);
}

TEST_P(SampleModels, RegimeMixture) {
  const DType dt = GetParam();
  const RegimeData d = generate_regime_data();
  const std::vector<double> mu = {-1.5, 0.2, 2.5}, sigma = {0.7, 0.4, 1.1};
  const double gamma = 1.6, kappa = 0.8;
  double expected = normal_lp(gamma, 0, 2) + half_cauchy_lp(kappa, 1);
  for (int k = 0; k < 3; ++k) expected += normal_lp(mu[k], 0, 5) + half_cauchy_lp(sigma[k], 2);
  for (std::size_t i = 0; i < d.y.size(); ++i) {
    const double logits[3] = {-gamma * d.x[i], kappa, gamma * d.x[i]};
    double weight_sum = 0, mixture = 0;
    for (double l : logits) weight_sum += std::exp(l);
    for (int k = 0; k < 3; ++k)
      mixture += std::exp(logits[k]) / weight_sum * std::exp(normal_lp(d.y[i], mu[k], sigma[k]));
    expected += std::log(mixture);
  }
  const BuiltinModel b = regime_model(d, dt, reference_backend());
  EXPECT_EQ(b.model.dimension(), 8) << "8 parameters: 4 with Normal and 4 with HalfCauchy priors";
  expect_log_density(
      b, {{"mu", vec(mu, dt)}, {"gamma", num(gamma, dt)}, {"sigma", vec(sigma, dt)}, {"kappa", num(kappa, dt)}},
      expected, dt);
}

INSTANTIATE_TEST_SUITE_P(Dtypes, SampleModels, ::testing::Values(DType::f64, DType::f32),
                         [](const auto& info) { return std::string(name(info.param)); });

// The sampler's view adds log|d exp(u) / du| = u for each positive parameter (tau, here).
TEST(SampleModelsUnconstrained, EightSchoolsAddsTheLogJacobian) {
  const BuiltinModel b = eight_schools(DType::f64, reference_backend());
  const std::vector<double> q = {1.0, std::log(2.5), 0.1, 0.2, -0.3, 0.4, -0.5, 0.6, -0.7, 0.8};
  Params p = mcmc::constrain(b.model, vec(q, DType::f64));
  EXPECT_DOUBLE_EQ(p.at("tau").item(), 2.5);
  const double constrained = b.model.log_density(p).item();
  const double unconstrained = mcmc::unconstrained_log_density(b.model)(vec(q, DType::f64)).item();
  EXPECT_NEAR(unconstrained, constrained + std::log(2.5), 1e-12);
}

// On Vulkan (lavapipe here) every model gives the reference backend's log density: f64 within 1e-12 relative (the
// shared math library), f32 within 1e-5 (sums may be ordered differently).
TEST(SampleModelsVulkan, LogDensitiesMatchTheReferenceBackend) {
  if (!vulkan::available()) GTEST_SKIP() << "no Vulkan device";
  Backend& gpu = vulkan::backend();
  for (DType dt : {DType::f64, DType::f32}) {
    const auto on = [dt](Backend& b, const std::vector<double>& v) {
      return v.size() == 1 ? scalar(v[0], dt, b)
                           : as_type(tensor<double>(v, {static_cast<std::int64_t>(v.size())}, b), dt);
    };
    const std::vector<std::pair<BuiltinModel (*)(DType, Backend&), std::map<std::string, std::vector<double>>>> cases{
        {[](DType d, Backend& b) { return eight_schools(d, b); },
         {{"mu", {1.5}}, {"tau", {2.0}}, {"eta", {0.1, -0.2, 0.3, -0.4, 0.5, -0.6, 0.7, -0.8}}}},
        {[](DType d, Backend& b) { return logistic_regression(generate_logistic_data(4, 64), d, b); },
         {{"alpha", {0.3}}, {"beta", {0.5, -0.5, 1.0, 0.2}}}},
        {[](DType d, Backend& b) { return hierarchical_regression(generate_hierarchical_data(), d, b); },
         {{"mu_alpha", {1.0}},
          {"tau", {0.5}},
          {"eta", {0, 1, -1, 0.5, -0.5, 2, -2, 0.1}},
          {"beta", {2.0}},
          {"sigma", {0.6}}}},
        {[](DType d, Backend& b) { return regime_model(generate_regime_data(), d, b); },
         {{"mu", {-2, 0.5, 3}}, {"gamma", {2.0}}, {"sigma", {0.6, 0.3, 0.8}}, {"kappa", {1.0}}}}};
    for (const auto& [make, point] : cases) {
      Params on_gpu, on_host;
      for (const auto& [n, v] : point) {
        on_gpu[n] = on(gpu, v);
        on_host[n] = on(reference_backend(), v);
      }
      const BuiltinModel host_model = make(dt, reference_backend());
      const double want = host_model.model.log_density(on_host).item();
      const double got = make(dt, gpu).model.log_density(on_gpu).item();
      EXPECT_NEAR(got, want, std::abs(want) * (dt == DType::f64 ? 1e-12 : 1e-5)) << host_model.name << " " << name(dt);
    }
  }
}

// make_model reads --data for the logistic model and reports a bad file as the user's mistake.
TEST(SampleModelsOptions, MakeModelPicksTheModelAndData) {
  SampleAppOptions o;
  o.dtype = DType::f64;
  for (const char* m : {"eight_schools", "hierarchical", "regime"}) {
    o.model = m;
    EXPECT_EQ(make_model(o, reference_backend()).name, m);
  }
  o.model = "logistic";
  o.features = 5;
  o.observations = 30;
  EXPECT_EQ(make_model(o, reference_backend()).model.dimension(), 6);
  o.data = "/nonexistent/data.csv";
  EXPECT_THROW(make_model(o, reference_backend()), UsageError);
}

}  // namespace
}  // namespace nxv::sample_app
