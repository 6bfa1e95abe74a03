// The summary table: its rows are the diagnostics' values per parameter element, and its text is NumPyro's
// print_summary layout.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <span>

#include "nxv/mcmc_diagnostics.hpp"
#include "nxv/ops.hpp"
#include "support/temp_dir.hpp"

namespace nxv::mcmc_test {
namespace {

TEST(McmcSummary, TextIsNumpyroLayout) {
  mcmc::Summary s;
  s.rows = {
      {"mu", 0.1234, 1.0, -1.6449, 0.0, 1.6449, 812.3, 790.04, 1.001},
      {"tau", 3.0, 2.5, 0.25, 2.0, 8.125, 95.5, 120.0, 1.04},
      {"a_longer_name[1,0]", -12.5, 0.005, -13.0, -12.5, -12.0, 16.0, 16.0, std::numeric_limits<double>::quiet_NaN()}};
  s.divergences = 3;
  const std::string want =
      "\n"
      "                        mean       std      5.0%    median     95.0%  ess_bulk  ess_tail     r_hat\n"
      "                mu      0.12      1.00     -1.64      0.00      1.64    812.30    790.04      1.00\n"
      "               tau      3.00      2.50      0.25      2.00      8.12     95.50    120.00      1.04\n"
      "a_longer_name[1,0]    -12.50      0.01    -13.00    -12.50    -12.00     16.00     16.00       nan\n"
      "\n"
      "Number of divergences: 3\n";
  EXPECT_EQ(s.to_string(), want) << "the layout of NumPyro's print_summary (its format strings, run in Python)";
}

TEST(McmcSummary, NamesAreAtLeastTenWide) {
  mcmc::Summary s;
  s.rows = {{"x", 1, 1, 1, 1, 1, 1, 1, 1}};
  EXPECT_EQ(s.to_string().substr(0, 12), "\n           ") << "one newline, then max(len, 10) + 1 spaces";
}

TEST(McmcSummary, RowsAreTheDiagnosticsPerElement) {
  std::vector<double> x(3 * 8 * 2 * 2);
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = std::sin(0.7 * static_cast<double>(i * i));
  const Tensor beta = from_data<double>(std::span<const double>(x), {3, 8, 2, 2});
  const Tensor mu = from_data<double>(std::span<const double>(x.data(), 24), {3, 8});
  const mcmc::Summary s = mcmc::summarize({{"mu", mu}, {"beta", beta}}, 7);
  ASSERT_EQ(s.rows.size(), 5u);
  EXPECT_EQ(s.rows[0].name, "mu");
  EXPECT_EQ(s.rows[1].name, "beta[0,0]");
  EXPECT_EQ(s.rows[3].name, "beta[1,0]");
  EXPECT_EQ(s.rows[4].name, "beta[1,1]");
  EXPECT_EQ(s.divergences, 7);
  const std::vector<double> rhat = mcmc::split_rhat(beta).to_vector<double>();
  const std::vector<double> bulk = mcmc::ess_bulk(beta).to_vector<double>();
  const std::vector<double> tail = mcmc::ess_tail(beta).to_vector<double>();
  const std::vector<double> mean = mcmc::draws_mean(beta).to_vector<double>();
  const std::vector<double> sd = mcmc::draws_sd(beta).to_vector<double>();
  const std::vector<double> q05 = mcmc::draws_quantile(beta, 0.05).to_vector<double>();
  const std::vector<double> q50 = mcmc::draws_quantile(beta, 0.5).to_vector<double>();
  const std::vector<double> q95 = mcmc::draws_quantile(beta, 0.95).to_vector<double>();
  for (std::size_t p = 0; p < 4; ++p) {
    const mcmc::SummaryRow& r = s.rows[1 + p];
    EXPECT_EQ(r.rhat, rhat[p]);
    EXPECT_EQ(r.ess_bulk, bulk[p]);
    EXPECT_EQ(r.ess_tail, tail[p]);
    EXPECT_EQ(r.mean, mean[p]);
    EXPECT_EQ(r.sd, sd[p]);
    EXPECT_EQ(r.q05, q05[p]);
    EXPECT_EQ(r.median, q50[p]);
    EXPECT_EQ(r.q95, q95[p]);
  }
}

TEST(McmcSummary, CountsDivergencesAndRejectsBadDraws) {
  EXPECT_EQ(mcmc::count_divergences(tensor<bool>({true, false, true, true, false, false}, {2, 3})), 3);
  io_test::expect_error([] { mcmc::summarize({{"theta", zeros({4})}}); }, {"mcmc::summarize(\"theta\")", "rank >= 2"});
}

}  // namespace
}  // namespace nxv::mcmc_test
