// NUTS's U-turn checks (private to src/mcmc): the generalised no-U-turn criterion between two end momenta, and the
// iterative form that checks every sub-subtree a new leaf completes against checkpoints kept in [depth, d] arrays.
#pragma once
#include "nxv/tensor.hpp"

namespace nxv::mcmc::detail {

// Betancourt's generalised criterion (Stan's compute_criterion): with v = M^-1 p, the span from the momentum
// p_begin to p_end whose momenta sum to rho is turning when dot(v_begin, rho) <= 0 or dot(v_end, rho) <= 0. The
// arguments may carry leading axes (one check per row); the result drops the last axis.
Tensor is_turning(const Tensor& p_begin, const Tensor& p_end, const Tensor& rho, const Tensor& inverse_mass);

// Merging span A (built first) with span B (built next) is turning when the merged span is, or, as Stan since 2.26
// (Betancourt's extra checks), A extended by B's first momentum or B extended by A's last momentum is.
Tensor is_merge_turning(const Tensor& a_begin, const Tensor& a_end, const Tensor& rho_a, const Tensor& b_begin,
                        const Tensor& b_end, const Tensor& rho_b, const Tensor& inverse_mass);

// The checkpoints of one subtree as NumPyro's iterative build keeps them (hmc_util.py, _iterative_build_subtree):
// leaf n (0-based in the subtree, n even) begins the pending sub-subtree at row popcount(n) and saves there its
// momentum, the momentum sum up to and including it, and the previous leaf's momentum (for the extra checks).
// Each array has max_tree_depth + 1 rows: the last is a spare that is never written, so that "the row after row i"
// is a slice of the array (read in place by fused kernels) rather than a concatenation (a copy per array and step).
struct Checkpoints {
  Tensor momentum;      // [depth + 1, d]
  Tensor momentum_sum;  // [depth + 1, d]
  Tensor previous;      // [depth + 1, d]
};

// Leaf n with momentum p, the subtree's momentum sum rho (leaf n included) and the previous leaf's momentum:
// the checkpoints updated (at even n) and whether a sub-subtree ending at leaf n (sizes 2, 4, ..., the trailing
// ones of n) turns, each sub-subtree checked as Stan's recursive build_tree merges its two halves.
std::pair<Checkpoints, Tensor> add_leaf(const Checkpoints& c, const Tensor& n, const Tensor& p, const Tensor& rho,
                                        const Tensor& previous, const Tensor& inverse_mass);

}  // namespace nxv::mcmc::detail
