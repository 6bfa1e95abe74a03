// Rank-normalised split R-hat, bulk and tail ESS (Vehtari et al. 2021), step for step as ArviZ's
// arviz/stats/diagnostics.py (_rhat_rank, _ess_bulk, _ess_tail, _ess, _z_scale, _split_chains); the numpy
// version of the same steps is tests/mcmc/data/make_diagnostics_reference.py.
#include <algorithm>
#include <cmath>
#include <complex>
#include <limits>
#include <numbers>
#include <numeric>

#include "mcmc/draws.hpp"
#include "nxv/mcmc_diagnostics.hpp"

namespace nxv::mcmc {
namespace detail {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

bool has_nan(const Column& c) {
  return std::any_of(c.x.begin(), c.x.end(), [](double v) { return std::isnan(v); });
}
// ArviZ's _not_valid: a NaN draw, too few chains or too few draws make a statistic NaN.
bool not_valid(const Column& c, std::int64_t min_chains) { return has_nan(c) || c.chains < min_chains || c.draws < 4; }

// Each chain's first and last floor(n/2) draws as two chains: the firsts, then the lasts (numpy's vstack).
Column split_chains(const Column& c) {
  const std::int64_t half = c.draws / 2;
  Column s{2 * c.chains, half, std::vector<double>(2 * c.chains * half)};
  for (std::int64_t k = 0; k < c.chains; ++k)
    for (std::int64_t d = 0; d < half; ++d) {
      s.x[k * half + d] = c.at(k, d);
      s.x[(c.chains + k) * half + d] = c.at(k, c.draws - half + d);
    }
  return s;
}

// The standard normal quantile: Acklam's rational approximation (relative error 1.2e-9) refined by one Halley
// step on erfc, which brings it to about machine precision.
double normal_quantile(double p) {
  static constexpr double a[] = {-3.969683028665376e+01, 2.209460984245205e+02,  -2.759285104469687e+02,
                                 1.383577518672690e+02,  -3.066479806614716e+01, 2.506628277459239e+00};
  static constexpr double b[] = {-5.447609879822406e+01, 1.615858368580409e+02, -1.556989798598866e+02,
                                 6.680131188771972e+01, -1.328068155288572e+01};
  static constexpr double c[] = {-7.784894002430293e-03, -3.223964580411365e-01, -2.400758277161838e+00,
                                 -2.549732539343734e+00, 4.374664141464968e+00,  2.938163982698783e+00};
  static constexpr double d[] = {7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e+00,
                                 3.754408661907416e+00};
  constexpr double p_low = 0.02425;
  double x;
  if (p < p_low || p > 1 - p_low) {
    const double q = std::sqrt(-2 * std::log(p < p_low ? p : 1 - p));
    x = (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
        ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
    if (p > 1 - p_low) x = -x;
  } else {
    const double q = p - 0.5, r = q * q;
    x = (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q /
        (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1);
  }
  const double e = 0.5 * std::erfc(-x / std::sqrt(2.0)) - p;
  const double u = e * std::sqrt(2 * std::numbers::pi) * std::exp(x * x / 2);
  return x - u / (1 + x * u / 2);
}

// Normal scores of the ranks over all values (ties get their average rank): Phi^-1((r - 3/8) / (N + 1/4)).
Column z_scale(const Column& c) {
  const std::size_t n = c.x.size();
  std::vector<std::size_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](std::size_t i, std::size_t j) { return c.x[i] < c.x[j]; });
  Column z = c;
  for (std::size_t lo = 0; lo < n;) {
    std::size_t hi = lo + 1;
    while (hi < n && c.x[order[hi]] == c.x[order[lo]]) ++hi;
    const double rank = (static_cast<double>(lo + 1) + static_cast<double>(hi)) / 2;  // 1-based average
    const double score = normal_quantile((rank - 3.0 / 8) / (static_cast<double>(n) - 2 * 3.0 / 8 + 1));
    for (std::size_t k = lo; k < hi; ++k) z.x[order[k]] = score;
    lo = hi;
  }
  return z;
}

double median(std::vector<double> v) {
  const std::size_t h = v.size() / 2;
  std::nth_element(v.begin(), v.begin() + h, v.end());
  if (v.size() % 2 == 1) return v[h];
  const double upper = v[h];
  return (*std::max_element(v.begin(), v.begin() + h) + upper) / 2;
}

double chain_mean(const Column& c, std::int64_t k) {
  double s = 0;
  for (std::int64_t d = 0; d < c.draws; ++d) s += c.at(k, d);
  return s / static_cast<double>(c.draws);
}

double variance_ddof1(const std::vector<double>& v) {
  double m = 0;
  for (double x : v) m += x;
  m /= static_cast<double>(v.size());
  double s = 0;
  for (double x : v) s += (x - m) * (x - m);
  return s / static_cast<double>(v.size() - 1);
}

// Gelman-Rubin on (already split) chains: sqrt((B/W + n - 1) / n) with B = n var(chain means), W = mean var.
double rhat_basic(const Column& c) {
  std::vector<double> means(c.chains), vars(c.chains);
  for (std::int64_t k = 0; k < c.chains; ++k) {
    means[k] = chain_mean(c, k);
    vars[k] = variance_ddof1(std::vector<double>(c.x.begin() + k * c.draws, c.x.begin() + (k + 1) * c.draws));
  }
  const double n = static_cast<double>(c.draws);
  const double between = n * variance_ddof1(means);
  const double within = std::accumulate(vars.begin(), vars.end(), 0.0) / static_cast<double>(c.chains);
  return std::sqrt((between / within + n - 1) / n);
}

// The twiddles of a radix-2 FFT of size n (a power of two): exp(-2 pi i k / len) at [len / 2 - 1 + k] for len = 2,
// 4, ..., n and k < len / 2, each from std::polar so that no error accumulates. Made once per size, not per chain:
// at 65536 chains their sines and cosines took ~4 s of the ~40 s that nxv-sample spent after sampling.
std::vector<std::complex<double>> fft_twiddles(std::size_t n) {
  std::vector<std::complex<double>> w;
  w.reserve(n);
  for (std::size_t len = 2; len <= n; len <<= 1)
    for (std::size_t k = 0; k < len / 2; ++k)
      w.push_back(std::polar(1.0, -2 * std::numbers::pi * static_cast<double>(k) / static_cast<double>(len)));
  return w;
}

// In-place radix-2 FFT (size a power of two) with fft_twiddles(a.size()).
void fft(std::vector<std::complex<double>>& a, const std::vector<std::complex<double>>& twiddles) {
  const std::size_t n = a.size();
  for (std::size_t i = 1, j = 0; i < n; ++i) {
    std::size_t bit = n >> 1;
    for (; j & bit; bit >>= 1) j ^= bit;
    j ^= bit;
    if (i < j) std::swap(a[i], a[j]);
  }
  for (std::size_t len = 2; len <= n; len <<= 1) {
    for (std::size_t k = 0; k < len / 2; ++k) {
      const std::complex<double> w = twiddles[len / 2 - 1 + k];
      for (std::size_t i = 0; i < n; i += len) {
        const std::complex<double> u = a[i + k], v = a[i + k + len / 2] * w;
        a[i + k] = u + v;
        a[i + k + len / 2] = u - v;
      }
    }
  }
}

// The chains' mean autocovariance at every lag (biased, / n, about each chain's mean), by FFT of the chain padded
// to a power of two >= 2n as ArviZ's autocov does (it pads to next_fast_len(2n); any length >= 2n - 1 gives the
// same sums up to rounding). A direct sum would cost O(n) per lag, O(n^2) for a chain that does not mix.
std::vector<double> mean_autocov(const Column& c, const std::vector<double>& means) {
  const std::size_t n = static_cast<std::size_t>(c.draws);
  std::size_t m = 1;
  while (m < 2 * n) m <<= 1;
  std::vector<double> acov(n, 0.0);
  std::vector<std::complex<double>> a(m);
  const std::vector<std::complex<double>> twiddles = fft_twiddles(m);
  for (std::int64_t k = 0; k < c.chains; ++k) {
    std::fill(a.begin(), a.end(), std::complex<double>());
    for (std::size_t i = 0; i < n; ++i) a[i] = c.at(k, static_cast<std::int64_t>(i)) - means[k];
    fft(a, twiddles);
    // The power spectrum is real and symmetric, so its forward transform is m times its inverse one.
    for (auto& z : a) z = std::norm(z);
    fft(a, twiddles);
    for (std::size_t t = 0; t < n; ++t) acov[t] += a[t].real() / static_cast<double>(m) / static_cast<double>(n);
  }
  for (double& v : acov) v /= static_cast<double>(c.chains);
  return acov;
}

// ArviZ's _ess: Geyer's initial positive sequence of paired autocorrelations, made monotone, to tau.
double ess_basic(const Column& c) {
  if (has_nan(c)) return kNaN;
  const auto range = std::minmax_element(c.x.begin(), c.x.end());
  if (*range.second - *range.first < 1e-15) return static_cast<double>(c.x.size());  // numpy's finfo(float).resolution
  const std::int64_t m = c.chains, n = c.draws;
  std::vector<double> means(m);
  for (std::int64_t k = 0; k < m; ++k) means[k] = chain_mean(c, k);
  const double dn = static_cast<double>(n);
  const std::vector<double> acov = mean_autocov(c, means);
  const double mean_var = acov[0] * dn / (dn - 1);
  double var_plus = mean_var * (dn - 1) / dn;
  if (m > 1) var_plus += variance_ddof1(means);
  auto rho_at = [&](std::int64_t lag) { return 1 - (mean_var - acov[lag]) / var_plus; };

  std::vector<double> rho(n, 0.0);
  double even = 1, odd = rho_at(1);
  rho[0] = even;
  rho[1] = odd;
  std::int64_t t = 1;
  while (t < n - 3 && even + odd > 0) {
    even = rho_at(t + 1);
    odd = rho_at(t + 2);
    if (even + odd >= 0) {
      rho[t + 1] = even;
      rho[t + 2] = odd;
    }
    t += 2;
  }
  const std::int64_t max_t = t - 2;
  if (even > 0) rho[max_t + 1] = even;
  for (t = 1; t <= max_t - 2; t += 2)
    if (rho[t + 1] + rho[t + 2] > rho[t - 1] + rho[t]) rho[t + 1] = rho[t + 2] = (rho[t - 1] + rho[t]) / 2;

  const double size = static_cast<double>(m * n);
  double tau = -1;
  for (std::int64_t i = 0; i <= max_t; ++i) tau += 2 * rho[i];
  if (max_t + 1 < n) tau += rho[max_t + 1];
  tau = std::max(tau, 1 / std::log10(size));
  if (std::any_of(rho.begin(), rho.end(), [](double r) { return std::isnan(r); })) return kNaN;
  return size / tau;
}

// mquantiles(alphap=1, betap=1), ArviZ's quantile: (1 - g) x[k-1] + g x[k] at (n - 1) q + 1 of the sorted values.
// Only the k-th and (k-1)-th order statistics are needed, so nth_element finds them in linear time (the same
// values a sort gives: at 65536 chains the summary's sorts of every column took seconds).
double quantile_of(std::vector<double> v, double q) {
  if (v.size() == 1) return v[0];
  const double n = static_cast<double>(v.size());
  const double aleph = n * q + (1 - q);
  const double k = std::floor(std::clamp(aleph, 1.0, std::max(n - 1, 1.0)));
  const double g = std::clamp(aleph - k, 0.0, 1.0);
  const auto i = static_cast<std::ptrdiff_t>(k);
  std::nth_element(v.begin(), v.begin() + i, v.end());
  const double upper = v[i], lower = *std::max_element(v.begin(), v.begin() + i);
  return (1 - g) * lower + g * upper;
}

}  // namespace

double rhat_rank(const Column& c) {
  if (not_valid(c, 2)) return kNaN;
  const Column s = split_chains(c);
  const double m = median(s.x);
  Column folded = s;
  for (double& v : folded.x) v = std::fabs(v - m);
  return std::max(rhat_basic(z_scale(s)), rhat_basic(z_scale(folded)));
}

double ess_bulk(const Column& c) { return not_valid(c, 1) ? kNaN : ess_basic(z_scale(split_chains(c))); }

double ess_tail(const Column& c) {
  if (not_valid(c, 1)) return kNaN;
  double result = std::numeric_limits<double>::infinity();
  for (double p : {0.05, 0.95}) {
    const double q = quantile(c, p);
    Column indicator = c;
    for (double& v : indicator.x) v = v <= q ? 1.0 : 0.0;
    result = std::min(result, ess_basic(split_chains(indicator)));
  }
  return result;
}

double mean(const Column& c) { return std::accumulate(c.x.begin(), c.x.end(), 0.0) / static_cast<double>(c.x.size()); }

double sd(const Column& c) { return c.x.size() < 2 ? kNaN : std::sqrt(variance_ddof1(c.x)); }

double quantile(const Column& c, double q) {
  if (has_nan(c)) return kNaN;
  return quantile_of(c.x, q);
}

}  // namespace detail

Tensor split_rhat(const Tensor& draws) { return detail::per_parameter(draws, "mcmc::split_rhat", detail::rhat_rank); }
Tensor ess_bulk(const Tensor& draws) { return detail::per_parameter(draws, "mcmc::ess_bulk", detail::ess_bulk); }
Tensor ess_tail(const Tensor& draws) { return detail::per_parameter(draws, "mcmc::ess_tail", detail::ess_tail); }
Tensor draws_mean(const Tensor& draws) { return detail::per_parameter(draws, "mcmc::draws_mean", detail::mean); }
Tensor draws_sd(const Tensor& draws) { return detail::per_parameter(draws, "mcmc::draws_sd", detail::sd); }

}  // namespace nxv::mcmc
