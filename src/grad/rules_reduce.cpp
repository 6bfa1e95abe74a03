// Gradient rules of the reductions. mean is sum divided by a count in the front end, so it needs no rule.
#include "grad/rules.hpp"

namespace nxv::rules {

namespace {

// A reduced tensor (y or its cotangent) broadcast back to the input's shape.
Tensor expand(const Tensor& t, const Shape& in, const Axes& axes, bool keep_axes) {
  Tensor kept = t;
  if (!keep_axes) {
    Shape with_ones = in;
    for (std::int64_t a : axes) with_ones[static_cast<int>(a)] = 1;
    kept = reshape(t, with_ones);
  }
  return broadcast(kept, in);
}

}  // namespace

std::vector<Tensor> reduce_vjp(const Vjp& v) {
  const Tensor& x = v.x[0];
  const ReduceAttrs& a = v.call.attrs_as<ReduceAttrs>();
  const Axes& axes = a.axes;
  const bool keep = a.keep_axes;
  const Tensor g = expand(v.g, x.shape(), axes, keep);
  switch (a.fn) {
    case ReduceFn::sum:
      return {g};
    // d prod / dx_i = prod / x_i: exact when no element of the group is zero (NaN where one is).
    case ReduceFn::product:
      return {g * expand(v.y, x.shape(), axes, keep) / x};
    case ReduceFn::max:
    case ReduceFn::min: {
      // The cotangent is split evenly among the elements equal to the result (ties share it, as JAX).
      const Tensor at_result = as_type(equal(x, expand(v.y, x.shape(), axes, keep)), x.dtype());
      return {g * at_result / sum(at_result, axes, /*keep_axes=*/true)};
    }
    case ReduceFn::all:
    case ReduceFn::any:
      return {Tensor()};
  }
  return {Tensor()};
}

}  // namespace nxv::rules
