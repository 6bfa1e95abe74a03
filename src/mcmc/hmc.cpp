// Static HMC for one chain: a fresh momentum, a fixed number of leapfrog steps in one fori_loop, a Metropolis
// correction; a non-finite or too large energy error is a divergence and leaves the chain where it was.
#include <cmath>
#include <tuple>

#include "mcmc/dist_support.hpp"
#include "nxv/control_flow.hpp"
#include "nxv/mcmc_kernels.hpp"
#include "nxv/nn.hpp"

namespace nxv::mcmc {

namespace {

Tensor is_finite(const Tensor& x) { return logical_not(logical_or(is_nan(x), is_infinity(x))); }

}  // namespace

Transition hmc_transition(const LogDensity& f, const ChainState& s, const KernelParams& k, const Tensor& key,
                          int num_steps, double max_energy_error) {
  NXV_CHECK(num_steps >= 1, "mcmc::hmc_transition", "got num_steps = ", num_steps, ", expected at least 1");
  const DType dtype = s.position.dtype();
  Backend& backend = s.position.backend();
  // Stream 0 of the key is the momentum, stream 1 the Metropolis uniform: independent draws from one key.
  const Tensor p0 = draw_momentum(nn::fold_in(key, scalar(0, DType::s64, backend)), k.inverse_mass);
  const Tensor h0 = kinetic_energy(p0, k.inverse_mass) - s.log_density;
  using Carry = std::tuple<Tensor, Tensor, Tensor, Tensor>;  // position, log density, gradient, momentum
  const auto step = [&](const Tensor&, const Carry& c) {
    Tensor p = std::get<3>(c);
    const ChainState next =
        leapfrog(f, {std::get<0>(c), std::get<1>(c), std::get<2>(c)}, p, k.step_size, k.inverse_mass);
    return Carry(next.position, next.log_density, next.gradient, p);
  };
  const auto [q1, lp1, g1, p1] = fori_loop(0, num_steps, step, Carry(s.position, s.log_density, s.gradient, p0));
  const Tensor h1 = kinetic_energy(p1, k.inverse_mass) - lp1;
  const Tensor energy_error = h1 - h0;
  // A NaN anywhere in the end state (a NaN gradient makes the position NaN on the next step, but not always the log
  // density on this one) is a divergence, as is an energy error beyond the threshold (+inf included).
  const Tensor finite_end = logical_and(is_finite(lp1), logical_and(all(is_finite(g1)), all(is_finite(q1))));
  const Tensor diverging =
      logical_or(logical_not(finite_end), logical_or(is_nan(energy_error), greater(energy_error, max_energy_error)));
  const Tensor zero = scalar(0.0, dtype, backend);
  const Tensor accept_stat = select(diverging, zero, min(exp(-energy_error), scalar(1.0, dtype, backend)));
  const Tensor u = dist::detail::uniform_open(nn::fold_in(key, scalar(1, DType::s64, backend)), {}, dtype, 0);
  // u < min(1, e^-dE); the comparison is false for a NaN accept_stat, and a divergence has accept_stat 0.
  const Tensor accept = logical_and(logical_not(diverging), less(u, accept_stat));
  Transition t;
  t.state = {select(accept, q1, s.position), select(accept, lp1, s.log_density), select(accept, g1, s.gradient)};
  t.stats.accept_stat = accept_stat;
  t.stats.diverging = diverging;
  t.stats.num_steps = full({}, num_steps, DType::s64, backend);
  t.stats.tree_depth = zeros({}, DType::s64, backend);
  t.stats.energy = select(accept, h1, h0);
  return t;
}

}  // namespace nxv::mcmc
