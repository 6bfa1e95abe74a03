// Sorting and scan reference kernels: sort and argsort (stable, NaN as the largest value, -0.0 == +0.0) and the
// cumulative scans (a sequential fold along the axis, which is the order the Vulkan kernel follows).
//
// Every kernel works on lines: x viewed as [outer, n, inner] holds outer * inner lines of n elements, element j
// of line (o, in) at (o * n + j) * inner + in.
#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

#include "ops/elementwise_eval.hpp"
#include "reference/dtype_dispatch.hpp"
#include "reference/kernels.hpp"

namespace nxv::reference {
namespace {

struct Lines {
  std::int64_t outer = 1, n = 0, inner = 1;
  std::int64_t at(std::int64_t line, std::int64_t j) const { return ((line / inner) * n + j) * inner + line % inner; }
  std::int64_t count() const { return outer * inner; }
};

Lines lines_of(const Shape& shape, int axis) {
  Lines l;
  for (int d = 0; d < axis; ++d) l.outer *= shape[d];
  l.n = shape[axis];
  for (int d = axis + 1; d < shape.size(); ++d) l.inner *= shape[d];
  return l;
}

// Whether a sorts strictly before b: a strict weak order in which NaN is larger than every number and all NaNs,
// like -0.0 and +0.0, are equivalent. std::stable_sort keeps equivalent elements in input order.
template <class C>
bool sorts_before(C a, C b, bool descending) {
  if constexpr (std::is_floating_point_v<C>) {
    const bool an = std::isnan(a), bn = std::isnan(b);
    if (an || bn) return descending ? an && !bn : !an && bn;
  }
  return descending ? a > b : a < b;
}

// Calls f(line, order, values): the stable sorting permutation of each line and the line's values.
template <class C, class S, class F>
void for_each_sorted_line(const SortAttrs& attrs, const Tensor& x, F&& f) {
  const Lines l = lines_of(x.shape(), static_cast<int>(attrs.axis));
  const bool descending = attrs.descending;
  const std::byte* src = host_bytes(x);
  std::vector<C> values(static_cast<std::size_t>(l.n));
  std::vector<std::int64_t> order(values.size());
  for (std::int64_t line = 0; line < l.count(); ++line) {
    for (std::int64_t j = 0; j < l.n; ++j) values[j] = load<S, C>(src, l.at(line, j));
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(),
                     [&](std::int64_t a, std::int64_t b) { return sorts_before(values[a], values[b], descending); });
    f(l, line, order);
  }
}

}  // namespace

void sort(const SortAttrs& attrs, const Tensor& x, const TensorType& /*out*/, std::byte* dst) {
  const std::byte* src = host_bytes(x);
  visit_dtype(x.dtype(), [&]<class S, class C>() {
    for_each_sorted_line<C, S>(attrs, x,
                               [&](const Lines& l, std::int64_t line, const std::vector<std::int64_t>& order) {
                                 for (std::int64_t j = 0; j < l.n; ++j)
                                   store<S, S>(dst, l.at(line, j), load<S, S>(src, l.at(line, order[j])));
                               });
  });
}

void argsort(const SortAttrs& attrs, const Tensor& x, const TensorType& /*out*/, std::byte* dst) {
  visit_dtype(x.dtype(), [&]<class S, class C>() {
    for_each_sorted_line<C, S>(attrs, x,
                               [&](const Lines& l, std::int64_t line, const std::vector<std::int64_t>& order) {
                                 for (std::int64_t j = 0; j < l.n; ++j)
                                   store<std::int64_t, std::int64_t>(dst, l.at(line, j), order[j]);
                               });
  });
}

// out[0] = x[0], out[j] = out[j - 1] op x[j] (no identity first: a sum of -0.0 stays -0.0), in the compute type
// (integers wrap; u8 accumulates in uint and each store keeps the low 8 bits), from the last element backwards
// when attrs.reverse.
void cumulative(const CumulativeAttrs& attrs, const Tensor& x, const TensorType& out, std::byte* dst) {
  const Lines l = lines_of(x.shape(), static_cast<int>(attrs.axis));
  const ReduceFn fn = attrs.fn;
  const bool reverse = attrs.reverse;
  const std::byte* src = host_bytes(x);
  visit_dtype(out.dtype, [&]<class S, class C>() {
    auto combine = [fn](C a, C b) -> C {
      switch (fn) {
        case ReduceFn::sum:
          return C(a + b);
        case ReduceFn::product:
          return C(a * b);
        case ReduceFn::max:
          return eval_max<C>(a, b);
        case ReduceFn::min:
          return eval_min<C>(a, b);
        default:
          detail::fail("reference cumulative: unknown function ", static_cast<int>(fn));
      }
    };
    for (std::int64_t line = 0; line < l.count(); ++line) {
      C acc{};
      for (std::int64_t step = 0; step < l.n; ++step) {
        const std::int64_t j = reverse ? l.n - 1 - step : step;
        const C v = load<S, C>(src, l.at(line, j));
        acc = step == 0 ? v : combine(acc, v);
        store<S, C>(dst, l.at(line, j), acc);
      }
    }
  });
}

}  // namespace nxv::reference
