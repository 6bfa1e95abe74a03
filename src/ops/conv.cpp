// Front end of conv (Nx.conv): validates the options, applies the input/kernel permutations as transposes so
// that backends only see canonical layouts ([N, C, spatial...], [O, I, spatial...]), computes the output shape
// and dtype, and transposes the canonical result by the output permutation.
#include "nxv/conv.hpp"
#include "core/checked_math.hpp"
#include "ops/apply.hpp"

namespace nxv {

namespace {

constexpr const char* kOp = "conv";

// A per-spatial-axis option list: empty means `fill` on every axis.
Shape per_axis(const Axes& given, int spatial, std::int64_t fill, const char* what, const Tensor& input) {
  if (given.empty()) return Shape::filled(spatial, fill);
  NXV_CHECK(given.size() == spatial, kOp, what, " ", to_string(given), " has ", given.size(), " entries but ",
            to_string(input.type()), " has ", spatial, " spatial axes (expected one per spatial axis)");
  for (std::int64_t v : given) NXV_CHECK(v >= 1, kOp, what, " ", to_string(given), " must be >= 1 on every axis");
  return Shape(given.begin(), given.end());
}

// The permutation that brings `t` to canonical order (identity when not given), validated.
Axes permutation(const OptAxes& perm, const Tensor& t, const char* what) {
  Axes p;
  if (!perm) {
    for (int i = 0; i < t.rank(); ++i) p.push_back(i);
    return p;
  }
  NXV_CHECK(perm->size() == t.rank(), kOp, what, " ", to_string(*perm), " has ", perm->size(), " axes, expected ",
            t.rank(), " for ", to_string(t.type()));
  return normalize_axes(*perm, t.rank(), kOp, /*sort=*/false);
}

std::int64_t dilated(std::int64_t size, std::int64_t dilation) {
  if (size == 0) return 0;
  return checked_add(checked_mul(size - 1, dilation, kOp, "the dilated size of an axis of size ", size), 1, kOp,
                     "the dilated size of an axis of size ", size);
}

}  // namespace

Padding padding_same(const Shape& window) {
  Padding p;
  for (std::int64_t k : window) {
    const std::int64_t total = std::max<std::int64_t>(k - 1, 0);
    p.emplace_back(total / 2, total - total / 2);
  }
  return p;
}

Padding padding_valid(int rank) { return Padding(static_cast<std::size_t>(rank), {0, 0}); }

Padding conv_padding_same(const Tensor& input, const Tensor& kernel, const ConvOptions& o) {
  check_defined(kernel, kOp);
  const Axes kp = permutation(o.kernel_permutation, kernel, "kernel_permutation");
  const int spatial = kernel.rank() - 2;
  const Shape kd = per_axis(o.kernel_dilation, spatial, 1, "kernel_dilation", input);
  Shape window;
  for (int i = 0; i < spatial; ++i) window.push_back(dilated(kernel.shape()[static_cast<int>(kp[i + 2])], kd[i]));
  return padding_same(window);
}

Tensor conv(const Tensor& input, const Tensor& kernel, const ConvOptions& o) {
  check_defined(input, kOp);
  check_defined(kernel, kOp);
  const Tensor both[] = {input, kernel};
  NXV_CHECK(input.rank() >= 3 && input.rank() <= 5 && kernel.rank() == input.rank(), kOp,
            "expected an input and a kernel of one rank between 3 and 5 ([N, C, spatial...] and "
            "[O, I, spatial...], 1 to 3 spatial axes), got ",
            shapes_of(both));
  const int spatial = input.rank() - 2;
  // Canonical layouts.
  const Tensor x = transpose(input, permutation(o.input_permutation, input, "input_permutation"));
  const Tensor w = transpose(kernel, permutation(o.kernel_permutation, kernel, "kernel_permutation"));
  const Axes out_perm = permutation(o.output_permutation, input, "output_permutation");

  ConvAttrs at;
  at.strides = per_axis(o.strides, spatial, 1, "strides", input);
  at.input_dilation = per_axis(o.input_dilation, spatial, 1, "input_dilation", input);
  at.kernel_dilation = per_axis(o.kernel_dilation, spatial, 1, "kernel_dilation", input);
  const Padding padding = o.padding.empty() ? padding_valid(spatial) : o.padding;
  NXV_CHECK(static_cast<int>(padding.size()) == spatial, kOp, "got ", padding.size(), " (low, high) padding pairs for ",
            spatial, " spatial axes (", shapes_of(both), ")");
  const std::int64_t groups = o.feature_group_size, batch_groups = o.batch_group_size;
  NXV_CHECK(groups >= 1 && batch_groups >= 1 && (groups == 1 || batch_groups == 1), kOp, "feature_group_size ", groups,
            " and batch_group_size ", batch_groups, " must be >= 1, and at least one of them 1");
  at.feature_groups = groups;
  at.batch_groups = batch_groups;
  at.precision = o.precision.value_or(current_precision());

  const std::int64_t n = x.dim(0), c = x.dim(1), out_channels = w.dim(0), in_per_group = w.dim(1);
  const std::string canonical = " (canonical input " + to_string(x.shape()) + ", kernel " + to_string(w.shape()) + ")";
  NXV_CHECK(c == in_per_group * groups, kOp, "input channels ", c, " must equal the kernel's input channels ",
            in_per_group, " times feature_group_size ", groups, canonical);
  NXV_CHECK(out_channels % groups == 0, kOp, "kernel output channels ", out_channels,
            " must be divisible by feature_group_size ", groups, canonical);
  NXV_CHECK(n % batch_groups == 0 && out_channels % batch_groups == 0, kOp, "batch ", n, " and kernel output channels ",
            out_channels, " must be divisible by batch_group_size ", batch_groups, canonical);

  Shape out{n / batch_groups, out_channels};
  for (int i = 0; i < spatial; ++i) {
    const auto [low, high] = padding[static_cast<std::size_t>(i)];
    at.pad_low.push_back(low);
    at.pad_high.push_back(high);
    const std::int64_t span = padded_size(dilated(x.dim(i + 2), at.input_dilation[i]), low, high, kOp, i);
    const std::int64_t window = dilated(w.dim(i + 2), at.kernel_dilation[i]);
    NXV_CHECK(w.dim(i + 2) >= 1 && span >= window, kOp, "spatial axis ", i, ": the dilated, padded input (", span,
              ") is smaller than the dilated kernel (", window, "), so the result would be empty", canonical);
    out.push_back((span - window) / at.strides[i] + 1);
  }
  const DType dtype = float_type(promote(x.dtype(), w.dtype()));
  // f16 and bf16 convolve in f32 and round once: the f32 conv of the widened inputs is exactly that (each product of
  // two 16-bit floats is exact in f32, the sums are f32's in k order), so it is the 16-bit conv's definition, on
  // every backend and with its gradient, without 16-bit variants of the conv kernels.
  const DType computed = is_half_float(dtype) ? DType::f32 : dtype;
  const Tensor cx = x.dtype() == computed ? x : as_type(x, computed);
  const Tensor cw = w.dtype() == computed ? w : as_type(w, computed);
  Tensor result = apply(OpCall{OpCode::conv, at}, {cx, cw}, {out, computed});
  if (computed != dtype) result = as_type(result, dtype);
  // Canonical axis i goes to axis out_perm[i]: the transpose takes result axis j from canonical axis inv[j].
  Axes inverse = Axes::filled(out_perm.size(), 0);
  for (int i = 0; i < out_perm.size(); ++i) inverse[static_cast<int>(out_perm[i])] = i;
  return transpose(result, inverse);
}

}  // namespace nxv
