// The Hamiltonian pieces every kernel shares: the start state, momenta, kinetic energy and the leapfrog step.
#include "mcmc/dist_support.hpp"
#include "nxv/grad.hpp"
#include "nxv/mcmc_kernels.hpp"

namespace nxv::mcmc {

ChainState init_state(const LogDensity& f, const Tensor& position) {
  NXV_CHECK(position.defined() && position.rank() == 1 && (position.dtype() == DType::f32 || position.dtype() == DType::f64),
            "mcmc::init_state", "got position ", position.defined() ? to_string(position.type()) : "undefined",
            ", expected an f32 or f64 vector [d]");
  auto [value, gradient] = value_and_grad(f)(position);
  NXV_CHECK(value.rank() == 0 && value.dtype() == position.dtype(), "mcmc::init_state", "the log density returned ",
            to_string(value.type()), ", expected a rank-0 ", name(position.dtype()), " tensor");
  return {position, value, gradient};
}

Tensor kinetic_energy(const Tensor& momentum, const Tensor& inverse_mass) {
  return sum(square(momentum) * inverse_mass) * 0.5;
}

Tensor draw_momentum(const Tensor& key, const Tensor& inverse_mass) {
  // p = z / sqrt(M^-1) has covariance M = diag(1 / inverse_mass).
  return dist::detail::standard_normal(key, inverse_mass.shape(), inverse_mass.dtype(), 0) * rsqrt(inverse_mass);
}

ChainState leapfrog(const LogDensity& f, const ChainState& s, Tensor& momentum, const Tensor& step_size,
                    const Tensor& inverse_mass) {
  const Tensor half = step_size * 0.5;
  // The log density's gradient is minus the potential's, so the momentum moves along it.
  const Tensor p_half = momentum + half * s.gradient;
  const Tensor q = s.position + step_size * (inverse_mass * p_half);
  auto [value, gradient] = value_and_grad(f)(q);
  momentum = p_half + half * gradient;
  return {q, value, gradient};
}

}  // namespace nxv::mcmc
