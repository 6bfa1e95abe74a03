// nxv::mcmc: Bayesian models and the samplers that draw from them, every chain at once on the model's backend.
//
//   // Eight schools, non-centred: theta = mu + tau * eta.
//   mcmc::Model m;
//   m.param("mu", {}).param("tau", {}, dist::exp_bijection()).param("eta", {8});
//   m.log_density = [&](const Params& p) {
//     const Tensor theta = p.at("mu") + p.at("tau") * p.at("eta");
//     return dist::Normal(scalar(0.0, DType::f64), scalar(5.0, DType::f64)).log_prob(p.at("mu")) +
//            dist::HalfCauchy(scalar(5.0, DType::f64)).log_prob(p.at("tau")) +
//            sum(dist::Normal(scalar(0.0, DType::f64), scalar(1.0, DType::f64)).log_prob(p.at("eta"))) +
//            sum(dist::Normal(theta, sigma).log_prob(y));               // y, sigma: data the closure captures
//   };
//   mcmc::SampleOptions o;
//   o.chains = 1024;
//   mcmc::Samples s = mcmc::sample(m, o);          // NUTS, Stan's window adaptation, f64
//   std::cout << s.summary().to_string();
//
// The model is written for ONE chain; the sampler vectorizes its unconstrained log density over the chain axis
// (include/nxv/vectorize.hpp), takes the gradient with nxv::grad and jits one whole transition (kernels:
// include/nxv/mcmc_kernels.hpp), so every chain moves on the device with no host round trip per leapfrog step.
// Each chain's randomness is derived from (seed, chain index, iteration) with nn::fold_in: a run is reproducible bit
// for bit, on every backend, and chain c draws the same values whatever the number of chains.
#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "nxv/bijections.hpp"
#include "nxv/defn.hpp"
#include "nxv/mcmc_diagnostics.hpp"
#include "nxv/mcmc_kernels.hpp"

namespace nxv::mcmc {

// ---- models ------------------------------------------------------------------------------------------------------
struct ParamSpec {
  std::string name;
  Shape shape;                                    // one chain's value, in the constrained space
  dist::Bijection constraint = dist::identity();  // unconstrained -> the parameter's support
  Shape unconstrained_shape() const;              // shape, less one on the last axis for a simplex
};

struct Model {
  std::vector<ParamSpec> params;  // in declaration order: the order of the unconstrained vector and of summaries
  // The log density (up to a constant) of one chain's constrained parameters: a Params holding each declared
  // parameter with its shape in the sampling dtype; returns a rank-0 tensor. Data are captured by the closure.
  std::function<Tensor(const Params&)> log_density;

  // Declares a parameter (chainable). Throws nxv::Error for a repeated name.
  Model& param(std::string name, Shape shape = {}, dist::Bijection constraint = dist::identity());
  // The length d of one chain's unconstrained vector.
  std::int64_t dimension() const;
};

// The model as a sampler sees it: q [d] (unconstrained) -> log_density(constrain(q)) + the bijections' log|J|.
LogDensity unconstrained_log_density(const Model& model);
// q [..., d] -> each parameter [..., shape...] (forward bijections); unconstrain is its inverse.
Params constrain(const Model& model, const Tensor& q);
Tensor unconstrain(const Model& model, const Params& values);

// ---- sampling ----------------------------------------------------------------------------------------------------
enum class Sampler { hmc, nuts };

// Where a run is, for progress bars: called after each iteration (or every progress_every iterations).
struct Progress {
  std::int64_t iteration = 0, total = 0;  // iterations done, warmup + samples
  bool warmup = true;
  std::int64_t divergences = 0;  // so far in the sampling phase, all chains
};

struct SampleOptions {
  Sampler sampler = Sampler::nuts;
  std::int64_t chains = 4;
  std::int64_t warmup = 1000;
  std::int64_t samples = 1000;
  std::uint64_t seed = 0;
  DType dtype = DType::f64;          // f32 or f64
  Backend* backend = nullptr;        // nullptr: default_backend()
  int num_steps = 32;                // HMC: leapfrog steps per transition
  int max_tree_depth = 10;           // NUTS
  double max_energy_error = 1000.0;  // a larger energy error is a divergence
  double target_accept = 0.8;        // dual averaging's target accept_stat
  double step_size = 1.0;            // the initial step size (refined by Stan's heuristic when adapting)
  // Each transition's step size is eps (1 + jitter (2u - 1)), u ~ U(0, 1) per chain and iteration (Stan's
  // stepsize_jitter, in [0, 1]). HMC with a fixed num_steps needs it on near-Gaussian targets: a trajectory close
  // to half a period makes draws alternate in sign, so |x| barely moves within a chain (tail R-hat >> 1).
  double step_size_jitter = 0.0;
  bool adapt_step_size = true;
  bool adapt_mass_matrix = true;  // diagonal, in Stan's doubling windows
  double init_radius = 2.0;       // initial positions uniform in (-r, r) in unconstrained space (Stan's)
  Params init;                    // optional: constrained initial values (broadcast to every chain)
  std::int64_t progress_every = 10;
  std::function<void(const Progress&)> on_progress;
};

// Where a run's wall time went, in seconds (each phase ends with a read-back, so it includes its GPU work).
struct Timing {
  double setup = 0;            // keys, initial points and the first step-size search (their compiling included)
  double first_iteration = 0;  // the first transition: tracing, compiling and running the step
  double warmup = 0;           // the other warm-up iterations, with the step-size searches at window ends
  double sampling = 0;         // the draws, until the last one is on the host
};

struct Samples {
  std::vector<std::string> names;  // the model's parameters, in declaration order
  Params draws;                    // constrained, each [chains, samples, shape...]
  Tensor unconstrained;            // [chains, samples, d]
  Tensor log_density;              // [chains, samples]
  Tensor accept_stat, energy;      // [chains, samples]
  Tensor diverging;                // pred [chains, samples]
  Tensor num_steps, tree_depth;    // s64 [chains, samples]
  Tensor step_size;                // [chains], after warm-up
  Tensor inverse_mass;             // [chains, d], after warm-up
  std::int64_t warmup_divergences = 0;
  // Leapfrog steps (gradient evaluations) of the warm-up transitions, all chains summed; the step-size searches at
  // window ends are not counted. With num_steps, the sampling phase's are sum(num_steps).
  std::int64_t warmup_gradient_evaluations = 0;
  Timing timing;
  // Whether every transition ran as a chain shader (one invocation per chain, src/trace/jit_map.hpp) rather than
  // through the vectorized jit path: NXV_CHAIN_SHADERS (by default from 16384 chains on) and whether the backend
  // could generate the model.
  bool chain_shaders = false;
  // The summary table of every parameter (include/nxv/mcmc_diagnostics.hpp) with the sampling divergences.
  Summary summary() const;
};

// Runs warm-up (adapting per chain as the options say) and then draws `samples` per chain. Throws nxv::Error for
// bad options, a model whose log density is not a rank-0 float tensor, and when no initial point with a finite
// log density and gradient is found (naming the parameter whose value or gradient is not finite).
Samples sample(const Model& model, const SampleOptions& options = {});

}  // namespace nxv::mcmc
