// nxv::mcmc diagnostics: rank-normalised split R-hat, bulk and tail ESS, posterior mean, sd and quantiles, and a
// summary table printed like NumPyro's print_summary.
//
//   nxv::Tensor draws = ...;                        // [chains, draws, ...params], any backend, any real dtype
//   nxv::Tensor r = nxv::mcmc::split_rhat(draws);   // f64 [...params] on the reference backend
//   std::cout << nxv::mcmc::summarize({{"mu", mu_draws}, {"tau", tau_draws}}, divergences).to_string();
//
// The definitions are Vehtari, Gelman, Simpson, Carpenter and Bürkner (2021), "Rank-normalization, folding, and
// localization: an improved R-hat", as ArviZ computes them (arviz/stats/diagnostics.py, rhat(method="rank"),
// ess(method="bulk"/"tail")): each chain split in two halves (the middle draw of an odd chain dropped), ranks
// over all split chains (ties averaged) mapped to normal scores with Blom's offset 3/8, autocorrelations summed
// by Geyer's initial monotone sequence. tests/mcmc/data/make_diagnostics_reference.py is that algorithm in
// numpy/scipy; the C++ matches it to 4 significant digits.
//
// Everything is computed on the host in f64 (the draws are copied there once): the statistics sort and scan each
// parameter's draws, which is cheap next to sampling them. Where ArviZ returns NaN, so do these: fewer than 4
// draws, a NaN among a parameter's draws, fewer than 2 chains (R-hat only), and a
// constant parameter (R-hat only; its ESS is the number of split draws, as ArviZ's). They throw nxv::Error only
// for input of the wrong form: an undefined tensor, rank < 2, no chains or no draws, a non-real dtype.
#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "nxv/tensor.hpp"

namespace nxv::mcmc {

// Rank-normalised split R-hat: the larger of the bulk R-hat (on normal scores) and the tail R-hat (on the normal
// scores of |x - median|). Near 1 for chains that mix; > 1.01 is ArviZ's warning level.
Tensor split_rhat(const Tensor& draws);
// Bulk effective sample size: the split-chain ESS of the rank-normalised draws.
Tensor ess_bulk(const Tensor& draws);
// Tail effective sample size: the smaller of the ESSs of the indicators x <= q05 and x <= q95.
Tensor ess_tail(const Tensor& draws);

// Over all chains' draws: the mean, the standard deviation (ddof = 1, as ArviZ's summary) and the quantile
// q in [0, 1] (R's type 7, linear between order statistics, numpy's default).
Tensor draws_mean(const Tensor& draws);
Tensor draws_sd(const Tensor& draws);
Tensor draws_quantile(const Tensor& draws, double q);

// One row of the summary table: a parameter element ("beta[1,0]") and its statistics.
struct SummaryRow {
  std::string name;
  double mean, sd, q05, median, q95, ess_bulk, ess_tail, rhat;
};

struct Summary {
  std::vector<SummaryRow> rows;
  std::int64_t divergences = 0;
  // NumPyro's layout: names right-aligned in max(longest, 10) characters, then one 9-wide column per statistic
  // (mean, std, 5.0%, median, 95.0%, ess_bulk, ess_tail, r_hat) with 2 decimals, a blank line, and
  // "Number of divergences: N".
  std::string to_string() const;
};

// The summary of named draws, each [chains, draws, ...params], in the given order; parameters with more than one
// element get one row per element, named by its index.
Summary summarize(const std::vector<std::pair<std::string, Tensor>>& draws, std::int64_t divergences = 0);
// The number of true (non-zero) elements of a sampler's divergence flags, e.g. pred [chains, draws].
std::int64_t count_divergences(const Tensor& diverging);

}  // namespace nxv::mcmc
