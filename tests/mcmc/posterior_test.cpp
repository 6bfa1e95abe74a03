// Posteriors with known answers: the sampler's means and variances within ESS-based bounds of the truth and R-hat
// below 1.05, for every sampler in kSamplers, with a few hundred chains and short runs. They run on the reference
// backend: the Vulkan sampler gives the same bits (sampler_test.cpp's parity test), and on lavapipe a 256-chain run
// costs about 25x more (shader compilation and ~170 dispatches per iteration); one posterior runs there too.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "mcmc/posterior_models.hpp"
#include "nxv/vulkan.hpp"
#include "support/env.hpp"

namespace nxv::mcmc_test {
namespace {

struct Case {
  mcmc::Sampler sampler;
  std::string backend;  // "reference" or "vulkan"
};

std::vector<Case> cases() {
  std::vector<Case> c;
  for (const mcmc::Sampler s : kSamplers) c.push_back({s, "reference"});
  return c;
}

// Both samplers through the chain shaders (one invocation per chain runs the whole transition: NUTS's tree is a
// loop of the kernel, not ~1,700 dispatches per iteration as vectorized).
std::vector<Case> vulkan_cases() { return {{mcmc::Sampler::hmc, "vulkan"}, {mcmc::Sampler::nuts, "vulkan"}}; }

class Posterior : public ::testing::TestWithParam<Case> {
 protected:
  void SetUp() override {
    if (GetParam().backend == "vulkan" && !vulkan::available()) GTEST_SKIP() << "no Vulkan device";
  }
};

mcmc::SampleOptions short_run(const Case& c, std::uint64_t seed) {
  mcmc::SampleOptions o;
  o.sampler = c.sampler;
  o.chains = 256;
  o.warmup = 200;
  o.samples = 100;
  o.seed = seed;
  o.num_steps = 8;
  o.step_size_jitter = 0.5;  // breaks the near-periodic trajectories fixed-length HMC has on Gaussians
  o.backend = &backend(c.backend);
  if (c.sampler == mcmc::Sampler::nuts) {
    // NUTS's draws are nearly independent, so a quarter of the chains gives ESS enough for the same bounds; on the
    // reference backend each of its leapfrog steps is ~250 ops, which makes 256 chains cost a minute per posterior.
    o.chains = 64;
    o.warmup = 150;
    o.samples = 60;
  }
  return o;
}

TEST_P(Posterior, ConjugateNormalMatchesTheAnalyticPosterior) {
  const ConjugateNormal c;
  const mcmc::Samples s = mcmc::sample(c.model(), short_run(GetParam(), 11));
  expect_moments("conjugate normal mu", s.draws.at("mu"), c.mean(), c.variance());
}

// Through the chain shaders, which NXV_CHAIN_SHADERS=auto would leave off at these chain counts.
class PosteriorOnVulkan : public Posterior {
 protected:
  test::EnvGuard chain_shaders_{"NXV_CHAIN_SHADERS", "1"};
};

TEST_P(PosteriorOnVulkan, ConjugateNormalMatchesTheAnalyticPosterior) {
  const ConjugateNormal c;
  mcmc::SampleOptions o = short_run(GetParam(), 11);
  o.chains = 64;
  const mcmc::Samples s = mcmc::sample(c.model(), o);
  EXPECT_TRUE(s.chain_shaders);
  expect_moments("conjugate normal mu", s.draws.at("mu"), c.mean(), c.variance());
}

TEST_P(PosteriorOnVulkan, CorrelatedGaussianThroughTheChainShaders) {
  const double rho = 0.9;
  mcmc::SampleOptions o = short_run(GetParam(), 12);
  const mcmc::Samples s = mcmc::sample(correlated_gaussian(rho), o);
  EXPECT_TRUE(s.chain_shaders);
  const Tensor x = s.draws.at("x");
  expect_moments("correlated x[0]", element(x, 0), 0, 1);
  expect_moments("correlated x[1]", element(x, 1), 0, 1);
  expect_moments("correlated x0*x1", element(x, 0) * element(x, 1), rho, 1 + rho * rho);
}

TEST_P(Posterior, CorrelatedGaussianHasUnitMarginalsAndCorrelation) {
  const double rho = 0.9;
  const mcmc::Samples s = mcmc::sample(correlated_gaussian(rho), short_run(GetParam(), 12));
  const Tensor x = s.draws.at("x");
  expect_moments("correlated x[0]", element(x, 0), 0, 1);
  expect_moments("correlated x[1]", element(x, 1), 0, 1);
  // E[x0 x1] = rho: the mean of the product, within 5 sd / sqrt(ESS) as the means.
  expect_moments("correlated x0*x1", element(x, 0) * element(x, 1), rho,
                 1 + rho * rho);  // Var(x0 x1) = E[x0^2 x1^2] - rho^2 = 1 + rho^2
}

TEST_P(Posterior, HundredDimensionalGaussianAdaptsTheMassMatrix) {
  std::vector<double> scales;
  for (int i = 0; i < 100; ++i) scales.push_back(0.1 * std::pow(100.0, i / 99.0));  // 0.1 .. 10, geometric
  // NUTS adapts through the same code (adaptation.cpp); its 100-D trees (~2^5 steps) cost the reference backend
  // minutes, so this posterior checks HMC only.
  if (GetParam().sampler == mcmc::Sampler::nuts) GTEST_SKIP() << "HMC only (NUTS shares the adaptation code)";
  mcmc::SampleOptions o = short_run(GetParam(), 13);
  o.chains = 128;  // d = 100: half the chains keeps the run near 15 s on the reference backend
  const mcmc::Samples s = mcmc::sample(iid_gaussian(scales), o);
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
  // The adapted inverse mass estimates the variances: the median over chains within a factor of 4 of scale^2 (a
  // regularised variance of 50 warm-up draws per chain, which underestimates the widest coordinates: chains start
  // in (-2, 2) and are still spreading to sd 10; a unit mass would miss by up to 100x).
  const std::vector<double> inv = as_type(s.inverse_mass, DType::f64).to_vector<double>();
  const std::int64_t chains = s.inverse_mass.dim(0);
  for (int i = 0; i < 100; ++i) {
    std::vector<double> col;
    for (std::int64_t c = 0; c < chains; ++c) col.push_back(inv[c * 100 + i]);
    std::nth_element(col.begin(), col.begin() + col.size() / 2, col.end());
    const double ratio = col[col.size() / 2] / (scales[i] * scales[i]);
    EXPECT_TRUE(ratio > 0.25 && ratio < 4) << "x[" << i << "]: median inverse mass / scale^2 = " << ratio;
  }
}

TEST_P(Posterior, BetaBinomialMatchesTheBetaPosterior) {
  const BetaBinomial c;
  const mcmc::Samples s = mcmc::sample(c.model(), short_run(GetParam(), 14));
  expect_moments("beta-binomial p", s.draws.at("p"), c.mean(), c.variance());
  const std::vector<double> p = s.draws.at("p").to_vector<double>();
  EXPECT_TRUE(std::all_of(p.begin(), p.end(), [](double v) { return v > 0 && v < 1; })) << "draws leave (0, 1)";
}

const auto case_name = [](const auto& info) { return sampler_name(info.param.sampler) + "_" + info.param.backend; };
INSTANTIATE_TEST_SUITE_P(Samplers, Posterior, ::testing::ValuesIn(cases()), case_name);
INSTANTIATE_TEST_SUITE_P(Samplers, PosteriorOnVulkan, ::testing::ValuesIn(vulkan_cases()), case_name);

}  // namespace
}  // namespace nxv::mcmc_test
