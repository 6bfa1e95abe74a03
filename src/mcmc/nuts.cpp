// The NUTS transition for one chain: NumPyro's iterative tree building flattened into one while_loop of one
// leapfrog step per iteration, so that a vectorized run waits only for the chain with the longest trajectory.
//
// Each iteration adds one leaf to the subtree being built in the current doubling's direction (drawn when the
// subtree starts), samples it progressively into the subtree's proposal, checks the U-turns of every sub-subtree
// the leaf completes (src/mcmc/nuts_tree.cpp), and, when the subtree is complete, merges it into the tree with
// the biased progressive sample and checks the merged tree. A subtree that turns or diverges is rejected and ends
// the transition, as in Stan and NumPyro.
//
// Counting (NumPyro's): tree_depth is the number of doublings made, a rejected last one included; num_steps the
// leapfrog steps, so num_steps <= 2^tree_depth - 1, with equality at max_tree_depth when nothing turned.
// Randomness: the momentum from fold_in(key, 0); the direction and the merge of doubling j from
// fold_in(fold_in(key, 1), j); the in-subtree choice at leapfrog step s from fold_in(fold_in(key, 2), s).
#include <cmath>

#include "mcmc/nuts_tree.hpp"
#include "nxv/control_flow.hpp"
#include "nxv/mcmc_kernels.hpp"
#include "nxv/nn.hpp"

