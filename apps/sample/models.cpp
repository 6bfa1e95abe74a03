// The built-in models of nxv-sample. Every log density is a few lines of dist:: log_probs, written for ONE chain
// (the sampler vectorizes it over chains).
//
// The regime model (the original eXMC user's, issue 15): n = 200 observations y_i with a covariate x_i in (-2, 2),
// each from one of three regimes, k = 0 (low), 1 (calm), 2 (high), chosen with softmax weights
//   w_i = softmax(-gamma x_i, kappa, gamma x_i):
// the covariate tilts the mass towards regime 0 (x < 0) or 2 (x > 0) with strength gamma, and kappa > 0 is the
// calm regime's baseline preference. y_i | regime k ~ Normal(mu_k, sigma_k). Eight parameters, four with Normal
// and four with HalfCauchy priors:
//   mu [3] ~ Normal(0, 5), gamma ~ Normal(0, 2), sigma [3] ~ HalfCauchy(2), kappa ~ HalfCauchy(1);
//   log p(y | .) = sum_i logsumexp_k(log w_ik + Normal(mu_k, sigma_k).log_prob(y_i)).
// The generated data (data.cpp) use mu = (-2, 0.5, 3), sigma = (0.6, 0.3, 0.8), gamma = 2, kappa = 1. The regimes
// are told apart by the covariate's sign, so the posterior has no label switching.
#include "sample/models.hpp"

#include "nxv/dist.hpp"
#include "nxv/ops.hpp"

