// Gradient rules of the indexing, sorting and scan ops, each written with forward ops:
//  - reads (take, take_along_axis, gather) scatter the cotangent back with indexed_add, at the clamped indices
//    the read used (several reads of one element sum);
//  - indexed_add passes the cotangent to x and gathers it for the updates; indexed_put zeroes the overwritten
//    positions for x and gathers for the updates that won (the last one per position); out-of-range updates,
//    which were dropped, get zero;
//  - put_slice: x gets the cotangent with the slice zeroed, the slice gets the slice of the cotangent;
//  - sort: the cotangent read through the inverse permutation (argsort of argsort);
//  - cumulative_sum: the cumulative sum of the cotangent in the other direction; cumulative_product:
//    reverse-cumsum(g * y) / x, which is not finite where x == 0 (a known limitation);
//  - cumulative_max/min: each output's cotangent goes to the input element that set its running value: the first
//    element attaining it (the last, scanning in reverse). On ties this differs from JAX, which splits the
//    cotangent between the tied elements; argmax makes the same choice as here.
// Index inputs and argsort's integer output get no cotangent.
#include "grad/rules.hpp"

#include <limits>

namespace nxv::rules {

namespace {

Tensor coordinate_bounds(const Tensor& indices, const Shape& dims, std::int64_t offset) {
  const int k = static_cast<int>(indices.shape().back());
  std::vector<Tensor> parts;
  for (int d = 0; d < k; ++d)
    parts.push_back(full({1}, static_cast<double>(dims[d] + offset), indices.dtype(), indices.backend()));
  return concatenate(parts, 0);
}

// indices [..., k] clamped into x's leading k axes, as the reads clamp them.
Tensor clamp_coordinates(const Tensor& indices, const Shape& dims) {
  return clip(indices, scalar_like(0.0, indices), coordinate_bounds(indices, dims, -1));
}

// Whether each index tuple of indices [n, k] is inside x's leading axes (writes drop the others): pred [n].
Tensor in_bounds(const Tensor& indices, const Shape& dims) {
  const Tensor ok = logical_and(greater_equal(indices, scalar_like(0.0, indices)),
                                less(indices, coordinate_bounds(indices, dims, 0)));
  return all(ok, Axes{1});
}

// g where keep [n] holds, else 0; g is [n, ...].
Tensor keep_rows(const Tensor& g, const Tensor& keep) {
  Shape shape = Shape::filled(g.rank(), 1);
  shape[0] = g.shape()[0];
  return select(reshape(keep, shape), g, zeros({}, g.dtype(), g.backend()));
}

// The transpose of take_along_axis: dx[..., indices[..., j, ...], ...] += g[..., j, ...] along `axis`, over full
// coordinates (iota on the other axes).
Tensor scatter_along_axis(const Shape& x_shape, const Tensor& indices, const Tensor& g, int axis) {
  const std::int64_t m = g.size();
  std::vector<Tensor> coordinates;
  for (int d = 0; d < g.rank(); ++d) {
    const Tensor c = d == axis ? indices : iota(g.shape(), d, indices.dtype(), indices.backend());
    coordinates.push_back(reshape(c, {m, 1}));
  }
  return indexed_add(zeros(x_shape, g.dtype(), g.backend()), concatenate(coordinates, 1), reshape(g, {m}));
}

// take: move the taken axis to the front of x and the indices' axes to the front of g, scatter, move it back.
Tensor take_vjp(int axis, const Tensor& x, const Tensor& indices, const Tensor& g) {
  const int r = x.rank(), ri = indices.rank();
  Axes g_perm;
  Shape front{x.shape()[axis]};
  for (int d = axis; d < axis + ri; ++d) g_perm.push_back(d);
  for (int d = 0; d < g.rank(); ++d)
    if (d < axis || d >= axis + ri) {
      g_perm.push_back(d);
      front.push_back(g.shape()[d]);
    }
  Shape updates_shape = front;
  updates_shape[0] = indices.size();
  const Tensor clamped = clamp_coordinates(reshape(indices, {indices.size(), 1}), {x.shape()[axis]});
  const Tensor scattered =
      indexed_add(zeros(front, g.dtype(), g.backend()), clamped, reshape(transpose(g, g_perm), updates_shape));
  Axes back;
  for (int d = 1; d <= axis; ++d) back.push_back(d);
  back.push_back(0);
  for (int d = axis + 1; d < r; ++d) back.push_back(d);
  return transpose(scattered, back);
}

Tensor put_vjp_updates(const Tensor& x, const Tensor& indices, const Tensor& g) {
  const int k = static_cast<int>(indices.shape()[1]);
  const std::int64_t n = indices.shape()[0];
  const Shape rows(x.shape().begin(), x.shape().begin() + k);
  const Tensor order = iota({n}, 0, DType::s64, indices.backend());
  const Tensor winner = indexed_put(full(rows, -1, DType::s64, indices.backend()), indices, order);
  return keep_rows(gather(g, indices), equal(gather(winner, indices), order));
}

Tensor sort_vjp(const SortAttrs& a, const Tensor& x, const Tensor& g) {
  const int axis = static_cast<int>(a.axis);
  const Tensor inverse = argsort(argsort(x, axis, a.descending), axis);
  return take_along_axis(g, inverse, axis);
}

// The input position whose value each output of cumulative_max/min holds: the latest position (in scan order)
// where the running value changed, found as a running max (min in reverse) of those positions.
Tensor cumulative_extremum_vjp(const CumulativeAttrs& a, const Tensor& x, const Tensor& y, const Tensor& g) {
  const int axis = static_cast<int>(a.axis);
  const bool reverse = a.reverse;
  std::vector<PadConfig> shift(static_cast<std::size_t>(x.rank()));
  shift[axis] = reverse ? PadConfig{-1, 1, 0} : PadConfig{1, -1, 0};
  // NaN pads the first position, so it always counts as a change (NaN != anything).
  const Tensor previous = pad(y, std::numeric_limits<double>::quiet_NaN(), shift);
  const Tensor changed = not_equal(y, previous);
  const Tensor position = iota(x.shape(), axis, DType::s64, x.backend());
  const Tensor source =
      reverse ? cumulative_min(
                    select(changed, position, full({}, static_cast<double>(x.shape()[axis]), DType::s64, x.backend())),
                    axis, true)
              : cumulative_max(select(changed, position, full({}, -1, DType::s64, x.backend())), axis);
  return scatter_along_axis(x.shape(), source, g, axis);
}

Tensor cumulative_vjp(const CumulativeAttrs& a, const Tensor& x, const Tensor& y, const Tensor& g) {
  const int axis = static_cast<int>(a.axis);
  switch (a.fn) {
    case ReduceFn::sum:
      return cumulative_sum(g, axis, !a.reverse);
    case ReduceFn::product:
      return cumulative_sum(g * y, axis, !a.reverse) / x;
    case ReduceFn::max:
    case ReduceFn::min:
      return cumulative_extremum_vjp(a, x, y, g);
    default:
      break;
  }
  detail::fail("grad: cumulative with unknown function ", static_cast<int>(a.fn));
}

}  // namespace

std::vector<Tensor> indexing_vjp(const Vjp& v) {
  const OpCall& call = v.call;
  const std::span<const Tensor> x = v.x;
  const Tensor& g = v.g;
  std::vector<Tensor> out(x.size());
  auto want = [&](std::size_t i) { return i < v.needs.size() && v.needs[i]; };
  switch (call.code) {
    case OpCode::take:
      if (want(0)) out[0] = take_vjp(static_cast<int>(call.attrs_as<AxisAttrs>().axis), x[0], x[1], g);
      break;
    case OpCode::take_along_axis:
      if (want(0)) {
        const int axis = static_cast<int>(call.attrs_as<AxisAttrs>().axis);
        const Tensor clamped = clip(x[1], scalar_like(0.0, x[1]), scalar_like(double(x[0].shape()[axis] - 1), x[1]));
        out[0] = scatter_along_axis(x[0].shape(), clamped, g, axis);
      }
      break;
    case OpCode::gather:
      if (want(0))
        out[0] = indexed_add(zeros(x[0].shape(), g.dtype(), g.backend()), clamp_coordinates(x[1], x[0].shape()), g);
      break;
    case OpCode::indexed_add:
      if (want(0)) out[0] = g;
      if (want(2)) out[2] = keep_rows(gather(g, x[1]), in_bounds(x[1], x[0].shape()));
      break;
    case OpCode::indexed_put:
      if (want(0)) out[0] = indexed_put(g, x[1], zeros(x[2].shape(), g.dtype(), g.backend()));
      if (want(2)) out[2] = put_vjp_updates(x[0], x[1], g);
      break;
    case OpCode::put_slice: {
      const Shape& starts = call.attrs_as<PutSliceAttrs>().starts;
      if (want(0)) out[0] = put_slice(g, starts, zeros(x[1].shape(), g.dtype(), g.backend()));
      if (want(1)) out[1] = slice(g, starts, x[1].shape());
      break;
    }
    case OpCode::sort:
      if (want(0)) out[0] = sort_vjp(call.attrs_as<SortAttrs>(), x[0], g);
      break;
    case OpCode::cumulative:
      if (want(0)) out[0] = cumulative_vjp(call.attrs_as<CumulativeAttrs>(), x[0], v.y, g);
      break;
    default:
      break;  // argsort: an integer output
  }
  return out;
}

}  // namespace nxv::rules
