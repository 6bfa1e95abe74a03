// Simulation-based calibration (Talts, Betancourt, Simpson, Vehtari and Gelman 2018) of nuts_transition on a small
// hierarchical model, with one chain per simulated dataset (the data batched with the chains), and the same test
// rejecting a deliberately mis-specified likelihood.
//
// Model: mu ~ N(0, 1), log sigma ~ N(0, 0.5), y_i ~ N(mu, sigma) for i = 1..5; NUTS runs on (mu, log sigma).
// N = 200 datasets, L = 19 draws each (20 warm-up transitions from an independent prior draw, then every second),
// ranks 0..19 in B = 10 bins of two; uniform ranks give chi-square with 9 degrees of freedom, rejected at level
// 0.001 above 27.877. On the reference backend: the same transition on lavapipe costs minutes here.
#include <gtest/gtest.h>

#include <random>

#include "mcmc/nuts_runner.hpp"

namespace nxv::mcmc_test {
namespace {

constexpr std::int64_t kDatasets = 200, kObservations = 5, kDraws = 19, kBins = 10;
constexpr double kChiSquareCritical = 27.877;  // chi2.ppf(0.999, df = 9)

struct Simulated {
  std::vector<double> truth;  // [N, 2]: mu, log sigma
  Tensor init;                // [N, 2]: an independent prior draw per dataset
  Tensor data;                // [N, 5]
};

Simulated simulate(std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> z;
  Simulated s;
  std::vector<double> init, y;
  for (std::int64_t n = 0; n < kDatasets; ++n) {
    const double mu = z(rng), log_sigma = 0.5 * z(rng);
    s.truth.push_back(mu), s.truth.push_back(log_sigma);
    for (std::int64_t i = 0; i < kObservations; ++i) y.push_back(mu + std::exp(log_sigma) * z(rng));
    init.push_back(z(rng)), init.push_back(0.5 * z(rng));
  }
  s.init = from_data<double>(std::span<const double>(init), {kDatasets, 2}, reference_backend());
  s.data = from_data<double>(std::span<const double>(y), {kDatasets, kObservations}, reference_backend());
  return s;
}

// The model's log density (constants dropped) with the likelihood's scale multiplied by `scale_error` (1: right).
Model hierarchical(double scale_error) {
  return [scale_error](const Tensor& q, const Tensor& y) {
    const Tensor mu = reshape(slice(q, {0}, {1}), {}), log_sigma = reshape(slice(q, {1}, {1}), {});
    const Tensor prior = square(mu) * -0.5 + square(log_sigma) * -2.0;
    const Tensor z = (y - mu) * exp(-log_sigma) * (1.0 / scale_error);
    return prior + sum(square(z)) * -0.5 - log_sigma * static_cast<double>(kObservations);
  };
}

// Pearson's chi-square of parameter j's ranks (draws below the truth) against uniform bins.
double rank_chi_square(const NutsRun& r, const Simulated& s, std::int64_t j) {
  std::vector<double> counts(kBins, 0.0);
  for (std::int64_t n = 0; n < kDatasets; ++n) {
    std::int64_t rank = 0;
    for (std::int64_t i = 0; i < kDraws; ++i) rank += r.draws[(n * kDraws + i) * 2 + j] < s.truth[n * 2 + j];
    counts[rank * kBins / (kDraws + 1)] += 1;
  }
  const double expected = static_cast<double>(kDatasets) / kBins;
  double chi2 = 0;
  for (const double o : counts) chi2 += (o - expected) * (o - expected) / expected;
  return chi2;
}

NutsRun run_sbc(const Simulated& s, double scale_error) {
  const NutsSetup setup{hierarchical(scale_error), s.init, s.data, 0.15, {1.0, 1.0}, 10, 11};
  return run_nuts(setup, 20, kDraws, 2);
}

TEST(McmcNutsSbc, RanksOfTheTruthAreUniform) {
  const Simulated s = simulate(2018);
  const NutsRun r = run_sbc(s, 1.0);
  EXPECT_LT(rank_chi_square(r, s, 0), kChiSquareCritical) << "mu";
  EXPECT_LT(rank_chi_square(r, s, 1), kChiSquareCritical) << "log sigma";
}

// The same datasets sampled with the likelihood's scale doubled: log sigma's posterior sits ~log 2 below the truth
// (about two posterior sds), and the chi-square must reject it.
TEST(McmcNutsSbc, MisspecifiedLikelihoodIsRejected) {
  const Simulated s = simulate(2018);
  const NutsRun r = run_sbc(s, 2.0);
  EXPECT_GT(rank_chi_square(r, s, 1), kChiSquareCritical) << "log sigma";
}

}  // namespace
}  // namespace nxv::mcmc_test
