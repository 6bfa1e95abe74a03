// The continuous distributions whose densities need lgamma (StudentT, Gamma, InverseGamma, Beta, Dirichlet) and
// the gamma variates they are drawn from.
#include <cmath>
#include <numbers>

#include "mcmc/dist_support.hpp"

namespace nxv::dist {

using detail::check_params;
using detail::check_value;
using detail::draw_shape;
using detail::kGammaStreams;
using detail::restrict_to;
using detail::standard_gamma;

namespace detail {

Tensor standard_gamma(const Tensor& key, const Shape& shape, const Tensor& alpha, std::uint32_t first) {
  constexpr int kRounds = 10;
  const DType dtype = alpha.dtype();
  const Tensor boost = less(alpha, 1.0);
  const Tensor a = select(boost, alpha + 1.0, alpha);
  const Tensor d = a - 1.0 / 3.0;
  const Tensor c = rsqrt(d * 9.0);
  Tensor value = zeros(shape, dtype, key.backend()) + d;
  Tensor done = full(shape, 0.0, DType::pred, key.backend());
  for (int r = 0; r < kRounds; ++r) {
    const Tensor z = standard_normal(key, shape, dtype, first + 1 + 2 * r);
    const Tensor u = uniform_open(key, shape, dtype, first + 2 + 2 * r);
    const Tensor t = 1.0 + c * z;
    const Tensor positive = greater(t, 0.0);
    const Tensor v = select(positive, t * t * t, scalar(1.0, dtype, key.backend()));
    // Marsaglia and Tsang's test, log form: log u < z^2 / 2 + d - d v + d log v.
    Tensor accept = logical_and(positive, less(log(u), square(z) * 0.5 + d - d * v + d * log(v)));
    if (r == kRounds - 1) accept = positive;  // the last round keeps its candidate (dist.hpp's bound)
    value = select(logical_and(accept, logical_not(done)), d * v, value);
    done = logical_or(done, accept);
  }
  // G(alpha) = G(alpha + 1) U^(1 / alpha) for alpha < 1.
  const Tensor u0 = uniform_open(key, shape, dtype, first);
  return select(boost, value * exp(log(u0) / alpha), value);
}

}  // namespace detail

namespace {

// lgamma(a + 1/2) - lgamma(a). For large a the two terms are ~a log a and their difference ~log(a) / 2, so the
// difference loses the terms' rounding (7e-12 in f64, 3e-3 in f32 at a = 5000); from a = 50 on, the asymptotic
// series 1/2 log a - 1/(8a) + 1/(192a^3) - 1/(640a^5) + 17/(14336a^7), whose next term is < 1e-18 there.
Tensor lgamma_half_step(const Tensor& a) {
  const Tensor large = greater_equal(a, 50.0);
  const Tensor direct = lgamma(a + 0.5) - lgamma(select(large, scalar(1.0, a.dtype(), a.backend()), a));
  const Tensor al = select(large, a, scalar(50.0, a.dtype(), a.backend()));
  const Tensor x = reciprocal(al), x2 = square(x);
  const Tensor series = 0.5 * log(al) - x * (0.125 - x2 * (1.0 / 192 - x2 * (1.0 / 640 - x2 * (17.0 / 14336))));
  return select(large, series, direct);
}

}  // namespace

StudentT::StudentT(Tensor df_, Tensor loc_, Tensor scale_)
    : Shapes(check_params("StudentT", {&df_, &loc_, &scale_})), df(df_), loc(loc_), scale(scale_) {}
Tensor StudentT::log_prob(const Tensor& x) const {
  const Tensor z = (check_value("StudentT", *this, x) - loc) / scale;
  const Tensor half = (df + 1.0) * 0.5;
  return lgamma_half_step(df * 0.5) - 0.5 * log(df * std::numbers::pi) - log(scale) - half * log1p(square(z) / df);
}
Tensor StudentT::sample(const Tensor& key, const Shape& shape) const {
  // Z / sqrt(V / df) with V = 2 G(df / 2) a chi-square of df degrees of freedom.
  const Shape s = draw_shape(shape, *this);
  const Tensor z = detail::standard_normal(key, s, dtype, kGammaStreams);
  const Tensor g = standard_gamma(key, s, df * 0.5, 0);
  return loc + scale * z * sqrt(df / (g * 2.0));
}

Gamma::Gamma(Tensor concentration_, Tensor rate_)
    : Shapes(check_params("Gamma", {&concentration_, &rate_})), concentration(concentration_), rate(rate_) {}
Tensor Gamma::log_prob(const Tensor& x) const {
  const Tensor v = check_value("Gamma", *this, x);
  return restrict_to(v, greater_equal(v, 0.0), 1.0, [&](const Tensor& s) {
    // xlogy: at x = 0 the density is b for a = 1 (0 log 0 = 0).
    return xlogy(concentration - 1.0, s) + concentration * log(rate) - rate * s - lgamma(concentration);
  });
}
Tensor Gamma::sample(const Tensor& key, const Shape& shape) const {
  return standard_gamma(key, draw_shape(shape, *this), concentration, 0) / rate;
}

InverseGamma::InverseGamma(Tensor concentration_, Tensor rate_)
    : Shapes(check_params("InverseGamma", {&concentration_, &rate_})), concentration(concentration_), rate(rate_) {}
Tensor InverseGamma::log_prob(const Tensor& x) const {
  const Tensor v = check_value("InverseGamma", *this, x);
  return restrict_to(v, greater(v, 0.0), 1.0, [&](const Tensor& s) {
    return concentration * log(rate) - lgamma(concentration) - (concentration + 1.0) * log(s) - rate / s;
  });
}
Tensor InverseGamma::sample(const Tensor& key, const Shape& shape) const {
  return rate / standard_gamma(key, draw_shape(shape, *this), concentration, 0);
}

Beta::Beta(Tensor concentration1_, Tensor concentration0_)
    : Shapes(check_params("Beta", {&concentration1_, &concentration0_})),
      concentration1(concentration1_),
      concentration0(concentration0_) {}
Tensor Beta::log_prob(const Tensor& x) const {
  const Tensor v = check_value("Beta", *this, x);
  const Tensor inside = logical_and(greater_equal(v, 0.0), less_equal(v, 1.0));
  return restrict_to(v, inside, 0.5, [&](const Tensor& s) {
    const Tensor log_beta = lgamma(concentration1) + lgamma(concentration0) - lgamma(concentration1 + concentration0);
    return xlogy(concentration1 - 1.0, s) + xlog1py(concentration0 - 1.0, -s) - log_beta;
  });
}
Tensor Beta::sample(const Tensor& key, const Shape& shape) const {
  const Shape s = draw_shape(shape, *this);
  const Tensor x = standard_gamma(key, s, concentration1, 0);
  const Tensor y = standard_gamma(key, s, concentration0, kGammaStreams);
  return x / (x + y);
}

Dirichlet::Dirichlet(Tensor concentration_)
    : Shapes(check_params("Dirichlet", {&concentration_}, 1)), concentration(concentration_) {}
Tensor Dirichlet::log_prob(const Tensor& x) const {
  const Tensor v = check_value("Dirichlet", *this, x);
  const double tol = dtype == DType::f64 ? 1e-6 : 1e-5;
  const Tensor total = sum(v, Axes{-1});
  const Tensor inside = logical_and(all(greater_equal(v, 0.0), Axes{-1}), less_equal(abs(total - 1.0), tol));
  // The guard of restrict_to, over the event axis: outside, the density is evaluated at the simplex's centre.
  const double centre = 1.0 / static_cast<double>(event_shape[0]);
  const Tensor safe = select(expand_dims(inside, -1), v, scalar(centre, dtype, v.backend()));
  const Tensor lp = sum(xlogy(concentration - 1.0, safe), Axes{-1}) + lgamma(sum(concentration, Axes{-1})) -
                    sum(lgamma(concentration), Axes{-1});
  const Tensor outside =
      select(any(is_nan(v), Axes{-1}), scalar(NAN, dtype, v.backend()), scalar(-INFINITY, dtype, v.backend()));
  return select(inside, lp, outside);
}
Tensor Dirichlet::sample(const Tensor& key, const Shape& shape) const {
  const Tensor g = standard_gamma(key, draw_shape(shape, *this), concentration, 0);
  return g / sum(g, Axes{-1}, true);
}

}  // namespace nxv::dist
