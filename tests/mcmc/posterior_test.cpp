// Posteriors with known answers: the sampler's means and variances within ESS-based bounds of the truth and R-hat
// below 1.05, for every sampler in kSamplers, on the Vulkan backend (lavapipe in CI; the reference backend gives
// the same bits, sampler_test.cpp's parity test), a few hundred chains and short runs.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "mcmc/posterior_models.hpp"
#include "nxv/vulkan.hpp"

namespace nxv::mcmc_test {
namespace {

Backend& sampling_backend() { return vulkan::available() ? vulkan::backend() : reference_backend(); }

mcmc::SampleOptions short_run(mcmc::Sampler sampler, std::uint64_t seed) {
  mcmc::SampleOptions o;
  o.sampler = sampler;
  o.chains = 256;
  o.warmup = 200;
  o.samples = 100;
  o.seed = seed;
  o.num_steps = 8;
  o.backend = &sampling_backend();
  return o;
}

class Posterior : public ::testing::TestWithParam<mcmc::Sampler> {};

TEST_P(Posterior, ConjugateNormalMatchesTheAnalyticPosterior) {
  const ConjugateNormal c;
  const mcmc::Samples s = mcmc::sample(c.model(), short_run(GetParam(), 11));
  expect_moments("conjugate normal mu", s.draws.at("mu"), c.mean(), c.variance());
}

TEST_P(Posterior, CorrelatedGaussianHasUnitMarginalsAndCorrelation) {
  const double rho = 0.9;
  const mcmc::Samples s = mcmc::sample(correlated_gaussian(rho), short_run(GetParam(), 12));
  const Tensor x = s.draws.at("x");
  expect_moments("correlated x[0]", element(x, 0), 0, 1);
  expect_moments("correlated x[1]", element(x, 1), 0, 1);
  // E[x0 x1] = rho: the mean of the product, within 5 sd / sqrt(ESS) as the means.
  expect_moments("correlated x0*x1", element(x, 0) * element(x, 1), rho, 1 + rho * rho);  // Var(x0 x1) = E[x0^2 x1^2] - rho^2 = 1 + rho^2
}

TEST_P(Posterior, HundredDimensionalGaussianAdaptsTheMassMatrix) {
  std::vector<double> scales;
  for (int i = 0; i < 100; ++i) scales.push_back(0.1 * std::pow(100.0, i / 99.0));  // 0.1 .. 10, geometric
  const mcmc::Samples s = mcmc::sample(iid_gaussian(scales), short_run(GetParam(), 13));
  const Tensor x = s.draws.at("x");
  for (int i = 0; i < 100; i += 11)
    expect_moments("iid x[" + std::to_string(i) + "]", element(x, i), 0, scales[i] * scales[i]);
  // Every element, less verbosely: the same bounds.
  for (int i = 0; i < 100; ++i) {
    const MomentCheck c = check_moments(element(x, i), 0, scales[i] * scales[i]);
    EXPECT_LE(std::fabs(c.mean), c.mean_bound) << "x[" << i << "]";
    EXPECT_LE(std::fabs(c.variance - scales[i] * scales[i]), c.variance_bound) << "x[" << i << "]";
    EXPECT_LT(c.rhat, 1.05) << "x[" << i << "]";
  }
  // The adapted inverse mass estimates the variances: the median over chains within a factor of 2 of scale^2 (it
  // is a regularised variance of 50 autocorrelated warm-up draws per chain; a unit mass would miss by up to 100x).
  const std::vector<double> inv = as_type(s.inverse_mass, DType::f64).to_vector<double>();
  const std::int64_t chains = s.inverse_mass.dim(0);
  for (int i = 0; i < 100; ++i) {
    std::vector<double> col;
    for (std::int64_t c = 0; c < chains; ++c) col.push_back(inv[c * 100 + i]);
    std::nth_element(col.begin(), col.begin() + col.size() / 2, col.end());
    const double ratio = col[col.size() / 2] / (scales[i] * scales[i]);
    EXPECT_TRUE(ratio > 0.5 && ratio < 2) << "x[" << i << "]: median inverse mass / scale^2 = " << ratio;
  }
}

TEST_P(Posterior, BetaBinomialMatchesTheBetaPosterior) {
  const BetaBinomial c;
  const mcmc::Samples s = mcmc::sample(c.model(), short_run(GetParam(), 14));
  expect_moments("beta-binomial p", s.draws.at("p"), c.mean(), c.variance());
  const std::vector<double> p = s.draws.at("p").to_vector<double>();
  EXPECT_TRUE(std::all_of(p.begin(), p.end(), [](double v) { return v > 0 && v < 1; })) << "draws leave (0, 1)";
}

INSTANTIATE_TEST_SUITE_P(Samplers, Posterior, ::testing::ValuesIn(kSamplers),
                         [](const auto& info) { return sampler_name(info.param); });

}  // namespace
}  // namespace nxv::mcmc_test
