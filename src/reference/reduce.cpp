// Reduction reference kernels: reduce (sum, product, max, min, all, any) and arg_reduce (argmax, argmin).
//
// Reductions follow one fixed order so that the Vulkan backend's results are bit-identical (floating-point
// addition is not associative). The reduced axes are flattened row-major into R values; reduce_in_order()
// below is the normative definition of the order.
#include <algorithm>
#include <array>
#include <limits>
#include <vector>

#include "ops/elementwise_eval.hpp"
#include "reference/dtype_dispatch.hpp"
#include "reference/indexing.hpp"
#include "reference/kernels.hpp"

namespace nxv::reference {
namespace {

// A workgroup of the reduce shader: 256 lanes, each folding up to 64 values before the tree.
constexpr std::int64_t kLanes = 256;
constexpr std::int64_t kChunk = kLanes * 64;

// One chunk (n <= kChunk values): lane l folds values l, l+256, l+512, ... in increasing order, starting from
// `identity`; then a tree, s = 128, 64, ..., 1: lane[i] = lane[i] op lane[i + s] for i < s. Result: lane 0.
template <class C, class Op>
C reduce_chunk(const C* values, std::int64_t n, C identity, Op op) {
  std::array<C, kLanes> lanes;
  lanes.fill(identity);
  for (std::int64_t j = 0; j < n; ++j) lanes[j % kLanes] = op(lanes[j % kLanes], values[j]);
  for (std::int64_t s = kLanes / 2; s >= 1; s /= 2)
    for (std::int64_t i = 0; i < s; ++i) lanes[i] = op(lanes[i], lanes[i + s]);
  return lanes[0];
}

// R <= kChunk: one chunk. R > kChunk: ceil(R / kChunk) consecutive chunks, then the vector of their partial
// results reduced by the same rule (again in chunks if it is itself longer than kChunk).
template <class C, class Op>
C reduce_in_order(std::vector<C> values, C identity, Op op) {
  while (static_cast<std::int64_t>(values.size()) > kChunk) {
    std::vector<C> partials;
    for (std::int64_t start = 0; start < static_cast<std::int64_t>(values.size()); start += kChunk) {
      const std::int64_t n = std::min<std::int64_t>(kChunk, static_cast<std::int64_t>(values.size()) - start);
      partials.push_back(reduce_chunk(values.data() + start, n, identity, op));
    }
    values = std::move(partials);
  }
  return reduce_chunk(values.data(), static_cast<std::int64_t>(values.size()), identity, op);
}

// Where the values of one reduction live: `outer` walks the kept axes (one output element each, row-major,
// which is also the output's order with or without keep_axes), `inner` walks the reduced axes.
struct ReduceLayout {
  Shape outer_shape, outer_strides, inner_shape, inner_strides;
};

ReduceLayout reduce_layout(const Shape& shape, const Axes& reduced) {
  const Shape strides = contiguous_strides(shape);
  ReduceLayout layout;
  for (int axis = 0; axis < shape.size(); ++axis) {
    const bool is_reduced = reduced.contains(axis);
    (is_reduced ? layout.inner_shape : layout.outer_shape).push_back(shape[axis]);
    (is_reduced ? layout.inner_strides : layout.outer_strides).push_back(strides[axis]);
  }
  return layout;
}

// Calls f(i, values) for each output element i, with the R input values it reduces, in row-major order of the
// reduced axes, loaded as compute type C.
template <class S, class C, class F>
void for_each_reduction(const Tensor& x, const Axes& axes, F&& f) {
  const ReduceLayout layout = reduce_layout(x.shape(), axes);
  const std::byte* src = host_bytes(x);
  std::vector<C> values;
  std::int64_t i = 0;
  for_each_index(layout.outer_shape, [&](const Shape& outer) {
    const std::int64_t base = offset_of(outer, layout.outer_strides);
    values.clear();
    for_each_index(layout.inner_shape, [&](const Shape& inner) {
      values.push_back(load<S, C>(src, base + offset_of(inner, layout.inner_strides)));
    });
    f(i++, values);
  });
}

// The identity of max/min: -inf/+inf for floats, the storage type's range for integers (0 and 1 for pred).
template <class S, class C>
C lowest(DType type) {
  if constexpr (std::is_floating_point_v<C>)
    return -std::numeric_limits<C>::infinity();
  else
    return type == DType::pred ? C(0) : C(std::numeric_limits<S>::min());
}
template <class S, class C>
C highest(DType type) {
  if constexpr (std::is_floating_point_v<C>)
    return std::numeric_limits<C>::infinity();
  else
    return type == DType::pred ? C(1) : C(std::numeric_limits<S>::max());
}

// all/any: each value becomes x != 0 (NaN counts as true) and the fold runs in uint; the result is pred.
void reduce_logical(const ReduceAttrs& attrs, const Tensor& x, std::byte* dst) {
  visit_dtype(x.dtype(), [&]<class S, class C>() {
    for_each_reduction<S, C>(x, attrs.axes, [&](std::int64_t i, const std::vector<C>& values) {
      std::vector<std::uint32_t> truth(values.size());
      for (std::size_t j = 0; j < values.size(); ++j) truth[j] = values[j] != C(0) ? 1u : 0u;
      const std::uint32_t r = attrs.fn == ReduceFn::all
                                  ? reduce_in_order(truth, 1u, [](std::uint32_t a, std::uint32_t b) { return a & b; })
                                  : reduce_in_order(truth, 0u, [](std::uint32_t a, std::uint32_t b) { return a | b; });
      store<std::uint8_t, std::uint32_t>(dst, i, r);
    });
  });
}

}  // namespace

// sum and product accumulate in the compute type (integers wrap; u8 computes in uint and truncates once at
// the store, which is the same result mod 256); max/min use the NaN-propagating eval_max/eval_min.
void reduce(const ReduceAttrs& attrs, const Tensor& x, const TensorType& out, std::byte* dst) {
  const ReduceFn fn = attrs.fn;
  if (fn == ReduceFn::all || fn == ReduceFn::any) return reduce_logical(attrs, x, dst);
  visit_dtype(out.dtype, [&]<class S, class C>() {
    for_each_reduction<S, C>(x, attrs.axes, [&](std::int64_t i, const std::vector<C>& values) {
      C r{};
      switch (fn) {
        case ReduceFn::sum:
          r = reduce_in_order(values, C(0), [](C a, C b) { return C(a + b); });
          break;
        case ReduceFn::product:
          r = reduce_in_order(values, C(1), [](C a, C b) { return C(a * b); });
          break;
        case ReduceFn::max:
          r = reduce_in_order(values, lowest<S, C>(out.dtype), eval_max<C>);
          break;
        case ReduceFn::min:
          r = reduce_in_order(values, highest<S, C>(out.dtype), eval_min<C>);
          break;
        default:
          detail::fail("reference reduce: unknown reduction ", static_cast<int>(fn));
      }
      store<S, C>(dst, i, r);
    });
  });
}

namespace {

// The index of the first maximum (minimum) of `len` values `step` elements apart. A NaN beats every number
// (the first NaN's index is returned, as Nx/XLA do); ties keep the smallest index. `v != v` is false for
// integers, so the NaN rule costs them nothing.
template <class S, class C>
std::int64_t arg_index(const std::byte* src, std::int64_t base, std::int64_t len, std::int64_t step, bool is_max) {
  std::int64_t best_index = 0;
  C best{};
  for (std::int64_t j = 0; j < len; ++j) {
    const C v = load<S, C>(src, base + j * step);
    if (v != v) return j;
    if (j == 0 || (is_max ? v > best : v < best)) {
      best = v;
      best_index = j;
    }
  }
  return best_index;
}

}  // namespace

// Over attrs.axis, or over the flattened tensor when it has none; the result is s64.
void arg_reduce(const ArgReduceAttrs& attrs, const Tensor& x, const TensorType& /*out*/, std::byte* dst) {
  const bool is_max = attrs.fn == ArgReduceFn::argmax;
  Shape outer_shape, outer_strides;
  std::int64_t len = num_elements(x.shape()), step = 1;
  if (attrs.axis) {
    const int axis = static_cast<int>(*attrs.axis);
    const Shape strides = contiguous_strides(x.shape());
    for (int a = 0; a < x.rank(); ++a) {
      if (a == axis) continue;
      outer_shape.push_back(x.dim(a));
      outer_strides.push_back(strides[a]);
    }
    len = x.dim(axis);
    step = strides[axis];
  }
  const std::byte* src = host_bytes(x);
  visit_dtype(x.dtype(), [&]<class S, class C>() {
    std::int64_t i = 0;
    for_each_index(outer_shape, [&](const Shape& outer) {
      const std::int64_t index = arg_index<S, C>(src, offset_of(outer, outer_strides), len, step, is_max);
      store<std::int64_t, std::int64_t>(dst, i++, index);
    });
  });
}

}  // namespace nxv::reference
