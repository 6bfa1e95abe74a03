// The host view of draws [chains, draws, ...params] that the diagnostics read: one f64 column per parameter
// element, and the per-parameter statistics of that column (ArviZ's algorithms, include/nxv/mcmc_diagnostics.hpp).
#pragma once
#include <cstdint>
#include <vector>

#include "nxv/tensor.hpp"

namespace nxv::mcmc::detail {

// One parameter element's draws, row-major [chain][draw].
struct Column {
  std::int64_t chains = 0, draws = 0;
  std::vector<double> x;
  double at(std::int64_t chain, std::int64_t draw) const { return x[chain * draws + draw]; }
};

// The columns of `draws`, one per element of the parameter axes (row-major). Throws nxv::Error naming `op` for an
// undefined tensor, rank < 2, no chains or draws, or a dtype that is not real.
std::vector<Column> columns(const Tensor& draws, const char* op);
// `stat` of each column as an f64 tensor of the parameter shape on the reference backend.
Tensor per_parameter(const Tensor& draws, const char* op, double (*stat)(const Column&));

double rhat_rank(const Column& c);
double ess_bulk(const Column& c);
double ess_tail(const Column& c);
double mean(const Column& c);
double sd(const Column& c);
// R's type 7 quantile of all the column's draws (NaN if any is NaN).
double quantile(const Column& c, double q);

}  // namespace nxv::mcmc::detail
