// Gradient rule of dot (Nx's dot/6, any orientation, with batch axes): each operand's cotangent is a dot of
// the output cotangent with the other operand, contracting the other operand's free axes, then a transpose
// back to the operand's axis order. The cotangent dots have the forward dot's precision.
//
// The output's axes are [batch..., a's free axes..., b's free axes...] (free axes in increasing order).
#include <algorithm>

#include "grad/rules.hpp"

namespace nxv::rules {

namespace {

Axes free_axes(int rank, const Axes& contract, const Axes& batch) {
  Axes free;
  for (int i = 0; i < rank; ++i)
    if (!contract.contains(i) && !batch.contains(i)) free.push_back(i);
  return free;
}

Axes range(int begin, int end) {
  Axes r;
  for (int i = begin; i < end; ++i) r.push_back(i);
  return r;
}

// The cotangent of operand `x` (contract/batch/free axes), given the other operand `other` whose axes
// `other_contract` pair with x's contracting axes, and whose free axes occupy g's axes [other_first, ...).
Tensor operand_vjp(const Tensor& g, const Tensor& x, const Axes& contract, const Axes& batch, const Tensor& other,
                   const Axes& other_contract, const Axes& other_batch, int other_free_first, Precision precision) {
  const int nb = batch.size();
  const Axes x_free = free_axes(x.rank(), contract, batch);
  const Axes other_free = free_axes(other.rank(), other_contract, other_batch);
  // Contract g's axes holding `other`'s free axes with them; batch over the batch axes.
  const Tensor r = dot(g, range(other_free_first, other_free_first + other_free.size()), range(0, nb), other,
                       other_free, other_batch, precision);
  // r's axes: [batch, x's free axes (in order), other's remaining axes = other_contract in increasing order].
  Axes sorted_other_contract = other_contract;
  std::sort(sorted_other_contract.begin(), sorted_other_contract.end());
  Axes perm = Axes::filled(x.rank(), 0);
  for (int i = 0; i < nb; ++i) perm[static_cast<int>(batch[i])] = i;
  for (int t = 0; t < x_free.size(); ++t) perm[static_cast<int>(x_free[t])] = nb + t;
  for (int j = 0; j < contract.size(); ++j) {
    const auto rank = std::find(sorted_other_contract.begin(), sorted_other_contract.end(), other_contract[j]) -
                      sorted_other_contract.begin();
    perm[static_cast<int>(contract[j])] = nb + x_free.size() + rank;
  }
  return transpose(r, perm);
}

}  // namespace

std::vector<Tensor> dot_vjp(const Vjp& v) {
  const DotAttrs& at = v.call.attrs_as<DotAttrs>();
  const Tensor &a = v.x[0], &b = v.x[1];
  const int nb = at.batch_a.size();
  const int a_free = a.rank() - nb - at.contract_a.size();
  std::vector<Tensor> out(2);
  if (v.needs[0])
    out[0] = operand_vjp(v.g, a, at.contract_a, at.batch_a, b, at.contract_b, at.batch_b, nb + a_free, at.precision);
  if (v.needs[1])
    out[1] = operand_vjp(v.g, b, at.contract_b, at.batch_b, a, at.contract_a, at.batch_a, nb, at.precision);
  return out;
}

}  // namespace nxv::rules
