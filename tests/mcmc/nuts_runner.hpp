// A minimal host loop for the NUTS tests: one jitted, vectorized nuts_transition per iteration over every chain
// (the real driver, mcmc::sample, lives elsewhere), the draws and statistics copied to the host.
#pragma once
#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "nxv/control_flow.hpp"
#include "nxv/mcmc_kernels.hpp"
#include "nxv/nn.hpp"
#include "nxv/ops.hpp"
#include "nxv/vectorize.hpp"

namespace nxv::mcmc_test {

// One chain's log density at q given its row of data (unused by models without data).
using Model = std::function<Tensor(const Tensor& q, const Tensor& data)>;

struct NutsSetup {
  Model model;
  Tensor init;  // f64 [chains, d]
  Tensor data;  // [chains, m]: batched like the chains
  double step_size = 0.5;
  std::vector<double> inverse_mass;  // [d]
  int max_tree_depth = 10;
  std::uint64_t seed = 1;
};

// Kept draws and statistics, chain-major: draws[(c * kept + i) * d + j], stats[c * kept + i].
struct NutsRun {
  std::int64_t chains = 0, kept = 0, d = 0;
  std::vector<double> draws, accept, energy;
  std::vector<std::int64_t> diverging, num_steps, tree_depth;

  // Parameter j's draws as [chains, kept] (the diagnostics' layout), f64 on the reference backend.
  Tensor param(std::int64_t j) const {
    std::vector<double> v(static_cast<std::size_t>(chains * kept));
    for (std::int64_t k = 0; k < chains * kept; ++k) v[k] = draws[k * d + j];
    return from_data<double>(std::span<const double>(v), {chains, kept}, reference_backend());
  }
};

// The transition of one chain as the jitted function's flat outputs.
inline std::vector<Tensor> one_transition(const Model& model, int max_tree_depth, const Tensor& q, const Tensor& lp,
                                          const Tensor& g, const Tensor& data, const Tensor& key, const Tensor& it,
                                          const Tensor& eps, const Tensor& minv) {
  const mcmc::LogDensity f = [&](const Tensor& x) { return model(x, data); };
  const mcmc::Transition t = mcmc::nuts_transition(f, {q, lp, g}, {eps, minv}, nn::fold_in(key, it), max_tree_depth);
  return {t.state.position,
          t.state.log_density,
          t.state.gradient,
          t.stats.accept_stat,
          as_type(t.stats.diverging, DType::s64),
          t.stats.num_steps,
          t.stats.tree_depth,
          t.stats.energy};
}

using StepFn = std::function<std::vector<Tensor>(const Tensor&, const Tensor&, const Tensor&, const Tensor&,
                                                 const Tensor&, const Tensor&, const Tensor&, const Tensor&)>;

// The jitted, vectorized transition over (state, data, key) per chain and (iteration, step size, inverse mass)
// shared; each chain's key is fold_in(key(seed), c), each transition's fold_in(that, iteration).
inline Jitted<Vectorized<StepFn>> jitted_transition(const Model& model, int max_tree_depth) {
  const StepFn step = [model, max_tree_depth](const Tensor& q, const Tensor& lp, const Tensor& g, const Tensor& data,
                                              const Tensor& key, const Tensor& it, const Tensor& eps,
                                              const Tensor& minv) {
    return one_transition(model, max_tree_depth, q, lp, g, data, key, it, eps, minv);
  };
  return jit(vectorize(step, {0, 0, 0, 0, 0, not_batched, not_batched, not_batched}));
}

struct NutsKernel {
  NutsKernel(const NutsSetup& s, Backend& backend)
      : chains(s.init.dim(0)), fn(jitted_transition(s.model, s.max_tree_depth)) {
    const Tensor base = nn::key_tensor(key(s.seed), backend);
    keys = vectorize([&](const Tensor& c) { return nn::fold_in(base, c); })(iota({chains}, 0, DType::s64, backend));
    eps = scalar(s.step_size, DType::f64, backend);
    minv = from_data<double>(std::span<const double>(s.inverse_mass), {s.init.dim(1)}, backend);
    data = s.data.to(backend);
    const auto init_one = [m = s.model](const Tensor& q, const Tensor& row) {
      const mcmc::ChainState st = mcmc::init_state([&](const Tensor& x) { return m(x, row); }, q);
      return std::vector<Tensor>{st.position, st.log_density, st.gradient};
    };
    state = jit(vectorize(init_one))(s.init.to(backend), data);
  }

  // Transition number `it` of every chain; returns the flat outputs (state, then the statistics).
  std::vector<Tensor> advance(std::int64_t it) {
    const Tensor iteration = scalar(static_cast<double>(it), DType::s64, keys.backend());
    std::vector<Tensor> out = fn(state[0], state[1], state[2], data, keys, iteration, eps, minv);
    state = {out[0], out[1], out[2]};
    return out;
  }

  std::int64_t chains;
  Jitted<Vectorized<StepFn>> fn;
  Tensor keys, eps, minv, data;
  std::vector<Tensor> state;
};

// `warmup` discarded transitions, then `kept` transitions each `thin` apart, on `backend`.
inline NutsRun run_nuts(const NutsSetup& s, int warmup, int kept, int thin = 1,
                        Backend& backend = reference_backend()) {
  NutsKernel k(s, backend);
  NutsRun r;
  r.chains = k.chains;
  r.kept = kept;
  r.d = s.init.dim(1);
  const std::size_t n = static_cast<std::size_t>(r.chains * kept);
  r.draws.resize(n * static_cast<std::size_t>(r.d));
  r.accept.resize(n), r.energy.resize(n), r.diverging.resize(n), r.num_steps.resize(n), r.tree_depth.resize(n);
  std::int64_t it = 0;
  for (int i = 0; i < warmup; ++i) k.advance(it++);
  for (int i = 0; i < kept; ++i) {
    std::vector<Tensor> out;
    for (int t = 0; t < thin; ++t) out = k.advance(it++);
    const std::vector<double> q = out[0].to(reference_backend()).to_vector<double>();
    const std::vector<double> acc = out[3].to(reference_backend()).to_vector<double>();
    const std::vector<double> en = out[7].to(reference_backend()).to_vector<double>();
    const std::vector<std::int64_t> dv = out[4].to(reference_backend()).to_vector<std::int64_t>();
    const std::vector<std::int64_t> ns = out[5].to(reference_backend()).to_vector<std::int64_t>();
    const std::vector<std::int64_t> td = out[6].to(reference_backend()).to_vector<std::int64_t>();
    for (std::int64_t c = 0; c < r.chains; ++c) {
      const std::size_t at = static_cast<std::size_t>(c * kept + i);
      for (std::int64_t j = 0; j < r.d; ++j) r.draws[at * r.d + j] = q[c * r.d + j];
      r.accept[at] = acc[c], r.energy[at] = en[c], r.diverging[at] = dv[c];
      r.num_steps[at] = ns[c], r.tree_depth[at] = td[c];
    }
  }
  return r;
}

}  // namespace nxv::mcmc_test
