// A placeholder for NUTS until its branch lands (it replaces this file): the declaration links, the call throws.
#include "nxv/mcmc_kernels.hpp"

namespace nxv::mcmc {

Transition nuts_transition(const LogDensity&, const ChainState&, const KernelParams&, const Tensor&, int, double) {
  throw Error("mcmc::nuts_transition: not yet");
}

}  // namespace nxv::mcmc
