// Window reference kernels: window_reduce (sum, product, max, min) and window_scatter (max, min), with the
// orders include/nxv/conv.hpp defines and src/vulkan/kernels/window.comp, window_scatter.comp follow:
//  - window_reduce: acc = identity; acc = op(acc, x) over the window's in-bounds elements in row-major order
//    (padding is the identity, so skipping it is the same).
//  - window_scatter: each window selects the last maximum (minimum) of its in-bounds elements (Nx's tie rule),
//    a NaN beating every number (the last NaN wins); out = init, then out[selected] = out[selected] +
//    source[window] over the windows in row-major order.
#include <cmath>
#include <limits>
#include <vector>

#include "ops/elementwise_eval.hpp"
#include "reference/dtype_dispatch.hpp"
#include "reference/indexing.hpp"
#include "reference/kernels.hpp"

namespace nxv::reference {
namespace {

// Calls f(x_offset) for the in-bounds elements of the window at output multi-index `out_index`, row-major.
template <class F>
void for_each_in_window(const WindowAttrs& a, const Shape& x_shape, const Shape& x_strides, const Shape& out_index,
                        F&& f) {
  for_each_index(a.window, [&](const Shape& k) {
    std::int64_t offset = 0;
    for (int d = 0; d < k.size(); ++d) {
      const std::int64_t i = out_index[d] * a.strides[d] + k[d] * a.window_dilation[d] - a.pad_low[d];
      if (i < 0 || i >= x_shape[d]) return;
      offset += i * x_strides[d];
    }
    f(offset);
  });
}

template <class S, class C>
C identity(ReduceFn fn) {
  constexpr bool is_float = std::is_floating_point_v<C>;
  switch (fn) {
    case ReduceFn::sum:
      return C(0);
    case ReduceFn::product:
      return C(1);
    case ReduceFn::max:
      if constexpr (is_float)
        return -std::numeric_limits<C>::infinity();
      else
        return C(std::numeric_limits<S>::min());
    case ReduceFn::min:
      if constexpr (is_float)
        return std::numeric_limits<C>::infinity();
      else
        return C(std::numeric_limits<S>::max());
    default:
      detail::fail("reference window_reduce: unsupported reduction ", static_cast<int>(fn));
  }
}

template <class C>
C combine(ReduceFn fn, C acc, C v) {
  switch (fn) {
    case ReduceFn::sum:
      return C(acc + v);
    case ReduceFn::product:
      return C(acc * v);
    case ReduceFn::max:
      return eval_max<C>(acc, v);
    default:
      return eval_min<C>(acc, v);
  }
}

template <class C>
bool is_nan(C v) {
  if constexpr (std::is_floating_point_v<C>)
    return std::isnan(v);
  else
    return false;
}

}  // namespace

void window_reduce(const WindowAttrs& attrs, const Tensor& x, const TensorType& out, std::byte* dst) {
  const ReduceFn fn = attrs.fn;
  const Shape strides = contiguous_strides(x.shape());
  const std::byte* src = host_bytes(x);
  visit_dtype(out.dtype, [&]<class S, class C>() {
    std::int64_t i = 0;
    for_each_index(out.shape, [&](const Shape& o) {
      C acc = identity<S, C>(fn);
      for_each_in_window(attrs, x.shape(), strides, o,
                         [&](std::int64_t at) { acc = combine(fn, acc, load<S, C>(src, at)); });
      store<S, C>(dst, i++, acc);
    });
  });
}

void window_scatter(const WindowAttrs& attrs, const Tensor& x, const Tensor& source, const Tensor& init,
                    const TensorType& out, std::byte* dst) {
  const bool is_max = attrs.fn == ReduceFn::max;
  const Shape strides = contiguous_strides(x.shape());
  const std::byte* xs = host_bytes(x);
  const std::byte* ss = host_bytes(source);
  visit_dtype(out.dtype, [&]<class S, class C>() {
    std::vector<C> acc(static_cast<std::size_t>(x.size()), load<S, C>(host_bytes(init), 0));
    std::int64_t w = 0;
    for_each_index(source.shape(), [&](const Shape& o) {
      std::int64_t selected = -1;
      C best{};
      for_each_in_window(attrs, x.shape(), strides, o, [&](std::int64_t at) {
        const C v = load<S, C>(xs, at);
        // >= (<=): a tie moves the choice to the later element.
        const bool at_least = is_max ? v >= best : v <= best;
        if (selected < 0 || is_nan(v) || (!is_nan(best) && at_least)) {
          selected = at;
          best = v;
        }
      });
      if (selected >= 0)
        acc[static_cast<std::size_t>(selected)] = C(acc[static_cast<std::size_t>(selected)] + load<S, C>(ss, w));
      ++w;
    });
    for (std::size_t i = 0; i < acc.size(); ++i) store<S, C>(dst, static_cast<std::int64_t>(i), acc[i]);
  });
}

}  // namespace nxv::reference