namespace nxv::sample_app {

namespace {

Tensor constant(const std::vector<double>& values, const Shape& shape, DType dtype, Backend& backend) {
  return as_type(tensor<double>(values, shape, backend), dtype);
}

}  // namespace

BuiltinModel eight_schools(DType dtype, Backend& backend) {
  const Tensor y = constant({28, 8, -3, 7, -1, 1, 18, 12}, {8}, dtype, backend);
  const Tensor sigma = constant({15, 10, 16, 11, 9, 11, 10, 18}, {8}, dtype, backend);
  const auto c = [dtype, &backend](double v) { return scalar(v, dtype, backend); };
  BuiltinModel b{"eight_schools", "eight schools, non-centred (Rubin 1981): mu, tau, eta[8]", {}};
  b.model.param("mu").param("tau", {}, dist::exp_bijection()).param("eta", {8});
  b.model.log_density = [y, sigma, zero = c(0), one = c(1), five = c(5)](const Params& p) {
    const Tensor theta = p.at("mu") + p.at("tau") * p.at("eta");
    return dist::Normal(zero, five).log_prob(p.at("mu")) + dist::HalfCauchy(five).log_prob(p.at("tau")) +
           sum(dist::Normal(zero, one).log_prob(p.at("eta"))) + sum(dist::Normal(theta, sigma).log_prob(y));
  };
  return b;
}

BuiltinModel logistic_regression(const LogisticData& d, DType dtype, Backend& backend) {
  const Tensor x = constant(d.x, {d.n, d.k}, dtype, backend);
  const Tensor y = constant(d.y, {d.n}, dtype, backend);
  BuiltinModel b{"logistic",
                 "Bayesian logistic regression: alpha, beta[" + std::to_string(d.k) + "], " + std::to_string(d.n) +
                     " observations",
                 {}};
  b.model.param("alpha").param("beta", {d.k});
  b.model.log_density = [x, y, zero = scalar(0, dtype, backend), one = scalar(1, dtype, backend)](const Params& p) {
    const dist::Normal prior(zero, one);
    const Tensor logits = p.at("alpha") + dot(x, p.at("beta"));
    return prior.log_prob(p.at("alpha")) + sum(prior.log_prob(p.at("beta"))) +
           sum(dist::BernoulliLogits(logits).log_prob(y));
  };
  return b;
}

BuiltinModel hierarchical_regression(const HierarchicalData& d, DType dtype, Backend& backend) {
  const std::int64_t n = static_cast<std::int64_t>(d.y.size()), j = d.groups;
  std::vector<double> one_hot(n * j, 0.0);  // [n, groups]: alpha[group_i] as a matrix product, which differentiates
  for (std::int64_t i = 0; i < n; ++i) one_hot[i * j + d.group[i]] = 1.0;
  const Tensor g = constant(one_hot, {n, j}, dtype, backend);
  const Tensor x = constant(d.x, {n}, dtype, backend);
  const Tensor y = constant(d.y, {n}, dtype, backend);
  const auto c = [dtype, &backend](double v) { return scalar(v, dtype, backend); };
  BuiltinModel b{"hierarchical",
                 "hierarchical linear regression, varying intercepts (non-centred): " + std::to_string(j) +
                     " groups, " + std::to_string(n) + " observations",
                 {}};
  b.model.param("mu_alpha")
      .param("tau", {}, dist::exp_bijection())
      .param("eta", {j})
      .param("beta")
      .param("sigma", {}, dist::exp_bijection());
  b.model.log_density = [g, x, y, zero = c(0), one = c(1), half_cauchy = c(2.5), five = c(5)](const Params& p) {
    const Tensor alpha = p.at("mu_alpha") + p.at("tau") * p.at("eta");
    const Tensor mean = dot(g, alpha) + p.at("beta") * x;
    return dist::Normal(zero, five).log_prob(p.at("mu_alpha")) + dist::HalfCauchy(half_cauchy).log_prob(p.at("tau")) +
           sum(dist::Normal(zero, one).log_prob(p.at("eta"))) + dist::Normal(zero, five).log_prob(p.at("beta")) +
           dist::HalfCauchy(half_cauchy).log_prob(p.at("sigma")) + sum(dist::Normal(mean, p.at("sigma")).log_prob(y));
  };
  return b;
}

BuiltinModel regime_model(const RegimeData& d, DType dtype, Backend& backend) {
  const std::int64_t n = static_cast<std::int64_t>(d.y.size());
  const Tensor x = constant(d.x, {n, 1}, dtype, backend);
  const Tensor y = constant(d.y, {n, 1}, dtype, backend);
  const Tensor tilt = constant({-1, 0, 1}, {3}, dtype, backend);  // the covariate's sign per regime
  const Tensor calm = constant({0, 1, 0}, {3}, dtype, backend);   // where kappa enters
  const auto c = [dtype, &backend](double v) { return scalar(v, dtype, backend); };
  BuiltinModel b{
      "regime", "3-regime softmax mixture: mu[3], gamma, sigma[3], kappa; " + std::to_string(n) + " observations", {}};
  b.model.param("mu", {3})
      .param("gamma")
      .param("sigma", {3}, dist::exp_bijection())
      .param("kappa", {}, dist::exp_bijection());
  b.model.log_density = [x, y, tilt, calm, zero = c(0), one = c(1), two = c(2), five = c(5)](const Params& p) {
    const Tensor logits = p.at("gamma") * x * tilt + p.at("kappa") * calm;  // [n, 3]
    const Tensor log_w = logits - logsumexp(logits, Axes{1}, true);
    const Tensor log_lik = dist::Normal(p.at("mu"), p.at("sigma")).log_prob(y);  // [n, 3]
    return sum(dist::Normal(zero, five).log_prob(p.at("mu"))) + dist::Normal(zero, two).log_prob(p.at("gamma")) +
           sum(dist::HalfCauchy(two).log_prob(p.at("sigma"))) + dist::HalfCauchy(one).log_prob(p.at("kappa")) +
           sum(logsumexp(log_w + log_lik, Axes{1}));
  };
  return b;
}

BuiltinModel make_model(const SampleAppOptions& o, Backend& backend) {
  if (o.model == "eight_schools") return eight_schools(o.dtype, backend);
  if (o.model == "logistic")
    return logistic_regression(
        o.data.empty() ? generate_logistic_data(o.features, o.observations) : read_logistic_csv(o.data), o.dtype,
        backend);
  if (o.model == "hierarchical") return hierarchical_regression(generate_hierarchical_data(), o.dtype, backend);
  if (o.model == "regime") return regime_model(generate_regime_data(), o.dtype, backend);
  throw UsageError("unknown model '" + o.model + "'");
}

}  // namespace nxv::sample_app
