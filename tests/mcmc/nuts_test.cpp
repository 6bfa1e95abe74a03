// nuts_transition: posteriors with known moments (a standard normal, a correlated 2-D Gaussian), determinism,
// backend parity and vectorize-vs-one-chain equality bit for bit, the depth cap, divergences and NaN densities.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "mcmc/nuts_runner.hpp"
#include "nxv/mcmc_diagnostics.hpp"
#include "nxv/vulkan.hpp"

namespace nxv::mcmc_test {
namespace {

Tensor gaussian_init(std::int64_t chains, const std::vector<double>& sd, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> z;
  std::vector<double> v;
  for (std::int64_t c = 0; c < chains; ++c) {
    for (const double s : sd) v.push_back(s * z(rng));
  }
  return from_data<double>(std::span<const double>(v), {chains, static_cast<std::int64_t>(sd.size())},
                           reference_backend());
}

Tensor no_data(std::int64_t chains) { return zeros({chains, 1}, DType::f64, reference_backend()); }

Tensor standard_normal_density(const Tensor& q, const Tensor&) { return sum(square(q)) * -0.5; }

double mean_of(const std::vector<double>& v) {
  double s = 0;
  for (const double x : v) s += x;
  return s / static_cast<double>(v.size());
}

// The sampler statistics every run must satisfy: depth in [1, max], num_steps <= 2^depth - 1 (NumPyro's counting,
// src/mcmc/nuts.cpp), accept_stat in [0, 1].
void expect_valid_stats(const NutsRun& r, int max_depth) {
  for (std::size_t k = 0; k < r.tree_depth.size(); ++k) {
    ASSERT_GE(r.tree_depth[k], 1) << "draw " << k;
    ASSERT_LE(r.tree_depth[k], max_depth) << "draw " << k;
    ASSERT_GE(r.num_steps[k], 1) << "draw " << k;
    ASSERT_LE(r.num_steps[k], (std::int64_t{1} << r.tree_depth[k]) - 1) << "draw " << k;
    ASSERT_TRUE(r.accept[k] >= 0 && r.accept[k] <= 1) << "draw " << k << ": " << r.accept[k];
  }
}

// Mean and variance of parameter j against the truth, within bounds from the bulk ESS: the Monte Carlo standard
// error of a mean is sd / sqrt(ESS), so |mean - mu| <= 5 sd / sqrt(ESS(x)) and, with sd(x^2) = sqrt(2) var for a
// Gaussian, |E(x - mu)^2 - var| <= 5 sqrt(2) var / sqrt(ESS((x - mu)^2)). 5 standard errors: a false failure
// about once in 10^6 per check.
void expect_moments(const NutsRun& r, std::int64_t j, double mu, double var) {
  const Tensor x = r.param(j);
  const Tensor sq = square(x - mu);
  const double ess_x = mcmc::ess_bulk(expand_dims(x, 2)).to_vector<double>()[0];
  const double ess_sq = mcmc::ess_bulk(expand_dims(sq, 2)).to_vector<double>()[0];
  const double m = mean_of(x.to_vector<double>()), v = mean_of(sq.to_vector<double>());
  EXPECT_NEAR(m, mu, 5 * std::sqrt(var / ess_x)) << "parameter " << j << ", ESS " << ess_x;
  EXPECT_NEAR(v, var, 5 * std::sqrt(2.0) * var / std::sqrt(ess_sq)) << "parameter " << j << ", ESS " << ess_sq;
  const double rhat = mcmc::split_rhat(expand_dims(x, 2)).to_vector<double>()[0];
  EXPECT_LT(rhat, 1.05) << "parameter " << j;
}

// 4-D standard normal, 128 chains started from the target, 100 draws after 10 warm-up transitions.
TEST(McmcNuts, StandardNormalMomentsMatch) {
  const std::int64_t chains = 128, d = 4;
  NutsSetup s{standard_normal_density, gaussian_init(chains, std::vector<double>(d, 1.0), 1), no_data(chains), 0.6,
              std::vector<double>(d, 1.0)};
  const NutsRun r = run_nuts(s, 10, 100);
  for (std::int64_t j = 0; j < d; ++j) expect_moments(r, j, 0, 1);
  expect_valid_stats(r, 10);
  // Step size 0.6 on a unit Gaussian: Stan's accept_stat is high but not 1 (no divergences expected).
  const double accept = mean_of(r.accept);
  EXPECT_GT(accept, 0.75);
  EXPECT_LT(accept, 0.999);
  EXPECT_EQ(mean_of(std::vector<double>(r.diverging.begin(), r.diverging.end())), 0.0);
}

// sd (1, 2), correlation 0.95: covariance [[1, 1.9], [1.9, 4]]; the inverse mass is the true marginal variances.
Tensor correlated_density(const Tensor& q, const Tensor&) {
  // Precision = inverse covariance = [[4, -1.9], [-1.9, 1]] / (4 - 1.9^2).
  const double det = 4 - 1.9 * 1.9;
  const Tensor x = reshape(slice(q, {0}, {1}), {}), y = reshape(slice(q, {1}, {1}), {});
  return (square(x) * 4.0 - x * y * 3.8 + square(y)) * (-0.5 / det);
}

// Draws of the correlated Gaussian: x = z1, y = 2 (0.95 z1 + sqrt(1 - 0.95^2) z2).
Tensor correlated_init(std::int64_t chains, std::uint64_t seed) {
  const Tensor z = gaussian_init(chains, {1.0, 1.0}, seed);
  const Tensor mix = tensor<double>({1.0, 1.9, 0.0, 2 * std::sqrt(1 - 0.95 * 0.95)}, {2, 2}, reference_backend());
  return dot(z, mix);
}

TEST(McmcNuts, CorrelatedGaussianMomentsMatch) {
  const std::int64_t chains = 64;
  // Started from the target (an independent start's excess energy of ~10 takes more transitions to shed than
  // this test affords), 200 draws after 10 warm-up transitions: the draws' autocorrelation time is ~6 here, and
  // split R-hat needs chains of some length to come near 1.
  NutsSetup s{correlated_density, correlated_init(chains, 2), no_data(chains), 0.3, {1.0, 4.0}};
  const NutsRun r = run_nuts(s, 10, 200);
  expect_moments(r, 0, 0, 1);
  expect_moments(r, 1, 0, 4);
  expect_valid_stats(r, 10);
  const double accept = mean_of(r.accept);
  EXPECT_GT(accept, 0.6);
  EXPECT_LT(accept, 0.999);
}

std::vector<std::vector<double>> run_outputs(NutsKernel& k, int iterations) {
  std::vector<std::vector<double>> all;
  for (int it = 0; it < iterations; ++it) {
    for (const Tensor& t : k.advance(it))
      all.push_back(as_type(t, DType::f64).to(reference_backend()).to_vector<double>());
  }
  return all;
}

void expect_bitwise_equal(const std::vector<std::vector<double>>& a, const std::vector<std::vector<double>>& b) {
  ASSERT_EQ(a.size(), b.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    ASSERT_EQ(a[i].size(), b[i].size());
    for (std::size_t j = 0; j < a[i].size(); ++j) {
      ASSERT_EQ(std::bit_cast<std::uint64_t>(a[i][j]), std::bit_cast<std::uint64_t>(b[i][j]))
          << "output " << i % 8 << " of transition " << i / 8 << ", element " << j << ": " << a[i][j] << " vs "
          << b[i][j];
    }
  }
}

NutsSetup parity_setup() {
  return {correlated_density, gaussian_init(4, {1.0, 2.0}, 3), no_data(4), 0.3, {1.0, 4.0}, 10, 7};
}

TEST(McmcNuts, SameKeysGiveSameBitsOnBothBackends) {
  NutsKernel ref(parity_setup(), reference_backend());
  const auto expected = run_outputs(ref, 3);
  NutsKernel again(parity_setup(), reference_backend());
  expect_bitwise_equal(expected, run_outputs(again, 3));
  NutsKernel vk(parity_setup(), vulkan::backend());
  expect_bitwise_equal(expected, run_outputs(vk, 3));
}

// Chain c of the vectorized transition equals the transition of chain c alone (jitted, one chain).
TEST(McmcNuts, VectorizedChainEqualsOneChainCall) {
  const NutsSetup s = parity_setup();
  NutsKernel k(s, reference_backend());
  const std::vector<Tensor> batched = k.advance(0);
  auto one = jit([&](const Tensor& q, const Tensor& lp, const Tensor& g, const Tensor& data, const Tensor& key,
                     const Tensor& it, const Tensor& eps, const Tensor& minv) {
    return one_transition(s.model, s.max_tree_depth, q, lp, g, data, key, it, eps, minv);
  });
  NutsKernel start(s, reference_backend());  // the states before the transition
  const auto row = [](const Tensor& x, std::int64_t c) {
    Shape starts = Shape::filled(x.rank(), 0), lengths = x.shape();
    starts[0] = c, lengths[0] = 1;
    return squeeze(slice(x, starts, lengths), Axes{0});
  };
  for (std::int64_t c = 0; c < k.chains; ++c) {
    const std::vector<Tensor> single =
        one(row(start.state[0], c), row(start.state[1], c), row(start.state[2], c), row(start.data, c),
            row(start.keys, c), scalar(0, DType::s64), start.eps, start.minv);
    for (std::size_t i = 0; i < single.size(); ++i) {
      const std::vector<double> a = as_type(row(batched[i], c), DType::f64).to_vector<double>();
      const std::vector<double> b = as_type(single[i], DType::f64).to_vector<double>();
      ASSERT_EQ(a.size(), b.size());
      for (std::size_t j = 0; j < a.size(); ++j) {
        EXPECT_EQ(std::bit_cast<std::uint64_t>(a[j]), std::bit_cast<std::uint64_t>(b[j]))
            << "chain " << c << ", output " << i << ", element " << j;
      }
    }
  }
}

// A step size of 1e-3 never turns within 2^4 - 1 steps: every tree reaches the cap.
TEST(McmcNuts, TinyStepSizeHitsMaxTreeDepth) {
  NutsSetup s{standard_normal_density, gaussian_init(8, {1.0, 1.0, 1.0}, 4), no_data(8), 1e-3, {1.0, 1.0, 1.0}, 4};
  const NutsRun r = run_nuts(s, 0, 3);
  for (std::size_t k = 0; k < r.tree_depth.size(); ++k) {
    EXPECT_EQ(r.tree_depth[k], 4);
    EXPECT_EQ(r.num_steps[k], 15);
    EXPECT_EQ(r.diverging[k], 0);
    EXPECT_GT(r.accept[k], 0.99);
  }
}

// A step of 50 on a unit Gaussian: the first leapfrog step's energy error is ~ (50 q)^2 / 2 >> 1000.
TEST(McmcNuts, HugeStepSizeDiverges) {
  NutsSetup s{standard_normal_density, gaussian_init(16, {1.0, 1.0, 1.0}, 5), no_data(16), 50.0, {1.0, 1.0, 1.0}};
  const NutsRun r = run_nuts(s, 0, 3);
  const std::vector<double> start = s.init.to_vector<double>();
  for (std::size_t k = 0; k < r.diverging.size(); ++k) {
    EXPECT_EQ(r.diverging[k], 1) << "draw " << k;
    EXPECT_EQ(r.num_steps[k], 1) << "draw " << k;
    EXPECT_EQ(r.accept[k], 0.0) << "draw " << k;
  }
  // Nothing was accepted: every chain is where it started.
  for (std::int64_t c = 0; c < r.chains; ++c) {
    for (std::int64_t j = 0; j < r.d; ++j) EXPECT_EQ(r.draws[(c * r.kept + 2) * r.d + j], start[c * r.d + j]);
  }
}

// A density that is NaN (value and gradient) for q0 > 0.5: trajectories that cross it diverge, never crash, and no
// chain moves there.
Tensor nan_beyond_half(const Tensor& q, const Tensor&) {
  const Tensor q0 = reshape(slice(q, {0}, {1}), {});
  return sum(square(q)) * -0.5 + sqrt(0.5 - q0) * 0.0;
}

TEST(McmcNuts, NanDensityGivesDivergencesAndTheChainStaysFinite) {
  const std::int64_t chains = 32;
  NutsSetup s{nan_beyond_half, gaussian_init(chains, {0.1, 1.0}, 6) * 0.0 - 0.5, no_data(chains), 0.5, {1.0, 1.0}};
  const NutsRun r = run_nuts(s, 0, 20);
  std::int64_t divergences = 0;
  for (const std::int64_t dv : r.diverging) divergences += dv;
  EXPECT_GT(divergences, 0);
  for (std::int64_t k = 0; k < r.chains * r.kept; ++k) {
    ASSERT_TRUE(std::isfinite(r.draws[k * r.d]) && std::isfinite(r.draws[k * r.d + 1])) << "draw " << k;
    ASSERT_LE(r.draws[k * r.d], 0.5) << "draw " << k;
    ASSERT_TRUE(std::isfinite(r.energy[k])) << "draw " << k;
  }
  expect_valid_stats(r, 10);
}

TEST(McmcNuts, RejectsBadArguments) {
  const mcmc::LogDensity f = [](const Tensor& q) { return sum(square(q)) * -0.5; };
  const mcmc::ChainState s = mcmc::init_state(f, zeros({2}, DType::f64));
  const mcmc::KernelParams k{scalar(0.1, DType::f64), ones({2}, DType::f64)};
  EXPECT_THROW(mcmc::nuts_transition(f, s, k, nn::key_tensor(key(1)), 0), Error);
  EXPECT_THROW(mcmc::nuts_transition(f, s, k, nn::key_tensor(key(1)), 31), Error);
}

}  // namespace
}  // namespace nxv::mcmc_test