namespace nxv::mcmc {

namespace {

// One end of the trajectory: a state with its momentum.
struct Leaf {
  Tensor position, momentum, log_density, gradient;
};

// A state the transition may return, with its Hamiltonian.
struct Proposal {
  Tensor position, log_density, gradient, energy;
};

struct Carry {
  Leaf left, right;
  Proposal proposal;    // the tree's sample
  Tensor weight;        // log of the tree's summed exp(H0 - H)
  Tensor rho;           // the tree's momentum sum
  Tensor depth;         // s64: doublings made
  Tensor turning;       // pred: the tree or a rejected subtree turned
  Tensor diverging;     // pred
  Tensor sum_accept;    // sum of min(1, exp(H0 - H)) over the leaves
  Tensor num_steps;     // s64
  Tensor going_right;   // pred: the current subtree's direction
  Tensor subtree_size;  // s64: the current subtree's leaves so far (0: a new doubling starts)
  Proposal subtree_proposal;
  Tensor subtree_weight;
  Tensor subtree_rho;
  detail::Checkpoints checkpoints;
};

// The carry as the flat list of tensors while_loop takes, and back.
template <class C, class F>
void for_each_field(C& c, F f) {
  for (auto* leaf : {&c.left, &c.right}) {
    f(leaf->position), f(leaf->momentum), f(leaf->log_density), f(leaf->gradient);
  }
  for (auto* p : {&c.proposal, &c.subtree_proposal}) f(p->position), f(p->log_density), f(p->gradient), f(p->energy);
  for (auto* t : {&c.weight, &c.rho, &c.depth, &c.turning, &c.diverging, &c.sum_accept, &c.num_steps, &c.going_right,
                  &c.subtree_size, &c.subtree_weight, &c.subtree_rho, &c.checkpoints.momentum,
                  &c.checkpoints.momentum_sum, &c.checkpoints.previous}) {
    f(*t);
  }
}

std::vector<Tensor> pack(const Carry& c) {
  std::vector<Tensor> out;
  for_each_field(c, [&](const Tensor& t) { out.push_back(t); });
  return out;
}

Carry unpack(const std::vector<Tensor>& v) {
  Carry c;
  std::size_t i = 0;
  for_each_field(c, [&](Tensor& t) { t = v[i++]; });
  return c;
}

Leaf select_leaf(const Tensor& pred, const Leaf& a, const Leaf& b) {
  return {select(pred, a.position, b.position), select(pred, a.momentum, b.momentum),
          select(pred, a.log_density, b.log_density), select(pred, a.gradient, b.gradient)};
}

Proposal select_proposal(const Tensor& pred, const Proposal& a, const Proposal& b) {
  return {select(pred, a.position, b.position), select(pred, a.log_density, b.log_density),
          select(pred, a.gradient, b.gradient), select(pred, a.energy, b.energy)};
}

// log(exp(a) + exp(b)) for a finite or one -inf argument.
Tensor log_add_exp(const Tensor& a, const Tensor& b) {
  const Tensor m = max(a, b);
  return m + log1p(exp(-abs(a - b)));
}

Tensor element(const Tensor& x, std::int64_t i) { return reshape(slice(x, {i}, {1}), {}); }

Tensor first_row(const Tensor& x) { return reshape(slice(x, {0, 0}, {1, x.dim(1)}), {x.dim(1)}); }

}  // namespace

Transition nuts_transition(const LogDensity& f, const ChainState& s, const KernelParams& k, const Tensor& key,
                           int max_tree_depth, double max_energy_error) {
  NXV_CHECK(s.position.defined() && s.position.rank() == 1, "mcmc::nuts_transition", "got position ",
            s.position.defined() ? to_string(s.position.type()) : "undefined", ", expected a vector [d]");
  NXV_CHECK(max_tree_depth >= 1 && max_tree_depth <= 30, "mcmc::nuts_transition", "got max_tree_depth ", max_tree_depth,
            ", expected 1 to 30");
  const DType dt = s.position.dtype();
  const std::int64_t d = s.position.dim(0);
  Backend& backend = s.position.backend();
  const Tensor& minv = k.inverse_mass;
  const Tensor p0 = draw_momentum(nn::fold_in(key, scalar(0, DType::s64, backend)), minv);
  const Tensor h0 = -s.log_density + kinetic_energy(p0, minv);
  const Tensor doubling_key = nn::fold_in(key, scalar(1, DType::s64, backend));
  const Tensor leaf_key = nn::fold_in(key, scalar(2, DType::s64, backend));
  const Tensor zero_s64 = scalar(0, DType::s64, backend), zero = scalar(0, dt, backend);
  const Tensor no = zeros({}, DType::pred, backend), zeros_ckpt = zeros({max_tree_depth + 1, d}, dt, backend);

  Carry init;
  init.left = init.right = Leaf{s.position, p0, s.log_density, s.gradient};
  init.proposal = init.subtree_proposal = Proposal{s.position, s.log_density, s.gradient, h0};
  init.weight = init.subtree_weight = zero;
  init.rho = init.subtree_rho = p0;
  init.depth = init.num_steps = init.subtree_size = zero_s64;
  init.turning = init.diverging = init.going_right = no;
  init.sum_accept = zero;
  init.checkpoints = {zeros_ckpt, zeros_ckpt, zeros_ckpt};

  const auto running = [&](const std::vector<Tensor>& v) {
    const Carry c = unpack(v);
    return logical_and(logical_not(logical_or(c.turning, c.diverging)), less(c.depth, max_tree_depth));
  };
  const auto add_leaf = [&](const std::vector<Tensor>& v) {
    const Carry c = unpack(v);
    Carry n = c;
    const Tensor starting = equal(c.subtree_size, 0);
    const Tensor u_doubling = nn::random_uniform(nn::fold_in(doubling_key, c.depth), {2}, dt);
    const Tensor going_right = select(starting, less(element(u_doubling, 0), 0.5), c.going_right);

    // One leapfrog step outwards from the tree's end on that side.
    const Leaf from = select_leaf(going_right, c.right, c.left);
    Tensor p = from.momentum;
    const ChainState next = leapfrog(f, {from.position, from.log_density, from.gradient}, p,
                                     select(going_right, k.step_size, -k.step_size), minv);
    const Tensor energy = -next.log_density + kinetic_energy(p, minv);
    Tensor delta = energy - h0;
    delta = select(is_nan(delta), scalar(INFINITY, dt, backend), delta);  // a NaN energy (or gradient) diverges
    const Tensor leaf_diverging = greater(delta, max_energy_error);
    const Tensor leaf_weight = -delta;
    const Leaf leaf{next.position, p, next.log_density, next.gradient};

    // Progressive sampling within the subtree: the new leaf replaces the proposal with probability w_leaf / w_sub.
    const Tensor subtree_weight = select(starting, leaf_weight, log_add_exp(c.subtree_weight, leaf_weight));
    const Tensor u_leaf = nn::random_uniform(nn::fold_in(leaf_key, c.num_steps), {}, dt);
    const Tensor take_leaf = logical_or(starting, less(u_leaf, exp(leaf_weight - subtree_weight)));
    const Proposal leaf_proposal{next.position, next.log_density, next.gradient, energy};
    n.subtree_proposal = select_proposal(take_leaf, leaf_proposal, c.subtree_proposal);
    n.subtree_weight = subtree_weight;
    n.subtree_rho = select(starting, p, c.subtree_rho + p);
    auto [checkpoints, subtree_turning] =
        detail::add_leaf(c.checkpoints, c.subtree_size, p, n.subtree_rho, from.momentum, minv);
    n.checkpoints = checkpoints;

    // The subtree ends full, turned or diverged; only a full one that did neither is merged into the tree.
    const Tensor size = c.subtree_size + 1;
    const Tensor done = logical_or(equal(size, left_shift(1, c.depth)), logical_or(subtree_turning, leaf_diverging));
    const Tensor merge = logical_and(done, logical_not(logical_or(subtree_turning, leaf_diverging)));
    const Tensor u_merge = element(u_doubling, 1);
    // Biased progressive sampling: the subtree's proposal is taken with probability min(1, w_sub / w_tree).
    const Tensor take_subtree = logical_and(merge, less(u_merge, exp(subtree_weight - c.weight)));
    n.proposal = select_proposal(take_subtree, n.subtree_proposal, c.proposal);
    n.weight = select(merge, log_add_exp(c.weight, subtree_weight), c.weight);
    n.rho = select(merge, c.rho + n.subtree_rho, c.rho);
    // The merged tree in build order: the old tree (from its far end to `from`), then the subtree.
    const Tensor far_end = select(going_right, c.left.momentum, c.right.momentum);
    const Tensor tree_turning = detail::is_merge_turning(far_end, first_row(checkpoints.previous), c.rho,
                                                         first_row(checkpoints.momentum), p, n.subtree_rho, minv);
    n.turning = logical_or(c.turning, logical_and(done, logical_or(subtree_turning, tree_turning)));
    n.diverging = logical_or(c.diverging, leaf_diverging);
    n.left = select_leaf(going_right, c.left, leaf);
    n.right = select_leaf(going_right, leaf, c.right);
    n.depth = c.depth + as_type(done, DType::s64);
    n.subtree_size = select(done, zero_s64, size);
    n.going_right = going_right;
    n.num_steps = c.num_steps + 1;
    n.sum_accept = c.sum_accept + min(exp(-delta), 1.0);
    return pack(n);
  };
  const Carry out = unpack(while_loop(running, add_leaf, pack(init)));

  // The loop runs at least once (depth 0 < max_tree_depth), so num_steps >= 1.
  const TransitionStats stats{out.sum_accept / as_type(out.num_steps, dt), out.diverging, out.num_steps, out.depth,
                              out.proposal.energy};
  return {{out.proposal.position, out.proposal.log_density, out.proposal.gradient}, stats};
}

}  // namespace nxv::mcmc
