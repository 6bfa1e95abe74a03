// Models with known posteriors for the sampler tests, the samplers under test, and ESS-based checks of draws
// against the truth.
#pragma once
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "nxv/dist.hpp"
#include "nxv/mcmc.hpp"
#include "nxv/ops.hpp"

namespace nxv::mcmc_test {

// The samplers every posterior test runs. NUTS joins when its kernel lands: add mcmc::Sampler::nuts here.
inline const std::vector<mcmc::Sampler> kSamplers = {mcmc::Sampler::hmc, mcmc::Sampler::nuts};

inline std::string sampler_name(mcmc::Sampler s) { return s == mcmc::Sampler::hmc ? "hmc" : "nuts"; }

// A constant of x's dtype on x's backend (model bodies are traced on the sampler's backend).
inline Tensor like(const Tensor& x, double v) { return scalar(v, x.dtype(), x.backend()); }
inline Tensor like(const Tensor& x, const std::vector<double>& v) {
  return as_type(tensor(v, {static_cast<std::int64_t>(v.size())}, x.backend()), x.dtype());
}

// mu ~ N(m0, s0), y_i ~ N(mu, sigma) with sigma known: mu | y ~ N(m, v), 1/v = 1/s0^2 + n/sigma^2,
// m = v (m0/s0^2 + sum y / sigma^2).
struct ConjugateNormal {
  double m0 = 1, s0 = 2, sigma = 1.5;
  std::vector<double> y = {2.1, 0.4, 3.3, 1.7, 2.9, -0.6, 1.2, 2.4, 0.9, 3.8, 1.5, 2.2};
  mcmc::Model model() const {
    mcmc::Model m;
    m.param("mu");
    m.log_density = [*this](const Params& p) {
      const Tensor& mu = p.at("mu");
      return dist::Normal(like(mu, m0), like(mu, s0)).log_prob(mu) +
             sum(dist::Normal(mu, like(mu, sigma)).log_prob(like(mu, y)));
    };
    return m;
  }
  double variance() const { return 1.0 / (1.0 / (s0 * s0) + y.size() / (sigma * sigma)); }
  double mean() const {
    double s = 0;
    for (const double v : y) s += v;
    return variance() * (m0 / (s0 * s0) + s / (sigma * sigma));
  }
};

// x ~ N(0, [[1, rho], [rho, 1]]): the density through the precision matrix 1 / (1 - rho^2) [[1, -rho], [-rho, 1]].
inline mcmc::Model correlated_gaussian(double rho) {
  mcmc::Model m;
  m.param("x", {2});
  m.log_density = [rho](const Params& p) {
    const Tensor& x = p.at("x");
    const Tensor a = reshape(slice(x, {0}, {1}), {}), b = reshape(slice(x, {1}, {1}), {});
    return (square(a) + square(b) - 2.0 * rho * a * b) * (-0.5 / (1 - rho * rho));
  };
  return m;
}

// x_i ~ N(0, scale_i), independent.
inline mcmc::Model iid_gaussian(const std::vector<double>& scales) {
  mcmc::Model m;
  m.param("x", {static_cast<std::int64_t>(scales.size())});
  m.log_density = [scales](const Params& p) {
    const Tensor& x = p.at("x");
    return sum(square(x / like(x, scales))) * -0.5;
  };
  return m;
}

// p ~ Beta(a, b) on (0, 1) through the sigmoid, k ~ Binomial(n, p): p | k ~ Beta(a + k, b + n - k).
struct BetaBinomial {
  double a = 2, b = 3, n = 20, k = 7;
  mcmc::Model model() const {
    mcmc::Model m;
    m.param("p", {}, dist::sigmoid_bijection());
    m.log_density = [*this](const Params& ps) {
      const Tensor& p = ps.at("p");
      return dist::Beta(like(p, a), like(p, b)).log_prob(p) + dist::Binomial(like(p, n), p).log_prob(like(p, k));
    };
    return m;
  }
  double mean() const { return (a + k) / (a + b + n); }
  double variance() const {
    const double a1 = a + k, b1 = b + n - k;
    return a1 * b1 / ((a1 + b1) * (a1 + b1) * (a1 + b1 + 1));
  }
};

// What one parameter element's draws say against its true mean and variance.
struct MomentCheck {
  double mean, mean_bound, variance, variance_bound, rhat, ess;
};

// draws [chains, samples] of one element. The mean's bound: 5 sd / sqrt(ESS_bulk) (a 5-sigma CLT interval, false
// alarm ~6e-7 per element). The variance's: the variance is the mean of z = (x - truth)^2, so its bound is
// 5 sd(z) / sqrt(ESS_bulk(z)) by the same CLT for z.
inline MomentCheck check_moments(const Tensor& draws, double true_mean, double true_variance) {
  const Tensor x = as_type(draws, DType::f64);
  const Tensor z = square(x - true_mean);
  const double ess = mcmc::ess_bulk(x).item(), ess_z = mcmc::ess_bulk(z).item();
  const double sd = mcmc::draws_sd(x).item(), sd_z = mcmc::draws_sd(z).item();
  return {mcmc::draws_mean(x).item(),  5 * sd / std::sqrt(ess),    mcmc::draws_mean(z).item(),
          5 * sd_z / std::sqrt(ess_z), mcmc::split_rhat(x).item(), ess};
}

// Expects the moments within their bounds and R-hat < 1.05; prints the numbers for the report.
inline void expect_moments(const std::string& what, const Tensor& draws, double true_mean, double true_variance) {
  const MomentCheck c = check_moments(draws, true_mean, true_variance);
  EXPECT_LE(std::fabs(c.mean - true_mean), c.mean_bound)
      << what << ": mean " << c.mean << ", truth " << true_mean << ", ESS " << c.ess;
  EXPECT_LE(std::fabs(c.variance - true_variance), c.variance_bound)
      << what << ": variance " << c.variance << ", truth " << true_variance;
  EXPECT_LT(c.rhat, 1.05) << what;
  std::printf(
      "  %-22s mean %9.5f (truth %9.5f, bound %.5f)  var %9.5f (truth %9.5f, bound %.5f)  ess %6.0f  rhat %.4f\n",
      what.c_str(), c.mean, true_mean, c.mean_bound, c.variance, true_variance, c.variance_bound, c.ess, c.rhat);
}

// The element `i` of a [chains, samples, n] draw tensor: [chains, samples].
inline Tensor element(const Tensor& draws, std::int64_t i) {
  return reshape(slice(draws, {0, 0, i}, {draws.dim(0), draws.dim(1), 1}), {draws.dim(0), draws.dim(1)});
}

}  // namespace nxv::mcmc_test
