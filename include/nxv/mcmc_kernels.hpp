// nxv::mcmc transition kernels: HMC and NUTS for ONE chain, written with ops so that the sampler driver runs every
// chain at once by vectorizing them over a chain axis (include/nxv/vectorize.hpp) and compiles the whole transition
// with jit: loops are nxv::fori_loop / nxv::while_loop, so no host round trip per leapfrog step.
//
//   mcmc::LogDensity f = [](const Tensor& q) { return sum(square(q)) * -0.5; };   // a standard normal, d = q.size
//   mcmc::ChainState s = mcmc::init_state(f, zeros({3}, DType::f64));
//   mcmc::Transition t = mcmc::hmc_transition(f, s, {scalar(0.1, DType::f64), ones({3}, DType::f64)},
//                                             nn::key_tensor(key(1)), 16);
//
// Conventions (Stan's and NumPyro's): positions live in unconstrained space (the model applies its bijections);
// the Hamiltonian is H(q, p) = -log_density(q) + p^T M^-1 p / 2 with a diagonal inverse mass M^-1; momenta are drawn
// as p ~ N(0, M); a transition whose energy error H_new - H_0 exceeds max_energy_error, or is NaN, is divergent.
// Randomness comes only from the key tensor (s64[2], nn::key_tensor / nn::fold_in): the same key gives the same
// bits on every backend.
#pragma once
#include <functional>

#include "nxv/tensor.hpp"

namespace nxv::mcmc {

// The log density of one chain's unconstrained position q (f32 or f64, shape [d]): a rank-0 tensor of q's dtype,
// written with ops (it is traced, differentiated with nxv::grad and vectorized over chains).
using LogDensity = std::function<Tensor(const Tensor& q)>;

// One chain's state between transitions.
struct ChainState {
  Tensor position;     // [d]
  Tensor log_density;  // []
  Tensor gradient;     // [d]: d log_density / d position
};
// The state at `position`: evaluates the log density and its gradient.
ChainState init_state(const LogDensity& f, const Tensor& position);

// The tuned quantities of a kernel (per chain): the step size [] and the diagonal inverse mass matrix [d].
struct KernelParams {
  Tensor step_size;
  Tensor inverse_mass;
};

// What a transition reports (per chain).
struct TransitionStats {
  Tensor accept_stat;  // [] in [0, 1]; HMC: min(1, exp(-energy error)); NUTS: Stan's accept_stat (the mean over
                       // the trajectory's new states). What step-size adaptation targets.
  Tensor diverging;    // pred []
  Tensor num_steps;    // s64 []: leapfrog steps taken
  Tensor tree_depth;   // s64 []: NUTS's tree depth (HMC: 0)
  Tensor energy;       // []: the Hamiltonian of the returned state with its momentum
};
struct Transition {
  ChainState state;
  TransitionStats stats;
};

// The kinetic energy p^T M^-1 p / 2 of momentum p [d].
Tensor kinetic_energy(const Tensor& momentum, const Tensor& inverse_mass);
// A momentum p ~ N(0, M) for M = diag(1 / inverse_mass), drawn from `key`.
Tensor draw_momentum(const Tensor& key, const Tensor& inverse_mass);

// One leapfrog step of size `step_size` (a rank-0 tensor; negative integrates backwards): half a momentum step,
// a position step, the new gradient, half a momentum step. Returns the new state; `momentum` is updated in place.
ChainState leapfrog(const LogDensity& f, const ChainState& s, Tensor& momentum, const Tensor& step_size,
                    const Tensor& inverse_mass);

// One HMC transition: a fresh momentum, num_steps leapfrog steps (a fori_loop), the Metropolis correction.
Transition hmc_transition(const LogDensity& f, const ChainState& s, const KernelParams& k, const Tensor& key,
                          int num_steps, double max_energy_error = 1000.0);

// One NUTS transition (Hoffman and Gelman 2014 with Betancourt's improvements, as Stan and NumPyro): the tree is
// doubled in a random direction until the generalised no-U-turn criterion holds on the whole tree or a subtree,
// the trajectory diverges, or the depth reaches max_tree_depth; the next state is chosen by multinomial sampling
// biased towards the newest subtree. tree_depth counts the doublings made (a rejected last one included, as
// NumPyro), so num_steps <= 2^tree_depth - 1; src/mcmc/nuts.cpp says how the keys are used.
Transition nuts_transition(const LogDensity& f, const ChainState& s, const KernelParams& k, const Tensor& key,
                           int max_tree_depth = 10, double max_energy_error = 1000.0);

}  // namespace nxv::mcmc
