// Front end of the reductions. Integer sums and products accumulate in s64 (as Nx's aggregate types);
// all/any give pred; max/min keep the dtype (over an empty axis they give the identity: -inf/+inf, or the
// integer type's min/max); mean is a float sum divided by the count.
#include "ops/apply.hpp"

namespace nxv {

namespace {

Axes reduced_axes(const Tensor& x, const OptAxes& axes, std::string_view op) {
  if (!axes) {
    Axes all;
    for (int i = 0; i < x.rank(); ++i) all.push_back(i);
    return all;
  }
  return normalize_axes(*axes, x.rank(), op);
}

Shape reduced_shape(const Shape& in, const Axes& axes, bool keep) {
  Shape out;
  for (int i = 0; i < in.size(); ++i) {
    if (!axes.contains(i))
      out.push_back(in[i]);
    else if (keep)
      out.push_back(1);
  }
  return out;
}

Tensor reduce_op(ReduceFn fn, const Tensor& x, const OptAxes& axes, bool keep) {
  const char* op = fn_name(fn);
  check_defined(x, op);
  const Axes ax = reduced_axes(x, axes, op);
  DType dtype = x.dtype();
  // Integer sums and products accumulate in 64 bits, unsigned ones in u64 (as Nx); pred counts in s64.
  if (fn == ReduceFn::sum || fn == ReduceFn::product)
    dtype = is_float(dtype) || is_complex(dtype)          ? dtype
            : info(dtype).kind == DTypeKind::unsigned_int ? DType::u64
                                                          : DType::s64;
  if (fn == ReduceFn::all || fn == ReduceFn::any) dtype = DType::pred;
  const Tensor in = (fn == ReduceFn::all || fn == ReduceFn::any || x.dtype() == dtype) ? x : as_type(x, dtype);
  const OpCall call{OpCode::reduce, ReduceAttrs{fn, ax, keep}};
  return apply(call, {in}, {reduced_shape(x.shape(), ax, keep), dtype});
}

Tensor arg_reduce_op(ArgReduceFn fn, const Tensor& x, std::optional<int> axis, bool keep) {
  const char* op = fn_name(fn);
  check_defined(x, op);
  ArgReduceAttrs attrs{fn, std::nullopt, keep};
  Shape out;
  if (axis) {
    const int a = normalize_axis(*axis, x.rank(), op);
    NXV_CHECK(x.shape()[a] > 0, op, "cannot reduce the empty axis ", a, " of ", to_string(x.type()));
    attrs.axis = a;
    out = reduced_shape(x.shape(), {a}, keep);
  } else {
    NXV_CHECK(x.size() > 0, op, "cannot reduce the empty tensor ", to_string(x.type()));
    if (keep) out = Shape::filled(x.rank(), 1);
  }
  return apply(OpCall{OpCode::arg_reduce, attrs}, {x}, {out, DType::s64});
}

}  // namespace

Tensor sum(const Tensor& x, const OptAxes& axes, bool keep) { return reduce_op(ReduceFn::sum, x, axes, keep); }
Tensor product(const Tensor& x, const OptAxes& axes, bool keep) { return reduce_op(ReduceFn::product, x, axes, keep); }
Tensor reduce_max(const Tensor& x, const OptAxes& axes, bool keep) { return reduce_op(ReduceFn::max, x, axes, keep); }
Tensor reduce_min(const Tensor& x, const OptAxes& axes, bool keep) { return reduce_op(ReduceFn::min, x, axes, keep); }
Tensor all(const Tensor& x, const OptAxes& axes, bool keep) { return reduce_op(ReduceFn::all, x, axes, keep); }
Tensor any(const Tensor& x, const OptAxes& axes, bool keep) { return reduce_op(ReduceFn::any, x, axes, keep); }

Tensor mean(const Tensor& x, const OptAxes& axes, bool keep) {
  check_defined(x, "mean");
  const Axes ax = reduced_axes(x, axes, "mean");
  std::int64_t count = 1;
  for (std::int64_t a : ax) count *= x.shape()[static_cast<int>(a)];
  const Tensor total = sum(as_type(x, float_type(x.dtype())), ax, keep);
  return divide(total, Scalar(static_cast<double>(count)));
}

namespace {
// TieBreak::high as a composition: the first extremum of the reversed axis (of the reversed tensor, whose
// row-major order is the flattened order backwards) is the last one of x, at position (n - 1) - index.
Tensor arg_reduce_ties(ArgReduceFn fn, const Tensor& x, std::optional<int> axis, bool keep, TieBreak tie_break) {
  if (tie_break == TieBreak::low) return arg_reduce_op(fn, x, axis, keep);
  check_defined(x, fn_name(fn));
  if (axis) {
    const int a = normalize_axis(*axis, x.rank(), fn_name(fn));
    const Tensor first = arg_reduce_op(fn, reverse(x, Axes{a}), a, keep);
    return subtract(Scalar(static_cast<long long>(x.shape()[a] - 1)), first);
  }
  const Tensor first = arg_reduce_op(fn, reverse(x), std::nullopt, keep);
  return subtract(Scalar(static_cast<long long>(x.size() - 1)), first);
}
}  // namespace

Tensor argmax(const Tensor& x, std::optional<int> axis, bool keep, TieBreak tie_break) {
  return arg_reduce_ties(ArgReduceFn::argmax, x, axis, keep, tie_break);
}
Tensor argmin(const Tensor& x, std::optional<int> axis, bool keep, TieBreak tie_break) {
  return arg_reduce_ties(ArgReduceFn::argmin, x, axis, keep, tie_break);
}

}  // namespace nxv
