// The scalar continuous distributions whose densities need no lgamma: their log densities and samplers.
#include <cmath>
#include <numbers>

#include "mcmc/dist_support.hpp"

namespace nxv::dist {

using detail::check_params;
using detail::check_value;
using detail::draw_shape;
using detail::normal_cdf;
using detail::normal_log_density;
using detail::restrict_to;
using detail::uniform_open;

namespace {
constexpr double kLogPi = 1.1447298858494002;  // log(pi)
constexpr double kLog2 = std::numbers::ln2;
Tensor nonnegative(const Tensor& x) { return greater_equal(x, 0.0); }
}  // namespace

Normal::Normal(Tensor loc_, Tensor scale_)
    : Shapes(check_params("Normal", {&loc_, &scale_})), loc(loc_), scale(scale_) {}
Tensor Normal::log_prob(const Tensor& x) const {
  return normal_log_density((check_value("Normal", *this, x) - loc) / scale) - log(scale);
}
Tensor Normal::sample(const Tensor& key, const Shape& shape) const {
  return loc + scale * detail::standard_normal(key, draw_shape(shape, *this), dtype, 0);
}

HalfNormal::HalfNormal(Tensor scale_) : Shapes(check_params("HalfNormal", {&scale_})), scale(scale_) {}
Tensor HalfNormal::log_prob(const Tensor& x) const {
  const Tensor v = check_value("HalfNormal", *this, x);
  return restrict_to(v, nonnegative(v), 0.0,
                     [&](const Tensor& s) { return normal_log_density(s / scale) - log(scale) + kLog2; });
}
Tensor HalfNormal::sample(const Tensor& key, const Shape& shape) const {
  // The inverse CDF of |Z|: sqrt(2) erf_inv(u).
  return scale * erf_inv(uniform_open(key, draw_shape(shape, *this), dtype, 0)) * std::numbers::sqrt2;
}

Cauchy::Cauchy(Tensor loc_, Tensor scale_)
    : Shapes(check_params("Cauchy", {&loc_, &scale_})), loc(loc_), scale(scale_) {}
Tensor Cauchy::log_prob(const Tensor& x) const {
  const Tensor z = (check_value("Cauchy", *this, x) - loc) / scale;
  return -log1p(square(z)) - log(scale) - kLogPi;
}
Tensor Cauchy::sample(const Tensor& key, const Shape& shape) const {
  const Tensor u = uniform_open(key, draw_shape(shape, *this), dtype, 0);
  return loc + scale * tan((u - 0.5) * std::numbers::pi);
}

HalfCauchy::HalfCauchy(Tensor scale_) : Shapes(check_params("HalfCauchy", {&scale_})), scale(scale_) {}
Tensor HalfCauchy::log_prob(const Tensor& x) const {
  const Tensor v = check_value("HalfCauchy", *this, x);
  return restrict_to(v, nonnegative(v), 0.0,
                     [&](const Tensor& s) { return -log1p(square(s / scale)) - log(scale) + (kLog2 - kLogPi); });
}
Tensor HalfCauchy::sample(const Tensor& key, const Shape& shape) const {
  const Tensor u = uniform_open(key, draw_shape(shape, *this), dtype, 0);
  return scale * tan(u * (std::numbers::pi / 2));
}

Laplace::Laplace(Tensor loc_, Tensor scale_)
    : Shapes(check_params("Laplace", {&loc_, &scale_})), loc(loc_), scale(scale_) {}
Tensor Laplace::log_prob(const Tensor& x) const {
  return -abs(check_value("Laplace", *this, x) - loc) / scale - log(scale) - kLog2;
}
Tensor Laplace::sample(const Tensor& key, const Shape& shape) const {
  // The inverse CDF with v = u - 1/2 (never 0: u is (m + 1/2) 2^-k).
  const Tensor v = uniform_open(key, draw_shape(shape, *this), dtype, 0) - 0.5;
  return loc - scale * sign(v) * log1p(abs(v) * -2.0);
}

Logistic::Logistic(Tensor loc_, Tensor scale_)
    : Shapes(check_params("Logistic", {&loc_, &scale_})), loc(loc_), scale(scale_) {}
Tensor Logistic::log_prob(const Tensor& x) const {
  // -|z| - 2 log(1 + e^-|z|): the density is even in z, and this form never overflows.
  const Tensor z = abs((check_value("Logistic", *this, x) - loc) / scale);
  return -z - 2.0 * log1p(exp(-z)) - log(scale);
}
Tensor Logistic::sample(const Tensor& key, const Shape& shape) const {
  const Tensor u = uniform_open(key, draw_shape(shape, *this), dtype, 0);
  return loc + scale * (log(u) - log1p(-u));
}

Exponential::Exponential(Tensor rate_) : Shapes(check_params("Exponential", {&rate_})), rate(rate_) {}
Tensor Exponential::log_prob(const Tensor& x) const {
  const Tensor v = check_value("Exponential", *this, x);
  return restrict_to(v, nonnegative(v), 0.0, [&](const Tensor& s) { return log(rate) - rate * s; });
}
Tensor Exponential::sample(const Tensor& key, const Shape& shape) const {
  return -log(uniform_open(key, draw_shape(shape, *this), dtype, 0)) / rate;
}

LogNormal::LogNormal(Tensor loc_, Tensor scale_)
    : Shapes(check_params("LogNormal", {&loc_, &scale_})), loc(loc_), scale(scale_) {}
Tensor LogNormal::log_prob(const Tensor& x) const {
  const Tensor v = check_value("LogNormal", *this, x);
  return restrict_to(v, greater(v, 0.0), 1.0, [&](const Tensor& s) {
    const Tensor ls = log(s);
    return normal_log_density((ls - loc) / scale) - log(scale) - ls;
  });
}
Tensor LogNormal::sample(const Tensor& key, const Shape& shape) const {
  return exp(loc + scale * detail::standard_normal(key, draw_shape(shape, *this), dtype, 0));
}

Uniform::Uniform(Tensor low_, Tensor high_)
    : Shapes(check_params("Uniform", {&low_, &high_})), low(low_), high(high_) {}
Tensor Uniform::log_prob(const Tensor& x) const {
  const Tensor v = check_value("Uniform", *this, x);
  const Tensor inside = logical_and(greater_equal(v, low), less_equal(v, high));
  return restrict_to(v, inside, 0.0, [&](const Tensor& s) { return s * 0.0 - log(high - low); });
}
Tensor Uniform::sample(const Tensor& key, const Shape& shape) const {
  return low + (high - low) * uniform_open(key, draw_shape(shape, *this), dtype, 0);
}

Weibull::Weibull(Tensor scale_, Tensor concentration_)
    : Shapes(check_params("Weibull", {&scale_, &concentration_})), scale(scale_), concentration(concentration_) {}
Tensor Weibull::log_prob(const Tensor& x) const {
  const Tensor v = check_value("Weibull", *this, x);
  return restrict_to(v, nonnegative(v), 1.0, [&](const Tensor& s) {
    // xlogy: at x = 0 the density is k / l for k = 1 (0 log 0 = 0), 0 for k > 1 and +inf for k < 1.
    const Tensor z = s / scale;
    return log(concentration) - log(scale) + xlogy(concentration - 1.0, z) - pow(z, concentration);
  });
}
Tensor Weibull::sample(const Tensor& key, const Shape& shape) const {
  const Tensor u = uniform_open(key, draw_shape(shape, *this), dtype, 0);
  return scale * pow(-log(u), reciprocal(concentration));
}

TruncatedNormal::TruncatedNormal(Tensor loc_, Tensor scale_, Tensor low_, Tensor high_)
    : Shapes(check_params("TruncatedNormal", {&loc_, &scale_, &low_, &high_})),
      loc(loc_),
      scale(scale_),
      low(low_),
      high(high_) {}
Tensor TruncatedNormal::log_prob(const Tensor& x) const {
  const Tensor v = check_value("TruncatedNormal", *this, x);
  const Tensor a = (low - loc) / scale, b = (high - loc) / scale;
  // The normaliser Phi(b) - Phi(a), from the tail the interval lies in (the upper one when a > 0), where both
  // CDF values are small and erfc keeps them accurate.
  const Tensor upper = greater(a, 0.0);
  const Tensor mass = select(upper, normal_cdf(-a) - normal_cdf(-b), normal_cdf(b) - normal_cdf(a));
  const Tensor inside = logical_and(greater_equal(v, low), less_equal(v, high));
  const Tensor mid = select(logical_and(is_infinity(low), is_infinity(high)), loc,
                            select(is_infinity(low), high, select(is_infinity(high), low, (low + high) * 0.5)));
  // The fallback point must be inside; restrict_to takes a constant, so the guard is written out here.
  const Tensor safe = select(inside, v, mid);
  const Tensor lp = normal_log_density((safe - loc) / scale) - log(scale) - log(mass);
  return select(inside, lp, select(is_nan(v), v, scalar(-INFINITY, dtype, v.backend())));
}
Tensor TruncatedNormal::sample(const Tensor& key, const Shape& shape) const {
  const Tensor a = (low - loc) / scale, b = (high - loc) / scale;
  // Mirror an interval above the mean into the lower tail, where Phi's values are small and exact.
  const Tensor upper = greater(a, 0.0);
  const Tensor lo = select(upper, -b, a), hi = select(upper, -a, b);
  const Tensor p_lo = normal_cdf(lo), p_hi = normal_cdf(hi);
  const Tensor u = uniform_open(key, draw_shape(shape, *this), dtype, 0);
  // 2p - 1 rounds to -1 for p below half an ulp of 1; kept one ulp inside (-1, 1) so that erf_inv stays finite:
  // this is the accuracy limit dist.hpp states (|z| <= 5.4 in f32, 8.3 in f64).
  const double ulp = dtype == DType::f64 ? std::ldexp(1.0, -53) : std::ldexp(1.0, -24);
  const Tensor t = clip((p_lo + u * (p_hi - p_lo)) * 2.0 - 1.0, -1.0 + ulp, 1.0 - ulp);
  const Tensor z = erf_inv(t) * std::numbers::sqrt2;
  const Tensor x = loc + scale * select(upper, -z, z);
  return clip(x, low, high);  // rounding may step just outside
}

}  // namespace nxv::dist
