// Nx's :axes option of gather, indexed_add and indexed_put: a front-end transpose that brings the addressed axes
// to the front (in the order of `axes`, the others after them in order) around the ops that address the leading
// axes; so it runs on every backend and differentiates through transpose's and the ops' rules.
#include "nxv/indexing.hpp"
#include "ops/apply.hpp"

namespace nxv {

namespace {

// The permutation that puts `axes` first; checks that the indices' last dimension holds one index per axis.
Axes axes_first(const Tensor& x, const Tensor& indices, const Axes& axes, std::string_view op) {
  check_defined(x, op);
  check_defined(indices, op);
  const Axes named = normalize_axes(axes, x.rank(), op, /*sort=*/false);
  NXV_CHECK(indices.rank() >= 1 && indices.shape()[indices.rank() - 1] == named.size(), op, "got indices ",
            to_string(indices.type()), " for the axes ", to_string(axes),
            ", expected a last dimension of one index per axis (", named.size(), ")");
  Axes perm = named;
  for (int i = 0; i < x.rank(); ++i)
    if (!named.contains(i)) perm.push_back(i);
  return perm;
}

bool is_identity(const Axes& perm) {
  for (int i = 0; i < perm.size(); ++i)
    if (perm[i] != i) return false;
  return true;
}

Tensor permuted(const Tensor& x, const Axes& perm) { return is_identity(perm) ? x : transpose(x, perm); }

Tensor unpermuted(const Tensor& x, const Axes& perm) {
  Axes inverse = perm;
  for (int i = 0; i < perm.size(); ++i) inverse[static_cast<int>(perm[i])] = i;
  return is_identity(perm) ? x : transpose(x, inverse);
}

}  // namespace

Tensor gather(const Tensor& x, const Tensor& indices, const Axes& axes) {
  return gather(permuted(x, axes_first(x, indices, axes, "gather")), indices);
}

Tensor indexed_add(const Tensor& x, const Tensor& indices, const Tensor& updates, const Axes& axes) {
  const Axes perm = axes_first(x, indices, axes, "indexed_add");
  return unpermuted(indexed_add(permuted(x, perm), indices, updates), perm);
}

Tensor indexed_put(const Tensor& x, const Tensor& indices, const Tensor& updates, const Axes& axes) {
  const Axes perm = axes_first(x, indices, axes, "indexed_put");
  return unpermuted(indexed_put(permuted(x, perm), indices, updates), perm);
}

}  // namespace nxv
