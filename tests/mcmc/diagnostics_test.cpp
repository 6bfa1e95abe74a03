// R-hat, bulk and tail ESS, mean, sd and quantiles: equal to ArviZ's algorithm (tests/mcmc/data/
// make_diagnostics_reference.py) to 4 significant digits, and the statistical behaviour the definitions promise.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <span>

#include "mcmc/data/diagnostics_reference.hpp"
#include "nxv/mcmc_diagnostics.hpp"
#include "nxv/ops.hpp"
#include "nxv/vulkan.hpp"
#include "support/temp_dir.hpp"

namespace nxv::mcmc_test {
namespace {

namespace ref = test::diagnostics_reference;

Tensor make_draws(const std::vector<double>& values, const Shape& shape, DType dtype = DType::f64,
                  Backend& backend = reference_backend()) {
  return as_type(from_data<double>(std::span<const double>(values), shape, reference_backend()), dtype).to(backend);
}

// "Equal to 4 significant digits": within 5e-5 of the reference, relative (both NaN counts as equal).
void expect_4_digits(const Tensor& got, const std::vector<double>& want, const std::string& what) {
  ASSERT_EQ(got.dtype(), DType::f64) << what;
  const std::vector<double> g = got.to_vector<double>();
  ASSERT_EQ(g.size(), want.size()) << what;
  for (std::size_t i = 0; i < g.size(); ++i) {
    if (std::isnan(want[i])) {
      EXPECT_TRUE(std::isnan(g[i])) << what << "[" << i << "] = " << g[i] << ", ArviZ gives NaN";
      continue;
    }
    EXPECT_NEAR(g[i], want[i], 5e-5 * std::fabs(want[i])) << what << "[" << i << "]";
  }
}

void check_reference(Backend& backend, DType dtype) {
  for (const ref::DrawSet& set : ref::draw_sets()) {
    const Shape shape(set.shape.begin(), set.shape.end());
    const Tensor d = make_draws(set.draws, shape, dtype, backend);
    const std::string name = set.name;
    expect_4_digits(mcmc::split_rhat(d), set.rhat, name + " split_rhat");
    expect_4_digits(mcmc::ess_bulk(d), set.ess_bulk, name + " ess_bulk");
    expect_4_digits(mcmc::ess_tail(d), set.ess_tail, name + " ess_tail");
    expect_4_digits(mcmc::draws_mean(d), set.mean, name + " mean");
    expect_4_digits(mcmc::draws_sd(d), set.sd, name + " sd");
    expect_4_digits(mcmc::draws_quantile(d, 0.05), set.q05, name + " q05");
    expect_4_digits(mcmc::draws_quantile(d, 0.5), set.q50, name + " q50");
    expect_4_digits(mcmc::draws_quantile(d, 0.95), set.q95, name + " q95");
    const Shape param_shape(shape.begin() + 2, shape.end());
    EXPECT_EQ(mcmc::split_rhat(d).shape(), param_shape) << name;
  }
}

TEST(McmcDiagnostics, EqualArvizOnTheReferenceDrawSets) { check_reference(reference_backend(), DType::f64); }

TEST(McmcDiagnosticsVulkan, DrawsOnTheGpuGiveTheSameValues) {
  if (!vulkan::available()) GTEST_SKIP() << "no Vulkan device";
  check_reference(vulkan::backend(), DType::f64);
}

// [chains, n] standard normal draws, or an AR(1) x_t = rho x_{t-1} + e_t started in its stationary law.
std::vector<double> ar1(std::int64_t chains, std::int64_t n, double rho, std::uint64_t seed) {
  std::mt19937_64 gen(seed);
  std::normal_distribution<double> normal;
  std::vector<double> x(chains * n);
  for (std::int64_t c = 0; c < chains; ++c) {
    x[c * n] = normal(gen) / std::sqrt(1 - rho * rho);
    for (std::int64_t t = 1; t < n; ++t) x[c * n + t] = rho * x[c * n + t - 1] + normal(gen);
  }
  return x;
}

// Bounds from 40 seeds of the Python reference at this size: R-hat at most 1.0027; ESS/n had sd 0.038 (bulk) and
// 0.046 (tail), so +-20% and +-25% are more than 5 sd.
TEST(McmcDiagnostics, IidDrawsHaveRhatNearOneAndEssNearN) {
  const std::int64_t chains = 4, n = 1000;
  const Tensor d = make_draws(ar1(chains, n, 0.0, 11), {chains, n});
  EXPECT_LT(std::fabs(mcmc::split_rhat(d).item() - 1), 0.01);
  const double size = static_cast<double>(chains * n);
  EXPECT_NEAR(mcmc::ess_bulk(d).item() / size, 1.0, 0.20);
  EXPECT_NEAR(mcmc::ess_tail(d).item() / size, 1.0, 0.25);
}

TEST(McmcDiagnostics, ShiftedChainMeansGiveRhatAboveOnePointOne) {
  const std::int64_t chains = 4, n = 500;
  std::vector<double> x = ar1(chains, n, 0.0, 12);
  for (std::int64_t c = 0; c < chains; ++c)
    for (std::int64_t t = 0; t < n; ++t) x[c * n + t] += static_cast<double>(c);  // means 0, 1, 2, 3
  EXPECT_GT(mcmc::split_rhat(make_draws(x, {chains, n})).item(), 1.1);
}

// For an AR(1), tau = (1 + rho) / (1 - rho), so ESS = N (1 - rho) / (1 + rho): 4210.5 for N = 4 x 20000 draws,
// rho = 0.9. 20 seeds of the Python reference at 4 x 5000 draws gave ESS / that between 0.83 and 1.09 (sd 0.08);
// at 4x the draws the sd halves, so +-20% is about 5 sd.
TEST(McmcDiagnostics, Ar1BulkEssIsNearItsAnalyticValue) {
  const std::int64_t chains = 4, n = 20000;
  const double rho = 0.9, expected = static_cast<double>(chains * n) * (1 - rho) / (1 + rho);
  const Tensor d = make_draws(ar1(chains, n, rho, 13), {chains, n});
  EXPECT_NEAR(mcmc::ess_bulk(d).item() / expected, 1.0, 0.20);
}

TEST(McmcDiagnostics, EdgeCasesAreNanAsInArviz) {
  const std::vector<double> x = ar1(1, 50, 0.0, 14);
  const Tensor one_chain = make_draws(x, {1, 50});
  EXPECT_TRUE(std::isnan(mcmc::split_rhat(one_chain).item())) << "R-hat needs 2 chains";
  EXPECT_GT(mcmc::ess_bulk(one_chain).item(), 0) << "ESS of one chain splits it in two";
  const Tensor three_draws = make_draws({1, 2, 3, 4, 5, 6}, {2, 3});
  EXPECT_TRUE(std::isnan(mcmc::split_rhat(three_draws).item()));
  EXPECT_TRUE(std::isnan(mcmc::ess_bulk(three_draws).item()));
  EXPECT_TRUE(std::isnan(mcmc::ess_tail(three_draws).item()));
  const Tensor constant = as_type(full({2, 9}, 1.5, DType::f32), DType::f64);
  EXPECT_TRUE(std::isnan(mcmc::split_rhat(constant).item())) << "0 / 0 between and within variance";
  EXPECT_EQ(mcmc::ess_bulk(constant).item(), 16.0) << "ArviZ: the split array's size (2 x 2 chains x 4 draws)";
}

TEST(McmcDiagnostics, NanDrawMakesOnlyItsParameterNan) {
  std::vector<double> x = ar1(2, 40, 0.0, 15);  // as [2, 20, 2]: parameter 1 gets the NaN
  x[2 * 7 + 1] = std::nan("");
  const Tensor d = make_draws(x, {2, 20, 2});
  for (const Tensor& stat :
       {mcmc::split_rhat(d), mcmc::ess_bulk(d), mcmc::ess_tail(d), mcmc::draws_mean(d), mcmc::draws_quantile(d, 0.5)}) {
    const std::vector<double> v = stat.to_vector<double>();
    EXPECT_FALSE(std::isnan(v[0]));
    EXPECT_TRUE(std::isnan(v[1]));
  }
}

TEST(McmcDiagnostics, AnyRealDtypeAndParameterShape) {
  const std::vector<double> x = ar1(4, 60, 0.5, 16);
  const Tensor f64 = make_draws(x, {4, 5, 3, 4});
  const Tensor f32 = make_draws(x, {4, 5, 3, 4}, DType::f32);
  EXPECT_EQ(mcmc::ess_bulk(f32).shape(), (Shape{3, 4}));
  // Ranks of the f32-rounded draws are those of the f64 ones unless two draws round together (not here).
  EXPECT_EQ(mcmc::ess_bulk(f32).to_vector<double>(), mcmc::ess_bulk(f64).to_vector<double>());
  const Tensor s32 = make_draws({1, 2, 3, 4, 5, 6, 7, 9, 8, 10}, {2, 5}, DType::s32);
  EXPECT_EQ(mcmc::draws_mean(s32).item(), 5.5);
}

// The quantile finds its two order statistics by selection, not a sort: the same numbers as the definition over
// the sorted values, with ties, one draw, both ends and interpolation between neighbours.
TEST(McmcDiagnostics, QuantilesEqualTheDefinitionOverSortedValues) {
  std::mt19937_64 rng(11);
  for (const std::int64_t n : {1, 2, 3, 5, 8, 101}) {
    std::vector<double> v(static_cast<std::size_t>(n));
    for (double& x : v) x = static_cast<double>(rng() % 7) - 3.5 + (rng() % 2 == 0 ? 0.25 : 0.0);  // many ties
    std::vector<double> sorted = v;
    std::sort(sorted.begin(), sorted.end());
    for (const double q : {0.0, 0.05, 0.3, 0.5, 0.95, 1.0}) {
      const double nn = static_cast<double>(n), aleph = nn * q + (1 - q);
      const double k = std::floor(std::clamp(aleph, 1.0, std::max(nn - 1, 1.0)));
      const double g = std::clamp(aleph - k, 0.0, 1.0);
      const auto i = static_cast<std::size_t>(k);
      const double want = n == 1 ? sorted[0] : (1 - g) * sorted[i - 1] + g * sorted[i];
      EXPECT_EQ(mcmc::draws_quantile(make_draws(v, {1, n}), q).to_vector<double>().at(0), want)
          << n << " draws, q " << q;
    }
  }
}

TEST(McmcDiagnostics, BadInputNamesTheFunctionAndTheExpectation) {
  using io_test::expect_error;
  expect_error([] { mcmc::split_rhat(Tensor()); }, {"mcmc::split_rhat", "undefined", "[chains, draws"});
  expect_error([] { mcmc::ess_bulk(zeros({5})); }, {"mcmc::ess_bulk", "[5]", "rank >= 2"});
  expect_error([] { mcmc::ess_tail(zeros({0, 5})); }, {"mcmc::ess_tail", "[0, 5]", "at least one chain"});
  expect_error([] { mcmc::draws_sd(zeros({3, 4}, DType::pred)); }, {"mcmc::draws_sd", "pred", "real"});
  expect_error([] { mcmc::draws_quantile(zeros({3, 4}), 1.5); }, {"mcmc::draws_quantile", "1.5", "0 <= q <= 1"});
}

}  // namespace
}  // namespace nxv::mcmc_test
