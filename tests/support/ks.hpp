// The one-sample Kolmogorov-Smirnov test for samplers: the statistic D_n = sup |F_n(x) - F(x)| of draws against
// a CDF, and its critical value at level alpha.
//
// Critical value: the asymptotic Kolmogorov distribution, P(sqrt(n) D_n > c) -> 2 sum (-1)^(k-1) e^(-2 k^2 c^2),
// whose leading term gives c(alpha) = sqrt(-ln(alpha / 2) / 2) (1.9495 at alpha = 0.001); good to < 1% for n
// >= 1000, which is what the tests draw. For a discrete distribution (discrete_ks_statistic) the test is
// conservative: its true level is at most alpha.
#pragma once
#include <algorithm>
#include <cmath>
#include <functional>
#include <vector>

namespace nxv::testing {

inline double ks_critical_value(std::size_t n, double alpha) {
  return std::sqrt(-std::log(alpha / 2) / 2) / std::sqrt(static_cast<double>(n));
}

// sup over the draws of |F_n - F|, both one-sided gaps at each order statistic.
inline double ks_statistic(std::vector<double> draws, const std::function<double(double)>& cdf) {
  std::sort(draws.begin(), draws.end());
  const double n = static_cast<double>(draws.size());
  double d = 0;
  for (std::size_t i = 0; i < draws.size(); ++i) {
    const double f = cdf(draws[i]);
    d = std::max({d, (i + 1) / n - f, f - i / n});
  }
  return d;
}

// For integer-valued draws: sup over k in [lo, hi] of |F_n(k) - F(k)| (F_n and F step at the integers).
inline double discrete_ks_statistic(const std::vector<double>& draws, const std::function<double(double)>& cdf, long lo,
                                    long hi) {
  const double n = static_cast<double>(draws.size());
  double d = 0;
  for (long k = lo; k <= hi; ++k) {
    const double below =
        static_cast<double>(std::count_if(draws.begin(), draws.end(), [&](double x) { return x <= k; }));
    d = std::max(d, std::abs(below / n - cdf(static_cast<double>(k))));
  }
  return d;
}

}  // namespace nxv::testing
