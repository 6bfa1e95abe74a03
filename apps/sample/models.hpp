// nxv-sample's built-in models: each a function that returns an mcmc::Model over its data (captured in the
// requested dtype on the given backend), written for one chain as include/nxv/mcmc.hpp asks.
#pragma once
#include <string>

#include "nxv/mcmc.hpp"
#include "sample/data.hpp"
#include "sample/options.hpp"

namespace nxv::sample_app {

struct BuiltinModel {
  std::string name;   // eight_schools, logistic, hierarchical, regime
  std::string about;  // one line for the log: the model and its data
  mcmc::Model model;
};

// The eight schools of Rubin (1981), non-centred: theta = mu + tau eta.
BuiltinModel eight_schools(DType dtype, Backend& backend);
// Bayesian logistic regression: alpha ~ Normal(0, 1), beta [k] ~ Normal(0, 1), y ~ Bernoulli(logits alpha + x beta).
BuiltinModel logistic_regression(const LogisticData& data, DType dtype, Backend& backend);
// Varying intercepts, non-centred: alpha = mu_alpha + tau eta, y ~ Normal(alpha[group] + beta x, sigma).
BuiltinModel hierarchical_regression(const HierarchicalData& data, DType dtype, Backend& backend);
// Three regimes mixed by softmax weights that depend on a covariate (models.cpp says which).
BuiltinModel regime_model(const RegimeData& data, DType dtype, Backend& backend);

// The model the options name, with its data (read from --data or generated). Throws UsageError for bad data.
BuiltinModel make_model(const SampleAppOptions& options, Backend& backend);

}  // namespace nxv::sample_app
