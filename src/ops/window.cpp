// Front end of the window ops (Nx.window_sum/product/max/min/mean, Nx.window_scatter_max/min): validation,
// output shapes and dtypes. The windows span every axis of the tensor.
#include "core/checked_math.hpp"
#include "nxv/conv.hpp"
#include "ops/apply.hpp"

namespace nxv {

namespace {

// The attributes of a window op over x, validated, with the output shape.
struct WindowCall {
  OpCall call;
  Shape out;
};

WindowCall window_call(OpCode code, ReduceFn fn, const Tensor& x, const Shape& window, const WindowOptions& o,
                       const std::string& op) {
  const int r = x.rank();
  NXV_CHECK(window.size() == r, op, "window ", to_string(window), " has ", window.size(), " axes but ",
            to_string(x.type()), " has ", r, " (the window spans every axis)");
  auto per_axis = [&](const Axes& given, const char* what) {
    if (given.empty()) return Shape::filled(r, 1);
    NXV_CHECK(given.size() == r, op, what, " ", to_string(given), " has ", given.size(), " entries, expected ", r,
              " for ", to_string(x.type()));
    for (std::int64_t v : given) NXV_CHECK(v >= 1, op, what, " ", to_string(given), " must be >= 1 on every axis");
    return Shape(given.begin(), given.end());
  };
  WindowAttrs at{.fn = fn, .window = window};
  at.strides = per_axis(o.strides, "strides");
  at.window_dilation = per_axis(o.window_dilations, "window_dilations");
  const Padding padding = o.padding.empty() ? padding_valid(r) : o.padding;
  NXV_CHECK(static_cast<int>(padding.size()) == r, op, "got ", padding.size(), " (low, high) padding pairs for ",
            to_string(x.type()), ", expected ", r);
  Shape out;
  for (int i = 0; i < r; ++i) {
    NXV_CHECK(window[i] >= 1, op, "window ", to_string(window), " must be >= 1 on every axis");
    const auto [low, high] = padding[static_cast<std::size_t>(i)];
    at.pad_low.push_back(low);
    at.pad_high.push_back(high);
    const std::int64_t span = padded_size(x.dim(i), low, high, op, i);
    const std::int64_t extent =
        checked_add(checked_mul(window[i] - 1, at.window_dilation[i], op, "the dilated window of axis ", i), 1, op,
                    "the dilated window of axis ", i);
    NXV_CHECK(span >= extent, op, "axis ", i, ": the padded size ", span, " of ", to_string(x.type()),
              " is smaller than the dilated window (", extent, "), so the result would be empty");
    out.push_back((span - extent) / at.strides[i] + 1);
  }
  return {OpCall{code, at}, out};
}

Tensor window_reduce(ReduceFn fn, const Tensor& x, const Shape& window, const WindowOptions& o) {
  const std::string op = std::string("window_") + fn_name(fn);
  check_defined(x, op);
  const Tensor in = x.dtype() == DType::pred ? as_type(x, DType::u8) : x;
  const WindowCall w = window_call(OpCode::window_reduce, fn, in, window, o, op);
  return apply(w.call, {in}, {w.out, in.dtype()});
}

Tensor window_scatter(ReduceFn fn, const Tensor& x, const Tensor& source, const Tensor& init, const Shape& window,
                      const WindowOptions& o) {
  const std::string op = std::string("window_scatter_") + fn_name(fn);
  check_defined(x, op);
  check_defined(source, op);
  check_defined(init, op);
  const Tensor all[] = {x, source, init};
  NXV_CHECK(init.rank() == 0, op, "init must be a scalar (rank 0), got ", shapes_of(all));
  const WindowCall w = window_call(OpCode::window_scatter, fn, x, window, o, op);
  NXV_CHECK(source.shape() == w.out, op, "source has shape ", to_string(source.shape()), " but the windows of x give ",
            to_string(w.out), " (got ", shapes_of(all), ")");
  DType dtype = promote(source.dtype(), init.dtype());
  if (dtype == DType::pred) dtype = DType::u8;
  // The selection compares x in the result's dtype: exact for the float/float and int/int cases, where it matters.
  auto as = [&](const Tensor& t) { return t.dtype() == dtype ? t : as_type(t, dtype); };
  return apply(w.call, {as(x), as(source), as(init)}, {x.shape(), dtype});
}

}  // namespace

Tensor window_sum(const Tensor& x, const Shape& window, const WindowOptions& o) {
  return window_reduce(ReduceFn::sum, x, window, o);
}
Tensor window_product(const Tensor& x, const Shape& window, const WindowOptions& o) {
  return window_reduce(ReduceFn::product, x, window, o);
}
Tensor window_max(const Tensor& x, const Shape& window, const WindowOptions& o) {
  return window_reduce(ReduceFn::max, x, window, o);
}
Tensor window_min(const Tensor& x, const Shape& window, const WindowOptions& o) {
  return window_reduce(ReduceFn::min, x, window, o);
}

Tensor window_mean(const Tensor& x, const Shape& window, const WindowOptions& o) {
  check_defined(x, "window_mean");
  const Tensor total = window_sum(as_type(x, float_type(x.dtype())), window, o);
  return divide(total, Scalar(static_cast<double>(num_elements(window))));
}

Tensor window_scatter_max(const Tensor& x, const Tensor& source, const Tensor& init, const Shape& window,
                          const WindowOptions& o) {
  return window_scatter(ReduceFn::max, x, source, init, window, o);
}
Tensor window_scatter_min(const Tensor& x, const Tensor& source, const Tensor& init, const Shape& window,
                          const WindowOptions& o) {
  return window_scatter(ReduceFn::min, x, source, init, window, o);
}

}  // namespace nxv
