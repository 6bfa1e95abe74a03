// The posterior summary table (NumPyro's print_summary layout) and the draws' quantiles and divergence count.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <span>

#include "mcmc/draws.hpp"
#include "nxv/backend.hpp"
#include "nxv/error.hpp"
#include "nxv/mcmc_diagnostics.hpp"
#include "nxv/ops.hpp"

namespace nxv::mcmc {
namespace {

// "beta[1,0]": the row-major index `flat` within the parameter axes of `shape` ([chains, draws, ...params]).
std::string element_name(const std::string& name, const Shape& shape, std::int64_t flat) {
  if (shape.size() == 2) return name;
  std::vector<std::int64_t> index(shape.size() - 2);
  for (int axis = shape.size() - 1; axis >= 2; --axis) {
    index[axis - 2] = flat % shape[axis];
    flat /= shape[axis];
  }
  std::string out = name + "[";
  for (std::size_t i = 0; i < index.size(); ++i) out += (i ? "," : "") + std::to_string(index[i]);
  return out + "]";
}

std::string format(const char* spec, const std::string& s) {
  char buf[256];
  std::snprintf(buf, sizeof buf, spec, s.c_str());
  return buf;
}

}  // namespace

Tensor draws_quantile(const Tensor& draws, double q) {
  NXV_CHECK(q >= 0 && q <= 1, "mcmc::draws_quantile", "got q = ", q, "; expected 0 <= q <= 1");
  const std::vector<detail::Column> cols = detail::columns(draws, "mcmc::draws_quantile");
  std::vector<double> values;
  for (const detail::Column& c : cols) values.push_back(detail::quantile(c, q));
  const Shape param_shape(draws.shape().begin() + 2, draws.shape().end());
  return from_data<double>(std::span<const double>(values), param_shape, reference_backend());
}

std::int64_t count_divergences(const Tensor& diverging) {
  NXV_CHECK(diverging.defined(), "mcmc::count_divergences", "got an undefined tensor; expected divergence flags");
  const std::vector<double> flags = as_type(diverging.to_host(), DType::f64).to_vector<double>();
  return std::count_if(flags.begin(), flags.end(), [](double f) { return f != 0; });
}

Summary summarize(const std::vector<std::pair<std::string, Tensor>>& draws, std::int64_t divergences) {
  Summary summary;
  summary.divergences = divergences;
  for (const auto& named : draws) {
    const std::string op = "mcmc::summarize(\"" + named.first + "\")";
    const std::vector<detail::Column> cols = detail::columns(named.second, op.c_str());
    for (std::size_t p = 0; p < cols.size(); ++p) {
      const detail::Column& c = cols[p];
      summary.rows.push_back({element_name(named.first, named.second.shape(), static_cast<std::int64_t>(p)),
                              detail::mean(c), detail::sd(c), detail::quantile(c, 0.05), detail::quantile(c, 0.5),
                              detail::quantile(c, 0.95), detail::ess_bulk(c), detail::ess_tail(c),
                              detail::rhat_rank(c)});
    }
  }
  return summary;
}

std::string Summary::to_string() const {
  std::size_t width = 10;
  for (const SummaryRow& r : rows) width = std::max(width, r.name.size());
  const std::string pad_name = "%" + std::to_string(width) + "s";
  std::string out = "\n" + format(pad_name.c_str(), "");
  for (const char* column : {"mean", "std", "5.0%", "median", "95.0%", "ess_bulk", "ess_tail", "r_hat"})
    out += format(" %9s", column);
  out += "\n";
  for (const SummaryRow& r : rows) {
    out += format(pad_name.c_str(), r.name);
    for (double v : {r.mean, r.sd, r.q05, r.median, r.q95, r.ess_bulk, r.ess_tail, r.rhat}) {
      char buf[64];
      // glibc prints a NaN with its sign bit ("-nan", as 0/0 gives on x86); NumPyro prints "nan".
      std::snprintf(buf, sizeof buf, " %9.2f", std::isnan(v) ? std::fabs(v) : v);
      out += buf;
    }
    out += "\n";
  }
  return out + "\nNumber of divergences: " + std::to_string(divergences) + "\n";
}

}  // namespace nxv::mcmc
