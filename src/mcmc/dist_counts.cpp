// The count distributions: Binomial, Poisson and NegativeBinomial, their mass functions and their samplers
// (inversion for small means, Hoermann's transformed rejection for large ones; dist.hpp states the rounds).
#include <cmath>

#include "mcmc/dist_support.hpp"

namespace nxv::dist {

using detail::check_params;
using detail::check_value;
using detail::draw_shape;
using detail::restrict_to;
using detail::uniform_open;

namespace {

constexpr int kInversionSteps = 48;
constexpr int kRejectionRounds = 12;
constexpr double kSmallMean = 10;

Tensor is_count(const Tensor& k) {
  return logical_and(logical_and(greater_equal(k, 0.0), equal(k, floor(k))), logical_not(is_infinity(k)));
}

// #{k in [0, kInversionSteps) : F(k) < u}: the inverse CDF at u while the count stays below the step count.
// p0 = P(0), ratio(k) = P(k + 1) / P(k).
template <class Ratio>
Tensor invert(const Tensor& u, const Tensor& p0, Ratio ratio) {
  Tensor p = p0, cdf = p0, count = zeros(u.shape(), u.dtype(), u.backend());
  for (int k = 0; k < kInversionSteps; ++k) {
    count = count + as_type(greater(u, cdf), u.dtype());
    p = p * ratio(static_cast<double>(k));
    cdf = cdf + p;
  }
  return count;
}

}  // namespace

namespace detail {

Tensor poisson_count(const Tensor& key, const Shape& shape, const Tensor& rate, std::uint32_t first) {
  const DType dtype = rate.dtype();
  const Tensor small = less(rate, kSmallMean);
  const Tensor one = scalar(1.0, dtype, key.backend());
  // Each branch sees only parameters of its own range (the other lanes get a harmless stand-in).
  const Tensor lam_s = select(small, rate, one);
  const Tensor by_inversion =
      invert(uniform_open(key, shape, dtype, first), exp(-lam_s), [&](double k) { return lam_s / (k + 1); });
  // PTRS (Hoermann 1993, "The transformed rejection method for generating Poisson random variables").
  const Tensor lam = select(small, scalar(kSmallMean, dtype, key.backend()), rate);
  const Tensor b = 0.931 + 2.53 * sqrt(lam);
  const Tensor a = -0.059 + 0.02483 * b;
  const Tensor log_inv_alpha = log(1.1239 + 1.1328 / (b - 3.4));
  const Tensor vr = 0.9277 - 3.6224 / (b - 2.0);
  const Tensor log_lam = log(lam);
  Tensor value = zeros(shape, dtype, key.backend()) + floor(lam);  // the mode, should every round reject
  Tensor done = full(shape, 0.0, DType::pred, key.backend());
  for (int r = 0; r < kRejectionRounds; ++r) {
    const Tensor u = uniform_open(key, shape, dtype, first + 1 + 2 * r) - 0.5;
    const Tensor v = uniform_open(key, shape, dtype, first + 2 + 2 * r);
    const Tensor us = 0.5 - abs(u);
    const Tensor k = floor((2.0 * a / us + b) * u + lam + 0.43);
    const Tensor quick = logical_and(greater_equal(us, 0.07), less_equal(v, vr));
    const Tensor k_safe = max(k, 0.0);
    const Tensor bound = -lam + k_safe * log_lam - lgamma(k_safe + 1.0);
    const Tensor slow =
        logical_and(logical_and(greater_equal(k, 0.0), logical_not(logical_and(less(us, 0.013), greater(v, us)))),
                    less_equal(log(v) + log_inv_alpha - log(a / square(us) + b), bound));
    const Tensor accept = logical_or(quick, slow);
    value = select(logical_and(accept, logical_not(done)), k, value);
    done = logical_or(done, accept);
  }
  return select(small, by_inversion, value);
}

}  // namespace detail

Poisson::Poisson(Tensor rate_) : Shapes(check_params("Poisson", {&rate_})), rate(rate_) {}
Tensor Poisson::log_prob(const Tensor& x) const {
  const Tensor v = check_value("Poisson", *this, x, true);
  return restrict_to(v, is_count(v), 0.0, [&](const Tensor& k) { return xlogy(k, rate) - rate - lgamma(k + 1.0); });
}
Tensor Poisson::sample(const Tensor& key, const Shape& shape) const {
  const Shape s = draw_shape(shape, *this);
  return as_type(detail::poisson_count(key, s, zeros(s, dtype, key.backend()) + rate, 0), DType::s64);
}

Binomial::Binomial(Tensor total_count_, Tensor probs_)
    : Shapes(check_params("Binomial", {&total_count_, &probs_})), total_count(total_count_), probs(probs_) {}
Tensor Binomial::log_prob(const Tensor& x) const {
  const Tensor v = check_value("Binomial", *this, x, true);
  const Tensor inside = logical_and(is_count(v), less_equal(v, total_count));
  return restrict_to(v, inside, 0.0, [&](const Tensor& k) {
    const Tensor n = total_count;
    return lgamma(n + 1.0) - lgamma(k + 1.0) - lgamma(n - k + 1.0) + xlogy(k, probs) + xlog1py(n - k, -probs);
  });
}
Tensor Binomial::sample(const Tensor& key, const Shape& shape) const {
  const Shape s = draw_shape(shape, *this);
  const Tensor n = zeros(s, dtype, key.backend()) + total_count;
  // Draw the count of the rarer outcome, q = min(p, 1 - p), and flip back.
  const Tensor flip = greater(probs, 0.5);
  const Tensor q = zeros(s, dtype, key.backend()) + select(flip, 1.0 - probs, probs);
  const Tensor small = less(n * q, kSmallMean);
  const Tensor one = scalar(1.0, dtype, key.backend());
  const Tensor q_s = select(small, q, scalar(0.0, dtype, key.backend()));
  const Tensor by_inversion = min(invert(uniform_open(key, s, dtype, 0), exp(xlog1py(n, -q_s)),
                                         [&](double k) { return max(n - k, 0.0) / (k + 1) * (q_s / (1.0 - q_s)); }),
                                  n);
  // BTRS (Hoermann 1993, "The generation of binomial random variates").
  const Tensor nb = select(small, scalar(100.0, dtype, key.backend()), n);
  const Tensor p = select(small, scalar(0.5, dtype, key.backend()), q);
  const Tensor spq = sqrt(nb * p * (1.0 - p));
  const Tensor b = 1.15 + 2.53 * spq;
  const Tensor a = -0.0873 + 0.0248 * b + 0.01 * p;
  const Tensor c = nb * p + 0.5;
  const Tensor vr = 0.92 - 4.2 / b;
  const Tensor alpha = (2.83 + 5.1 / b) * spq;
  const Tensor lpq = log(p / (1.0 - p));
  const Tensor m = floor((nb + 1.0) * p);
  const Tensor h = lgamma(m + 1.0) + lgamma(nb - m + 1.0);
  Tensor value = m;  // the mode, should every round reject
  Tensor done = full(s, 0.0, DType::pred, key.backend());
  for (int r = 0; r < kRejectionRounds; ++r) {
    const Tensor u = uniform_open(key, s, dtype, 1 + 2 * r) - 0.5;
    const Tensor v = uniform_open(key, s, dtype, 2 + 2 * r);
    const Tensor us = 0.5 - abs(u);
    const Tensor k = floor((2.0 * a / us + b) * u + c);
    const Tensor quick = logical_and(greater_equal(us, 0.07), less_equal(v, vr));
    const Tensor in_range = logical_and(greater_equal(k, 0.0), less_equal(k, nb));
    const Tensor k_safe = clip(k, zeros({}, dtype, key.backend()), nb);
    const Tensor bound = h - lgamma(k_safe + 1.0) - lgamma(nb - k_safe + 1.0) + (k_safe - m) * lpq;
    const Tensor slow = logical_and(in_range, less_equal(log(v * alpha / (a / square(us) + b)), bound));
    const Tensor accept = logical_or(quick, slow);
    value = select(logical_and(accept, logical_not(done)), k, value);
    done = logical_or(done, accept);
  }
  const Tensor count = select(small, by_inversion, value);
  return as_type(select(flip, n - count, count), DType::s64);
}

NegativeBinomial::NegativeBinomial(Tensor total_count_, Tensor probs_)
    : Shapes(check_params("NegativeBinomial", {&total_count_, &probs_})), total_count(total_count_), probs(probs_) {}
Tensor NegativeBinomial::log_prob(const Tensor& x) const {
  const Tensor v = check_value("NegativeBinomial", *this, x, true);
  return restrict_to(v, is_count(v), 0.0, [&](const Tensor& k) {
    const Tensor r = total_count;
    return lgamma(k + r) - lgamma(r) - lgamma(k + 1.0) + xlog1py(r, -probs) + xlogy(k, probs);
  });
}
Tensor NegativeBinomial::sample(const Tensor& key, const Shape& shape) const {
  const Shape s = draw_shape(shape, *this);
  const Tensor rate = detail::standard_gamma(key, s, total_count, 0) * (probs / (1.0 - probs));
  return as_type(detail::poisson_count(key, s, rate, detail::kGammaStreams), DType::s64);
}

}  // namespace nxv::dist
