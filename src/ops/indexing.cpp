// Front end of the indexing ops: take, take_along_axis, gather, indexed_add, indexed_put, put_slice
// (semantics in include/nxv/indexing.hpp). Index tensors are device data: only their shapes and dtypes are
// checked here; the backends clamp (reads) or drop (writes) out-of-range values.
#include <algorithm>

#include "core/checked_math.hpp"
#include "nxv/indexing.hpp"
#include "ops/apply.hpp"

namespace nxv {

namespace {

void check_indices(const Tensor& indices, std::string_view op) {
  check_defined(indices, op);
  NXV_CHECK(indices.dtype() == DType::s32 || indices.dtype() == DType::s64, op, "indices must be s32 or s64, got ",
            to_string(indices.type()));
}

Shape concat(const Shape& a, const Shape& b) {
  Shape out = a;
  for (std::int64_t d : b) out.push_back(d);
  return out;
}

Shape drop_front(const Shape& s, int n) { return Shape(s.begin() + n, s.end()); }
Shape take_front(const Shape& s, int n) { return Shape(s.begin(), s.begin() + n); }

// indices[..., k] as [n, k], the shape every backend kernel sees.
int index_depth(const Tensor& x, const Tensor& indices, std::string_view op) {
  NXV_CHECK(indices.rank() >= 1, op, "indices must have rank >= 1 (their last axis holds the coordinates), got ",
            to_string(indices.type()));
  const std::int64_t k = indices.shape().back();
  NXV_CHECK(k >= 1 && k <= x.rank(), op, "the last axis of indices ", to_string(indices.type()), " has ", k,
            " coordinates, expected 1 to ", x.rank(), " (the rank of ", to_string(x.type()), ")");
  return static_cast<int>(k);
}

// Reads clamp their indices, which needs a non-empty axis to clamp into.
void check_readable(const Tensor& x, int first, int last, std::int64_t reads, std::string_view op) {
  for (int d = first; d < last; ++d)
    NXV_CHECK(reads == 0 || x.shape()[d] > 0, op, "cannot read ", reads, " elements from the empty axis ", d, " of ",
              to_string(x.type()));
}

Tensor indexed_update(OpCode code, const Tensor& x, const Tensor& indices, const Tensor& updates, std::string_view op) {
  check_defined(x, op);
  check_indices(indices, op);
  check_defined(updates, op);
  const int k = index_depth(x, indices, op);
  const Shape batch = take_front(indices.shape(), indices.rank() - 1);
  const Shape expected = concat(batch, drop_front(x.shape(), k));
  NXV_CHECK(updates.shape() == expected, op, "updates ", to_string(updates.type()), " do not fit indices ",
            to_string(indices.type()), " into ", to_string(x.type()), ": expected updates of shape ",
            to_string(expected), " (indices' leading axes, then x's axes after the first ", k, ")");
  const DType dtype = promote(x.dtype(), updates.dtype());
  NXV_CHECK(code != OpCode::indexed_add || dtype != DType::pred, op, "cannot add pred tensors ", to_string(x.type()),
            " and ", to_string(updates.type()), " (convert them with as_type first)");
  const std::int64_t n = checked_num_elements(batch, op);
  const Tensor flat_indices = reshape(indices, {n, k});
  const Tensor flat_updates = reshape(updates, concat({n}, drop_front(x.shape(), k)));
  OpCall call{code, {}};
  return apply(call,
               {x.dtype() == dtype ? x : as_type(x, dtype), flat_indices,
                flat_updates.dtype() == dtype ? flat_updates : as_type(flat_updates, dtype)},
               {x.shape(), dtype});
}

}  // namespace

Tensor take(const Tensor& x, const Tensor& indices, int axis) {
  check_defined(x, "take");
  check_indices(indices, "take");
  NXV_CHECK(x.rank() >= 1, "take", "cannot take from the rank-0 tensor ", to_string(x.type()));
  const int a = normalize_axis(axis, x.rank(), "take");
  NXV_CHECK(x.rank() - 1 + indices.rank() <= kMaxRank, "take", "the result of taking ", to_string(indices.type()),
            " from ", to_string(x.type()), " would have rank ", x.rank() - 1 + indices.rank(), " (maximum ", kMaxRank,
            ")");
  const Shape out = concat(concat(take_front(x.shape(), a), indices.shape()), drop_front(x.shape(), a + 1));
  check_readable(x, a, a + 1, checked_num_elements(out, "take"), "take");
  return apply(OpCall{OpCode::take, AxisAttrs{a}}, {x, indices}, {out, x.dtype()});
}

Tensor take_along_axis(const Tensor& x, const Tensor& indices, int axis) {
  check_defined(x, "take_along_axis");
  check_indices(indices, "take_along_axis");
  NXV_CHECK(x.rank() >= 1 && indices.rank() == x.rank(), "take_along_axis", "indices ", to_string(indices.type()),
            " must have the rank of ", to_string(x.type()), " (>= 1)");
  const int a = normalize_axis(axis, x.rank(), "take_along_axis");
  Shape x_shape, i_shape;
  for (int d = 0; d < x.rank(); ++d) {
    const std::int64_t xd = x.shape()[d], id = indices.shape()[d];
    if (d == a) {
      x_shape.push_back(xd);
      i_shape.push_back(id);
      continue;
    }
    NXV_CHECK(xd == id || xd == 1 || id == 1, "take_along_axis", "axis ", d, " of indices ", to_string(indices.type()),
              " does not broadcast with ", to_string(x.type()), " (expected equal sizes or 1 off axis ", a, ")");
    const std::int64_t n = xd == 1 ? id : xd;
    x_shape.push_back(n);
    i_shape.push_back(n);
  }
  check_readable(x, a, a + 1, checked_num_elements(i_shape, "take_along_axis"), "take_along_axis");
  return apply(OpCall{OpCode::take_along_axis, AxisAttrs{a}}, {broadcast(x, x_shape), broadcast(indices, i_shape)},
               {i_shape, x.dtype()});
}

Tensor gather(const Tensor& x, const Tensor& indices) {
  check_defined(x, "gather");
  check_indices(indices, "gather");
  const int k = index_depth(x, indices, "gather");
  const Shape out = concat(take_front(indices.shape(), indices.rank() - 1), drop_front(x.shape(), k));
  NXV_CHECK(out.size() <= kMaxRank, "gather", "the result would have rank ", out.size(), " (maximum ", kMaxRank, ")");
  check_readable(x, 0, k, checked_num_elements(out, "gather"), "gather");
  OpCall call{OpCode::gather, {}};
  return apply(call, {x, indices}, {out, x.dtype()});
}

Tensor indexed_add(const Tensor& x, const Tensor& indices, const Tensor& updates) {
  return indexed_update(OpCode::indexed_add, x, indices, updates, "indexed_add");
}

Tensor indexed_put(const Tensor& x, const Tensor& indices, const Tensor& updates) {
  return indexed_update(OpCode::indexed_put, x, indices, updates, "indexed_put");
}

Tensor put_slice(const Tensor& x, const Shape& start_indices, const Tensor& slice) {
  check_defined(x, "put_slice");
  check_defined(slice, "put_slice");
  NXV_CHECK(slice.rank() == x.rank() && start_indices.size() == x.rank(), "put_slice", "expected a slice and ",
            x.rank(), " start indices for ", to_string(x.type()), ", got ", to_string(slice.type()), " and ",
            to_string(start_indices));
  PutSliceAttrs attrs;
  for (int d = 0; d < x.rank(); ++d) {
    NXV_CHECK(slice.shape()[d] <= x.shape()[d], "put_slice", "slice ", to_string(slice.type()), " does not fit into ",
              to_string(x.type()), " along axis ", d);
    attrs.starts.push_back(std::clamp<std::int64_t>(start_indices[d], 0, x.shape()[d] - slice.shape()[d]));
  }
  const DType dtype = promote(x.dtype(), slice.dtype());
  return apply(OpCall{OpCode::put_slice, attrs},
               {x.dtype() == dtype ? x : as_type(x, dtype), slice.dtype() == dtype ? slice : as_type(slice, dtype)},
               {x.shape(), dtype});
}

}  // namespace nxv
