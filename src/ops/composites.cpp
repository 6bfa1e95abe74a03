// Composite ops (Nx's logsumexp, variance, standard_deviation, covariance, all_close, stack, tril, triu,
// take_diagonal; NumPy's matmul and matrix_transpose): each one call for the user, built here from the primitive ops.
// So they run on every backend, are differentiated through the primitives' rules (src/grad/) and, under jit, are fused
// by the Vulkan compiler like hand-written compositions.
#include <limits>

#include "ops/apply.hpp"

namespace nxv {

namespace {

Axes composite_axes(const Tensor& x, const OptAxes& axes, std::string_view op) {
  if (axes) return normalize_axes(*axes, x.rank(), op);
  Axes all;
  for (int i = 0; i < x.rank(); ++i) all.push_back(i);
  return all;
}

Shape without_axes(const Shape& in, const Axes& axes) {
  Shape out;
  for (int i = 0; i < in.size(); ++i)
    if (!axes.contains(i)) out.push_back(in[i]);
  return out;
}

std::int64_t count_over(const Tensor& x, const Axes& axes) {
  std::int64_t n = 1;
  for (std::int64_t a : axes) n *= x.shape()[static_cast<int>(a)];
  return n;
}

Tensor to_float(const Tensor& x) { return x.dtype() == float_type(x.dtype()) ? x : as_type(x, float_type(x.dtype())); }

Tensor is_finite(const Tensor& x) { return logical_not(logical_or(is_nan(x), is_infinity(x))); }

}  // namespace

Tensor logsumexp(const Tensor& x, const OptAxes& axes, bool keep_axes) {
  check_defined(x, "logsumexp");
  const Axes ax = composite_axes(x, axes, "logsumexp");
  const Tensor xf = to_float(x);
  const Tensor zero = scalar(0.0, xf.dtype(), xf.backend());
  // Shift by the max so that exp cannot overflow. A non-finite max (a row of -inf, a +inf, a NaN, an empty
  // axis) shifts by 0 instead: x - max would be NaN there, while the unshifted sum already gives the answer
  // (-inf: log 0; +inf: log inf; NaN). The shift needs no gradient of its own: its terms cancel (d/dm of
  // log(sum(exp(x - m))) + m is 1 - sum(softmax) = 0 up to rounding).
  const Tensor m = reduce_max(xf, ax, true);
  const Tensor shift = select(is_finite(m), m, zero);
  const Tensor s = sum(exp(xf - shift), ax, true);
  // log of 0 is the -inf answer, but its gradient 1/0 times exp's 0 would be NaN: the rows whose sum is 0 (every
  // element -inf) take log(1) and are then replaced by -inf, so their gradient is 0, not NaN.
  const Tensor empty_row = equal(s, 0.0);
  const Tensor lse = select(empty_row, scalar(-std::numeric_limits<double>::infinity(), xf.dtype(), xf.backend()),
                            log(select(empty_row, scalar(1.0, xf.dtype(), xf.backend()), s)) + shift);
  return keep_axes ? lse : reshape(lse, without_axes(x.shape(), ax));
}

Tensor variance(const Tensor& x, const OptAxes& axes, std::int64_t ddof, bool keep_axes) {
  check_defined(x, "variance");
  NXV_CHECK(ddof >= 0, "variance", "got ddof = ", ddof, ", expected a non-negative integer");
  const Axes ax = composite_axes(x, axes, "variance");
  const Tensor xf = to_float(x);
  const Tensor centered = xf - mean(xf, ax, true);
  // As Nx: the sum of squares over (count - ddof); a count <= ddof gives inf or NaN, as the division does.
  const double divisor = static_cast<double>(count_over(x, ax) - ddof);
  return divide(sum(centered * centered, ax, keep_axes), Scalar(divisor));
}

Tensor standard_deviation(const Tensor& x, const OptAxes& axes, std::int64_t ddof, bool keep_axes) {
  check_defined(x, "standard_deviation");
  NXV_CHECK(ddof >= 0, "standard_deviation", "got ddof = ", ddof, ", expected a non-negative integer");
  return sqrt(variance(x, axes, ddof, keep_axes));
}

Tensor covariance(const Tensor& x, std::int64_t ddof) {
  check_defined(x, "covariance");
  NXV_CHECK(x.rank() >= 2, "covariance", "got ", to_string(x.type()),
            ", expected a tensor of rank 2 or more ([..., n, d]: n observations of d variables)");
  NXV_CHECK(ddof >= 0, "covariance", "got ddof = ", ddof, ", expected a non-negative integer");
  const int r = x.rank();
  const Tensor xf = to_float(x);
  const Tensor centered = xf - mean(xf, Axes{r - 2}, true);
  Axes batch;
  for (int i = 0; i < r - 2; ++i) batch.push_back(i);
  // centered^T centered per batch element: contracting the observations axis gives [..., d, d].
  const Tensor products = dot(centered, Axes{r - 2}, batch, centered, Axes{r - 2}, batch);
  return divide(products, Scalar(static_cast<double>(x.shape()[r - 2] - ddof)));
}

Tensor all_close(const Tensor& a, const Tensor& b, double rtol, double atol, bool equal_nan) {
  check_defined(a, "all_close");
  check_defined(b, "all_close");
  broadcast_shapes(a.shape(), b.shape(), "all_close");
  const DType t = float_type(promote(a.dtype(), b.dtype()));
  const Tensor af = a.dtype() == t ? a : as_type(a, t);
  const Tensor bf = b.dtype() == t ? b : as_type(b, t);
  // |a - b| <= atol + rtol |b| (Nx, NumPy); false for NaN. An infinity is close only to itself: inf - inf is
  // NaN and |finite - inf| <= rtol * inf holds, so infinities are compared by equality instead.
  const Tensor within = less_equal(abs(af - bf), abs(bf) * rtol + atol);
  Tensor close = select(logical_or(is_infinity(af), is_infinity(bf)), equal(af, bf), within);
  if (equal_nan) close = logical_or(close, logical_and(is_nan(af), is_nan(bf)));
  return all(close);
}

Tensor stack(const std::vector<Tensor>& xs, int axis) {
  NXV_CHECK(!xs.empty(), "stack", "needs at least one tensor");
  for (const Tensor& t : xs) check_defined(t, "stack");
  for (const Tensor& t : xs)
    NXV_CHECK(t.shape() == xs[0].shape(), "stack", "got tensors of different shapes: ", shapes_of(xs),
              ", expected one shape");
  const int a = normalize_axis(axis, xs[0].rank() + 1, "stack");
  std::vector<Tensor> expanded;
  for (const Tensor& t : xs) expanded.push_back(expand_dims(t, a));
  return concatenate(expanded, a);
}

namespace {

// Where column - row <= k (tril) or >= k (triu), as a pred [n, m] that broadcasts against [..., n, m].
Tensor band_mask(const Tensor& x, std::int64_t k, bool lower, std::string_view op) {
  check_defined(x, op);
  NXV_CHECK(x.rank() >= 2, op, "needs a tensor of rank >= 2, got ", to_string(x.type()));
  const Shape matrix{x.shape()[x.rank() - 2], x.shape()[x.rank() - 1]};
  const Tensor offset = subtract(iota(matrix, 1, DType::s64, x.backend()), iota(matrix, 0, DType::s64, x.backend()));
  const Tensor diagonal = scalar(static_cast<double>(k), DType::s64, x.backend());
  return lower ? less_equal(offset, diagonal) : greater_equal(offset, diagonal);
}

}  // namespace

Tensor tril(const Tensor& x, std::int64_t k) {
  return select(band_mask(x, k, true, "tril"), x, zeros({}, x.dtype(), x.backend()));
}

Tensor triu(const Tensor& x, std::int64_t k) {
  return select(band_mask(x, k, false, "triu"), x, zeros({}, x.dtype(), x.backend()));
}

Tensor matrix_transpose(const Tensor& x) {
  check_defined(x, "matrix_transpose");
  NXV_CHECK(x.rank() >= 2, "matrix_transpose", "needs a tensor of rank >= 2, got ", to_string(x.type()));
  Axes perm;
  for (int d = 0; d < x.rank() - 2; ++d) perm.push_back(d);
  perm.push_back(x.rank() - 1);
  perm.push_back(x.rank() - 2);
  return transpose(x, perm);
}

Tensor matmul(const Tensor& a, const Tensor& b, std::optional<Precision> precision) {
  check_defined(a, "matmul");
  check_defined(b, "matmul");
  NXV_CHECK(a.rank() >= 2 && b.rank() >= 2, "matmul", "needs operands of rank >= 2, got ",
            shapes_of(std::vector<Tensor>{a, b}));
  const Shape batch = broadcast_shapes(Shape(a.shape().begin(), a.shape().end() - 2),
                                       Shape(b.shape().begin(), b.shape().end() - 2), "matmul");
  const auto batched = [&](const Tensor& t) {
    Shape target = batch;
    target.push_back(t.shape()[t.rank() - 2]);
    target.push_back(t.shape()[t.rank() - 1]);
    return t.shape() == target ? t : broadcast(t, target);
  };
  const int r = batch.size() + 2;
  Axes batch_axes;
  for (int d = 0; d < r - 2; ++d) batch_axes.push_back(d);
  return dot(batched(a), Axes{r - 1}, batch_axes, batched(b), Axes{r - 2}, batch_axes, precision);
}

// The flattened matrix read with stride m + 1: one slice, exact and differentiable.
Tensor take_diagonal(const Tensor& x) {
  check_defined(x, "take_diagonal");
  NXV_CHECK(x.rank() >= 2, "take_diagonal", "needs a tensor of rank >= 2, got ", to_string(x.type()));
  const int r = x.rank();
  const std::int64_t n = x.shape()[r - 2], m = x.shape()[r - 1], k = std::min(n, m);
  Shape flat(x.shape().begin(), x.shape().end() - 2), starts = Shape::filled(r - 1, 0), lengths = flat,
                                                      strides = Shape::filled(r - 1, 1);
  flat.push_back(n * m);
  lengths.push_back(k);
  strides.back() = m + 1;
  return slice(reshape(x, flat), starts, lengths, strides);
}

}  // namespace nxv
