// Front end of the movement ops. reshape, squeeze, expand_dims and flatten are views (OpCode::reshape shares
// the storage); the others produce new tensors.
#include "core/checked_math.hpp"
#include "ops/apply.hpp"

namespace nxv {

namespace {
Tensor view(const Tensor& x, const Shape& shape) {
  if (shape == x.shape()) return x;
  OpCall call{OpCode::reshape, {}};
  return apply(call, {x}, {shape, x.dtype()});
}
}  // namespace

Tensor reshape(const Tensor& x, const Shape& shape) {
  check_defined(x, "reshape");
  Shape out = shape;
  int inferred = -1;
  std::int64_t known = 1;
  for (int i = 0; i < out.size(); ++i) {
    if (out[i] == -1) {
      NXV_CHECK(inferred < 0, "reshape", "more than one -1 in the new shape ", to_string(shape));
      inferred = i;
    } else {
      NXV_CHECK(out[i] >= 0, "reshape", "negative dimension in the new shape ", to_string(shape));
      known = checked_mul(known, out[i], "reshape", "the element count of the new shape ",
                          [&] { return to_string(shape); });
    }
  }
  if (inferred >= 0) {
    NXV_CHECK(known > 0 && x.size() % known == 0, "reshape", "cannot infer the -1 of ", to_string(shape), " for ",
              to_string(x.type()));
    out[inferred] = x.size() / known;
  }
  const std::int64_t count = checked_num_elements(out, "reshape");
  NXV_CHECK(count == x.size(), "reshape", "cannot reshape ", to_string(x.type()), " (", x.size(), " elements) to ",
            to_string(shape), " (", count, " elements)");
  return view(x, out);
}

Tensor squeeze(const Tensor& x, const OptAxes& axes) {
  check_defined(x, "squeeze");
  Axes ax;
  if (axes) {
    ax = normalize_axes(*axes, x.rank(), "squeeze");
    for (std::int64_t a : ax)
      NXV_CHECK(x.shape()[static_cast<int>(a)] == 1, "squeeze", "axis ", a, " of ", to_string(x.type()), " has size ",
                x.shape()[static_cast<int>(a)], ", expected 1");
  } else {
    for (int i = 0; i < x.rank(); ++i)
      if (x.shape()[i] == 1) ax.push_back(i);
  }
  Shape out;
  for (int i = 0; i < x.rank(); ++i)
    if (!ax.contains(i)) out.push_back(x.shape()[i]);
  return view(x, out);
}

Tensor expand_dims(const Tensor& x, int axis) {
  check_defined(x, "expand_dims");
  const int a = normalize_axis(axis, x.rank() + 1, "expand_dims");
  Shape out = x.shape();
  out.insert(a, 1);
  return view(x, out);
}

Tensor flatten(const Tensor& x) {
  check_defined(x, "flatten");
  return view(x, {x.size()});
}

Tensor transpose(const Tensor& x, const OptAxes& perm) {
  check_defined(x, "transpose");
  Axes p;
  if (perm) {
    NXV_CHECK(perm->size() == x.rank(), "transpose", "permutation ", to_string(*perm), " has ", perm->size(),
              " axes, expected ", x.rank(), " for ", to_string(x.type()));
    p = normalize_axes(*perm, x.rank(), "transpose", /*sort=*/false);
  } else {
    for (int i = x.rank() - 1; i >= 0; --i) p.push_back(i);
  }
  Shape out;
  bool identity = true;
  for (int i = 0; i < p.size(); ++i) {
    out.push_back(x.shape()[static_cast<int>(p[i])]);
    identity = identity && p[i] == i;
  }
  if (identity) return x;
  return apply(OpCall{OpCode::transpose, TransposeAttrs{p}}, {x}, {out, x.dtype()});
}

Tensor broadcast(const Tensor& x, const Shape& shape, const OptAxes& axes) {
  check_defined(x, "broadcast");
  NXV_CHECK(shape.size() >= x.rank(), "broadcast", "cannot broadcast ", to_string(x.type()),
            " to the lower-rank shape ", to_string(shape));
  Axes ax;
  if (axes) {
    NXV_CHECK(axes->size() == x.rank(), "broadcast", "axes ", to_string(*axes),
              " must name one output axis per input axis of ", to_string(x.type()));
    ax = normalize_axes(*axes, shape.size(), "broadcast", /*sort=*/false);
    for (int i = 1; i < ax.size(); ++i)
      NXV_CHECK(ax[i] > ax[i - 1], "broadcast", "axes ", to_string(*axes), " must be increasing");
  } else {
    for (int i = 0; i < x.rank(); ++i) ax.push_back(shape.size() - x.rank() + i);
  }
  for (int i = 0; i < x.rank(); ++i) {
    const std::int64_t d = x.shape()[i], o = shape[static_cast<int>(ax[i])];
    NXV_CHECK(d == o || d == 1, "broadcast", "cannot broadcast ", to_string(x.type()), " to ", to_string(shape),
              ": input axis ", i, " has size ", d, " but output axis ", ax[i], " has size ", o,
              " (expected equal or 1)");
  }
  if (shape == x.shape()) return x;
  return apply(OpCall{OpCode::broadcast, BroadcastAttrs{ax}}, {x}, {shape, x.dtype()});
}

Tensor slice(const Tensor& x, const Shape& starts, const Shape& lengths, const OptAxes& strides) {
  check_defined(x, "slice");
  const int r = x.rank();
  NXV_CHECK(starts.size() == r && lengths.size() == r && (!strides || strides->size() == r), "slice", "expected ", r,
            " start indices, lengths and strides for ", to_string(x.type()), ", got ", to_string(starts), ", ",
            to_string(lengths), (strides ? ", " + to_string(*strides) : std::string()));
  SliceAttrs attrs{starts, strides ? *strides : Shape::filled(r, 1)};
  for (int i = 0; i < r; ++i) {
    const std::int64_t s = starts[i], n = lengths[i], st = attrs.strides[i], d = x.shape()[i];
    NXV_CHECK(st >= 1, "slice", "stride ", st, " on axis ", i, " must be >= 1");
    NXV_CHECK(n >= 0 && s >= 0, "slice", "start ", s, " and length ", n, " on axis ", i, " must be >= 0");
    if (n == 0) continue;
    const std::int64_t last = checked_add(s, checked_mul(n - 1, st, "slice", "the last index on axis ", i), "slice",
                                          "the last index on axis ", i);
    NXV_CHECK(last < d, "slice", "reads past the end of axis ", i, " of ", to_string(x.type()), ": start ", s,
              ", length ", n, ", stride ", st, " reaches index ", last, " (expected < ", d, ")");
    // A stride that never steps is irrelevant, and a huge one would overflow the kernels' stride * axis stride.
    if (n == 1) attrs.strides[i] = 1;
  }
  return apply(OpCall{OpCode::slice, attrs}, {x}, {lengths, x.dtype()});
}

Tensor pad(const Tensor& x, double value, const std::vector<PadConfig>& config) {
  check_defined(x, "pad");
  NXV_CHECK(static_cast<int>(config.size()) == x.rank(), "pad", "got ", config.size(),
            " (low, high, interior) entries for ", to_string(x.type()), ", expected ", x.rank());
  PadAttrs attrs{.value = value};
  Shape out;
  for (int i = 0; i < x.rank(); ++i) {
    const PadConfig& c = config[i];
    const std::int64_t d = x.shape()[i];
    NXV_CHECK(c.interior >= 0, "pad", "interior padding ", c.interior, " on axis ", i, " must be >= 0");
    checked_add(c.interior, 1, "pad", "the step (interior padding + 1) of axis ", i);
    // Input element j lands at low + j * (interior + 1): the dilated size, it plus low, and the total must fit.
    const auto sum = [&](std::int64_t a, std::int64_t b) {
      return checked_add(a, b, "pad", "the padded size of axis ", i, " of ", [&] { return to_string(x.type()); });
    };
    const std::int64_t holes = d > 0 ? checked_mul(d - 1, c.interior, "pad", "the interior padding of axis ", i, " of ",
                                                   [&] { return to_string(x.type()); })
                                     : 0;
    const std::int64_t n = sum(sum(sum(d, holes), c.low), c.high);
    NXV_CHECK(n >= 0, "pad", "padding (", c.low, ", ", c.high, ", ", c.interior, ") cuts more than axis ", i, " of ",
              to_string(x.type()), " holds");
    out.push_back(n);
    attrs.low.push_back(c.low);
    attrs.high.push_back(c.high);
    attrs.interior.push_back(c.interior);
  }
  return apply(OpCall{OpCode::pad, attrs}, {x}, {out, x.dtype()});
}

Tensor concatenate(const std::vector<Tensor>& xs, int axis) {
  NXV_CHECK(!xs.empty(), "concatenate", "needs at least one tensor");
  for (const Tensor& t : xs) check_defined(t, "concatenate");
  const int r = xs[0].rank();
  NXV_CHECK(r > 0, "concatenate", "cannot concatenate rank-0 tensors");
  const int a = normalize_axis(axis, r, "concatenate");
  DType dtype = xs[0].dtype();
  Shape out = xs[0].shape();
  out[a] = 0;
  for (const Tensor& t : xs) {
    NXV_CHECK(t.rank() == r, "concatenate", "tensors of different ranks: ", shapes_of(xs));
    for (int i = 0; i < r; ++i)
      NXV_CHECK(i == a || t.shape()[i] == out[i], "concatenate", "shapes differ on axis ", i,
                " (only the concatenation axis ", a, " may differ): ", shapes_of(xs));
    out[a] = checked_add(out[a], t.shape()[a], "concatenate", "the size of the concatenation axis ", a, " of ",
                         [&] { return shapes_of(xs); });
    dtype = promote(dtype, t.dtype());
  }
  if (xs.size() == 1) return xs[0];
  std::vector<Tensor> in;
  for (const Tensor& t : xs) in.push_back(t.dtype() == dtype ? t : as_type(t, dtype));
  return apply(OpCall{OpCode::concatenate, AxisAttrs{a}}, in, {out, dtype});
}

Tensor reverse(const Tensor& x, const OptAxes& axes) {
  check_defined(x, "reverse");
  Axes ax;
  if (axes)
    ax = normalize_axes(*axes, x.rank(), "reverse");
  else
    for (int i = 0; i < x.rank(); ++i) ax.push_back(i);
  if (ax.empty()) return x;
  return apply(OpCall{OpCode::reverse, ReverseAttrs{ax}}, {x}, {x.shape(), x.dtype()});
}

}  // namespace nxv
