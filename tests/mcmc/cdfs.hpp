// CDFs for the sampler tests that have no closed form: the regularised incomplete gamma and beta functions
// (Numerical Recipes' series and Lentz continued fractions, to ~1e-14, far below what a KS test of 2e4 draws sees).
#pragma once
#include <cmath>

namespace nxv::testing {

// P(a, x) = gamma(a, x) / Gamma(a).
inline double gamma_p(double a, double x) {
  if (x <= 0) return 0;
  const double log_front = a * std::log(x) - x - std::lgamma(a);
  if (x < a + 1) {
    double term = 1 / a, total = term;
    for (int n = 1; n < 1000 && std::abs(term) > 1e-17 * std::abs(total); ++n) total += term *= x / (a + n);
    return total * std::exp(log_front);
  }
  const double tiny = 1e-300;
  double b = x + 1 - a, c = 1 / tiny, d = 1 / b, h = d;
  for (int i = 1; i < 1000; ++i) {
    const double an = -i * (i - a);
    b += 2;
    d = an * d + b;
    d = std::abs(d) < tiny ? tiny : d;
    c = b + an / c;
    c = std::abs(c) < tiny ? tiny : c;
    d = 1 / d;
    const double delta = d * c;
    h *= delta;
    if (std::abs(delta - 1) < 1e-16) break;
  }
  return 1 - std::exp(log_front) * h;
}

namespace detail {
inline double beta_fraction(double a, double b, double x) {
  const double tiny = 1e-300;
  double c = 1, d = 1 - (a + b) * x / (a + 1);
  d = 1 / (std::abs(d) < tiny ? tiny : d);
  double h = d;
  for (int m = 1; m < 1000; ++m) {
    for (int step = 0; step < 2; ++step) {
      const double aa = step == 0 ? m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m))
                                  : -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1));
      d = 1 + aa * d;
      d = 1 / (std::abs(d) < tiny ? tiny : d);
      c = 1 + aa / c;
      c = std::abs(c) < tiny ? tiny : c;
      h *= d * c;
      if (step == 1 && std::abs(d * c - 1) < 1e-16) return h;
    }
  }
  return h;
}
}  // namespace detail

// I_x(a, b), the Beta(a, b) CDF.
inline double beta_i(double a, double b, double x) {
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  const double front =
      std::exp(std::lgamma(a + b) - std::lgamma(a) - std::lgamma(b) + a * std::log(x) + b * std::log1p(-x));
  if (x < (a + 1) / (a + b + 2)) return front * detail::beta_fraction(a, b, x) / a;
  return 1 - front * detail::beta_fraction(b, a, 1 - x) / b;
}

// Student's t CDF with df degrees of freedom.
inline double student_t_cdf(double df, double t) {
  const double tail = 0.5 * beta_i(df / 2, 0.5, df / (df + t * t));
  return t < 0 ? tail : 1 - tail;
}

}  // namespace nxv::testing
