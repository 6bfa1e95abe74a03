// The distributions of nxv::dist by name, for table-driven tests: build one from its parameters (in its
// constructor's order) and hand it to a generic function.
#pragma once
#include <string>
#include <vector>

#include "nxv/dist.hpp"
#include "nxv/error.hpp"

namespace nxv::testing {

template <class F>
Tensor with_dist(const std::string& name, const std::vector<Tensor>& p, F f) {
  using namespace nxv::dist;
  if (name == "Normal") return f(Normal(p[0], p[1]));
  if (name == "HalfNormal") return f(HalfNormal(p[0]));
  if (name == "Cauchy") return f(Cauchy(p[0], p[1]));
  if (name == "HalfCauchy") return f(HalfCauchy(p[0]));
  if (name == "Laplace") return f(Laplace(p[0], p[1]));
  if (name == "Logistic") return f(Logistic(p[0], p[1]));
  if (name == "Exponential") return f(Exponential(p[0]));
  if (name == "LogNormal") return f(LogNormal(p[0], p[1]));
  if (name == "Uniform") return f(Uniform(p[0], p[1]));
  if (name == "Weibull") return f(Weibull(p[0], p[1]));
  if (name == "TruncatedNormal") return f(TruncatedNormal(p[0], p[1], p[2], p[3]));
  if (name == "BernoulliProbs") return f(BernoulliProbs(p[0]));
  if (name == "BernoulliLogits") return f(BernoulliLogits(p[0]));
  if (name == "Categorical") return f(Categorical(p[0]));
  if (name == "MultivariateNormalDiag") return f(MultivariateNormalDiag(p[0], p[1]));
  if (name == "StudentT") return f(StudentT(p[0], p[1], p[2]));
  if (name == "Gamma") return f(Gamma(p[0], p[1]));
  if (name == "InverseGamma") return f(InverseGamma(p[0], p[1]));
  if (name == "Beta") return f(Beta(p[0], p[1]));
  if (name == "Binomial") return f(Binomial(p[0], p[1]));
  if (name == "Poisson") return f(Poisson(p[0]));
  if (name == "NegativeBinomial") return f(NegativeBinomial(p[0], p[1]));
  if (name == "Dirichlet") return f(Dirichlet(p[0]));
  nxv::detail::fail("with_dist: no distribution named ", name);
}

inline Tensor log_prob_of(const std::string& name, const std::vector<Tensor>& params, const Tensor& x) {
  return with_dist(name, params, [&](const auto& d) { return d.log_prob(x); });
}

inline Tensor sample_of(const std::string& name, const std::vector<Tensor>& params, const Tensor& key,
                        const Shape& shape) {
  return with_dist(name, params, [&](const auto& d) { return d.sample(key, shape); });
}

}  // namespace nxv::testing
