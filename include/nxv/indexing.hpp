// Indexing, sorting and scans: the long tail that losses, metrics and data pipelines need, with Nx's semantics.
//
// Indices are device data, so their range cannot be checked on the host; both backends define it alike:
//  - reads (take, take_along_axis, gather) clamp every index into [0, dim - 1], as XLA's gather does;
//  - writes (indexed_add, indexed_put) drop an update whose index tuple has a coordinate outside [0, dim), as
//    XLA's scatter does.
// Index tensors are s32 or s64.
//
// Determinism (bit-identical on every backend):
//  - indexed_add folds, per target element, x then every matching update in increasing update order:
//    ((x + u[i0]) + u[i1]) + ... with i0 < i1 < ...; indexed_put keeps the update with the largest index.
//  - cumulative_* fold sequentially along the axis (from the end when reverse).
//  - sort/argsort are stable: equal keys keep their input order, -0.0 and +0.0 are equal keys, and NaN is
//    larger than every number (ascending: NaNs last; descending: NaNs first), all NaNs being equal keys.
#pragma once
#include "nxv/ops.hpp"

namespace nxv {

// Nx.take: x's `axis` replaced by the axes of `indices`:
// out.shape = x.shape[:axis] + indices.shape + x.shape[axis+1:].
Tensor take(const Tensor& x, const Tensor& indices, int axis = 0);
// Nx.take_along_axis: out[..., j, ...] = x[..., indices[..., j, ...], ...] along `axis`. indices has x's rank;
// the other axes broadcast against x's (NumPy rules, per axis); out has the broadcast shape with indices'
// length along `axis`.
Tensor take_along_axis(const Tensor& x, const Tensor& indices, int axis = 0);
// Nx.gather: indices[..., k] names an element (k = rank) or a slice (k < rank) of x's leading k axes;
// out.shape = indices.shape[:-1] + x.shape[k:].
Tensor gather(const Tensor& x, const Tensor& indices);

// Nx.indexed_add / indexed_put: indices[..., k] address x's leading k axes as in gather, and
// updates.shape = indices.shape[:-1] + x.shape[k:]. The result dtype promotes x and updates.
Tensor indexed_add(const Tensor& x, const Tensor& indices, const Tensor& updates);
Tensor indexed_put(const Tensor& x, const Tensor& indices, const Tensor& updates);
// Nx's :axes option: indices[..., k] address the k axes `axes` of x, in that order, instead of the leading k.
// gather's result is indices.shape[:-1] + x's other axes in order, and updates have that shape too.
Tensor gather(const Tensor& x, const Tensor& indices, const Axes& axes);
Tensor indexed_add(const Tensor& x, const Tensor& indices, const Tensor& updates, const Axes& axes);
Tensor indexed_put(const Tensor& x, const Tensor& indices, const Tensor& updates, const Axes& axes);
// Nx.put_slice: `slice` written into x at `start_indices`, each start clamped into [0, dim - slice dim] so that
// the slice fits (as Nx). The result has x's dtype promoted with slice's.
Tensor put_slice(const Tensor& x, const Shape& start_indices, const Tensor& slice);
// slice and put_slice with traced start indices (Nx.slice / Nx.put_slice given tensors; JAX's dynamic_slice and
// dynamic_update_slice): one rank-0 integer tensor per axis, read on the device, so the call stays resident and
// traces under jit. Each start is clamped into [0, dim - extent], extent = the span the slice covers
// ((length - 1) * stride + 1, or the slice's dim), as Nx clamps.
Tensor dynamic_slice(const Tensor& x, const std::vector<Tensor>& starts, const Shape& lengths,
                     const OptAxes& strides = std::nullopt);
Tensor dynamic_put_slice(const Tensor& x, const std::vector<Tensor>& starts, const Tensor& slice);

// Stable sort along `axis` (see the order above). argsort returns s64 positions.
Tensor sort(const Tensor& x, int axis = -1, bool descending = false);
Tensor argsort(const Tensor& x, int axis = -1, bool descending = false);

// Nx.cumulative_*: out[j] = x[0] op x[1] op ... op x[j] along `axis` (from the end when `reverse`);
// max/min propagate NaN as reduce_max/reduce_min. Integer sums and products wrap.
Tensor cumulative_sum(const Tensor& x, int axis = 0, bool reverse = false);
Tensor cumulative_product(const Tensor& x, int axis = 0, bool reverse = false);
Tensor cumulative_max(const Tensor& x, int axis = 0, bool reverse = false);
Tensor cumulative_min(const Tensor& x, int axis = 0, bool reverse = false);

// Nx.top_k along the last axis: the k largest values, largest first, and their s64 positions; ties go to
// the lower position first, NaN counts as the largest value.
struct TopK {
  Tensor values, indices;
};
TopK top_k(const Tensor& x, std::int64_t k);

}  // namespace nxv
