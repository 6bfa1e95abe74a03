// Bernoulli (by probabilities and by logits), Categorical (by logits) and the diagonal multivariate normal.
#include <cmath>

#include "mcmc/dist_support.hpp"

namespace nxv::dist {

using detail::check_params;
using detail::check_value;
using detail::draw_shape;
using detail::restrict_to;
using detail::uniform_open;

namespace {
Tensor is_boolean(const Tensor& x) { return logical_or(equal(x, 0.0), equal(x, 1.0)); }
// Logistic noise: log(u) - log(1 - u) < logits with probability sigmoid(logits).
Tensor logistic_noise(const Tensor& key, const Shape& shape, DType dtype) {
  const Tensor u = uniform_open(key, shape, dtype, 0);
  return log(u) - log1p(-u);
}
}  // namespace

BernoulliProbs::BernoulliProbs(Tensor probs_) : Shapes(check_params("BernoulliProbs", {&probs_})), probs(probs_) {}
Tensor BernoulliProbs::log_prob(const Tensor& x) const {
  const Tensor v = check_value("BernoulliProbs", *this, x, true);
  // xlogy / xlog1py: log 1 = 0 for p = 0 or 1 where the other outcome would be log 0.
  return restrict_to(v, is_boolean(v), 0.0,
                     [&](const Tensor& s) { return xlogy(s, probs) + xlog1py(1.0 - s, -probs); });
}
Tensor BernoulliProbs::sample(const Tensor& key, const Shape& shape) const {
  return as_type(less(uniform_open(key, draw_shape(shape, *this), dtype, 0), probs), DType::s64);
}

BernoulliLogits::BernoulliLogits(Tensor logits_)
    : Shapes(check_params("BernoulliLogits", {&logits_})), logits(logits_) {}
Tensor BernoulliLogits::log_prob(const Tensor& x) const {
  const Tensor v = check_value("BernoulliLogits", *this, x, true);
  // log sigmoid(l) = l - softplus(l) and log(1 - sigmoid(l)) = -softplus(l).
  return restrict_to(v, is_boolean(v), 0.0, [&](const Tensor& s) { return s * logits - softplus(logits); });
}
Tensor BernoulliLogits::sample(const Tensor& key, const Shape& shape) const {
  return as_type(less(logistic_noise(key, draw_shape(shape, *this), dtype), logits), DType::s64);
}

Categorical::Categorical(Tensor logits_) : Shapes(check_params("Categorical", {&logits_}, 1)), logits(logits_) {
  NXV_CHECK(logits.shape().back() >= 1, "Categorical", "got logits of shape ", to_string(logits.shape()),
            ", expected at least one category");
  event_shape = {};  // the values are indices: the category axis is not theirs
}
Tensor Categorical::log_prob(const Tensor& x) const {
  const Tensor v = check_value("Categorical", *this, x, true);
  const std::int64_t k = logits.shape().back();
  const Tensor inside =
      logical_and(logical_and(greater_equal(v, 0.0), less_equal(v, static_cast<double>(k - 1))), equal(v, floor(v)));
  return restrict_to(v, inside, 0.0, [&](const Tensor& s) {
    const Tensor logp = logits - logsumexp(logits, Axes{-1}, true);
    // A one-hot select instead of a gather: it broadcasts x against the batch and differentiates as a sum.
    const Tensor hot = equal(expand_dims(s, -1), iota({k}, 0, dtype, s.backend()));
    return sum(select(hot, logp, scalar(0.0, dtype, s.backend())), Axes{-1});
  });
}
Tensor Categorical::sample(const Tensor& key, const Shape& shape) const {
  // Gumbel-max: argmax(logits + G), G = -log(-log u), picks category i with probability softmax(logits)_i.
  Shape noise_shape = draw_shape(shape, *this);
  noise_shape.push_back(logits.shape().back());
  const Tensor gumbel = -log(-log(uniform_open(key, noise_shape, dtype, 0)));
  return argmax(logits + gumbel, -1);
}

MultivariateNormalDiag::MultivariateNormalDiag(Tensor loc_, Tensor scale_diag_)
    : Shapes(check_params("MultivariateNormalDiag", {&loc_, &scale_diag_}, 1)), loc(loc_), scale_diag(scale_diag_) {}
Tensor MultivariateNormalDiag::log_prob(const Tensor& x) const {
  const Tensor z = (check_value("MultivariateNormalDiag", *this, x) - loc) / scale_diag;
  return sum(detail::normal_log_density(z) - log(scale_diag), Axes{-1});
}
Tensor MultivariateNormalDiag::sample(const Tensor& key, const Shape& shape) const {
  return loc + scale_diag * detail::standard_normal(key, draw_shape(shape, *this), dtype, 0);
}

}  // namespace nxv::dist
