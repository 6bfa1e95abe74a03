// NUTS's U-turn checks: the generalised criterion and its iterative form over checkpoints (src/mcmc/nuts_tree.hpp).
#include "mcmc/nuts_tree.hpp"

#include "nxv/ops.hpp"

namespace nxv::mcmc::detail {

namespace {

// x [d] repeated over `rows` rows.
Tensor rows_of(const Tensor& x, std::int64_t rows) { return broadcast(x, {rows, x.dim(0)}); }

// Per row: `row` where mask[i], else x[i]. mask [rows], x [rows, d].
Tensor select_rows(const Tensor& mask, const Tensor& row, const Tensor& x) {
  return select(broadcast(expand_dims(mask, 1), x.shape()), rows_of(row, x.dim(0)), x);
}

// Rows [first, first + rows) of x [*, d]: a slice, which the fusion compiler reads through instead of copying.
Tensor row_range(const Tensor& x, std::int64_t first, std::int64_t rows) {
  return slice(x, {first, 0}, {rows, x.dim(1)});
}

}  // namespace

Tensor is_turning(const Tensor& p_begin, const Tensor& p_end, const Tensor& rho, const Tensor& inverse_mass) {
  const Tensor v_rho = rho * inverse_mass;
  const Tensor at_begin = less_equal(sum(p_begin * v_rho, Axes{-1}), 0);
  const Tensor at_end = less_equal(sum(p_end * v_rho, Axes{-1}), 0);
  return logical_or(at_begin, at_end);
}

Tensor is_merge_turning(const Tensor& a_begin, const Tensor& a_end, const Tensor& rho_a, const Tensor& b_begin,
                        const Tensor& b_end, const Tensor& rho_b, const Tensor& inverse_mass) {
  const Tensor merged = is_turning(a_begin, b_end, rho_a + rho_b, inverse_mass);
  const Tensor a_extended = is_turning(a_begin, b_begin, rho_a + b_begin, inverse_mass);
  const Tensor b_extended = is_turning(a_end, b_end, a_end + rho_b, inverse_mass);
  return logical_or(merged, logical_or(a_extended, b_extended));
}

std::pair<Checkpoints, Tensor> add_leaf(const Checkpoints& c, const Tensor& n, const Tensor& p, const Tensor& rho,
                                        const Tensor& previous, const Tensor& inverse_mass) {
  const std::int64_t depth = c.momentum.dim(0) - 1;  // the last row is the spare (nuts_tree.hpp)
  Backend& backend = n.backend();
  // NumPyro's _leaf_idx_to_ckpt_idxs without loops: the newest pending checkpoint is popcount(n >> 1), and leaf n
  // completes one sub-subtree per trailing one bit of n (popcount((n ^ (n + 1)) >> 1) of them).
  const Tensor idx_max = population_count(right_shift(n, 1));
  const Tensor idx_min = idx_max - population_count(right_shift(bitwise_xor(n, n + 1), 1)) + 1;
  const Tensor write =
      logical_and(equal(bitwise_and(n, 1), 0), equal(iota({depth + 1}, 0, DType::s64, backend), idx_max));
  const Checkpoints saved{select_rows(write, p, c.momentum), select_rows(write, rho, c.momentum_sum),
                          select_rows(write, previous, c.previous)};

  // Row i (idx_min <= i <= idx_max) is the sub-subtree from checkpoint i to leaf n; its second half begins at
  // checkpoint i + 1, or at leaf n itself for the newest (i == idx_max, a subtree of two leaves). Row i + 1 is the
  // slice from row 1: at i = depth - 1 it is the spare row, which only the newest row could need, and the newest
  // takes leaf n's values instead.
  const Tensor rows = iota({depth}, 0, DType::s64, backend);
  const Tensor newest = equal(rows, idx_max);
  const Tensor begin_a = row_range(saved.momentum, 0, depth), sum_to_a = row_range(saved.momentum_sum, 0, depth);
  const Tensor b_begin = select_rows(newest, p, row_range(saved.momentum, 1, depth));
  const Tensor sum_to_b_begin = select_rows(newest, rho, row_range(saved.momentum_sum, 1, depth));
  const Tensor a_end = select_rows(newest, previous, row_range(saved.previous, 1, depth));
  // Momentum sums from cumulative ones: sum(j..k) = cum(k) - cum(j) + p_j.
  const Tensor rho_a = sum_to_b_begin - b_begin - sum_to_a + begin_a;
  const Tensor rho_b = rows_of(rho, depth) - sum_to_b_begin + b_begin;
  const Tensor turning = is_merge_turning(begin_a, a_end, rho_a, b_begin, rows_of(p, depth), rho_b, inverse_mass);
  const Tensor checked = logical_and(greater_equal(rows, idx_min), less_equal(rows, idx_max));
  return {saved, any(logical_and(checked, turning))};
}

}  // namespace nxv::mcmc::detail
