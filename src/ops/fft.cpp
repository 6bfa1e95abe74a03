// Front end of the Fourier transforms (include/nxv/fft.hpp): dtype and length rules, and the one op they share,
// OpCode::fft, which transforms complex rows along the last axis of their real view [..., n, 2]. The axis is moved
// last around it; rfft, irfft and the 2-D transforms are compositions, so their gradients come from fft's rule.
#include "nxv/fft.hpp"

#include "nxv/ops.hpp"
#include "ops/apply.hpp"

namespace nxv {

namespace {

// x along `axis` cropped, or padded with zeros, to n elements.
Tensor fit_length(const Tensor& x, int axis, std::int64_t n) {
  const std::int64_t have = x.shape()[axis];
  if (have == n) return x;
  std::vector<PadConfig> config(static_cast<std::size_t>(x.rank()));
  config[static_cast<std::size_t>(axis)].high = n - have;  // negative: crops
  return pad(x, 0.0, config);
}

// The axis `axis` and the transform's length, checked.
std::pair<int, std::int64_t> axis_and_length(const Tensor& x, std::optional<std::int64_t> length, int axis,
                                             const char* op) {
  check_defined(x, op);
  NXV_CHECK(x.rank() >= 1, op, "got ", to_string(x.type()), ", expected a tensor of rank >= 1");
  NXV_CHECK(x.dtype() != DType::pred, op, "got ", to_string(x.type()), ", expected a numeric tensor");
  const int a = normalize_axis(axis, x.rank(), op);
  NXV_CHECK(!length || *length >= 1, op, "length ", length.value_or(0), " is not positive (expected length >= 1)");
  return {a, length.value_or(x.shape()[a])};
}

// The unnormalised transform of complex z along its last axis (of length 1: z itself).
Tensor transform_last(const Tensor& z, bool inverse) {
  if (z.shape().back() == 1) return z;
  const Tensor pairs = real_view(z);
  return complex_view(apply(OpCall{OpCode::fft, FftAttrs{inverse}}, {pairs}, pairs.type()));
}

Tensor transform(const Tensor& x, std::optional<std::int64_t> length, int axis, bool inverse, const char* op) {
  const auto [a, n] = axis_and_length(x, length, axis, op);
  const Tensor z = fit_length(is_complex(x.dtype()) ? x : as_type(x, complex_type(x.dtype())), a, n);
  const int last = z.rank() - 1;
  Axes perm;  // swaps axis a with the last one (its own inverse)
  for (int i = 0; i <= last; ++i) perm.push_back(i == a ? last : i == last ? a : i);
  const bool moved = a != last;
  Tensor y = transform_last(moved ? transpose(z, perm) : z, inverse);
  // 1/n in the real view: a complex scale would multiply an infinity by the scale's zero imaginary part.
  if (inverse && n > 0) y = complex_view(real_view(y) / static_cast<double>(n));
  return moved ? transpose(y, perm) : y;
}

}  // namespace

Tensor fft(const Tensor& x, std::optional<std::int64_t> length, int axis) {
  return transform(x, length, axis, false, "fft");
}

Tensor ifft(const Tensor& x, std::optional<std::int64_t> length, int axis) {
  return transform(x, length, axis, true, "ifft");
}

Tensor rfft(const Tensor& x, std::optional<std::int64_t> length, int axis) {
  const auto [a, n] = axis_and_length(x, length, axis, "rfft");
  NXV_CHECK(!is_complex(x.dtype()), "rfft", "got ", to_string(x.type()), ", expected a real tensor (use fft)");
  NXV_CHECK(n >= 1, "rfft", "got ", to_string(x.type()), ", an empty axis ", a, " (expected a length >= 1)");
  const Tensor spectrum = fft(x, n, a);
  Shape starts = Shape::filled(x.rank(), 0), lengths = spectrum.shape();
  lengths[a] = n / 2 + 1;
  return slice(spectrum, starts, lengths);
}

Tensor irfft(const Tensor& x, std::optional<std::int64_t> length, int axis) {
  const auto [a, bins] = axis_and_length(x, std::nullopt, axis, "irfft");
  const std::int64_t n = length.value_or(2 * (bins - 1));
  NXV_CHECK(n >= 1, "irfft", "got ", to_string(x.type()), " along axis ", a, ", which gives ", n,
            " points (expected a length >= 1, or at least 2 bins)");
  const std::int64_t kept = n / 2 + 1, mirrored = n - kept;  // bins n/2+1 .. n-1 are conj of bins n-kept-.. 1
  const Tensor half = fit_length(is_complex(x.dtype()) ? x : as_type(x, complex_type(x.dtype())), a, kept);
  Shape starts = Shape::filled(x.rank(), 0), lengths = half.shape();
  starts[a] = 1;
  lengths[a] = mirrored;
  const Tensor tail = conjugate(reverse(slice(half, starts, lengths), Axes{a}));
  return real(ifft(concatenate({half, tail}, a), n, a));
}

namespace {
// fft or ifft along two distinct axes, the second given first (as NumPy's fft2: the last axis, then the one before).
Tensor transform2(const Tensor& x, std::optional<std::array<std::int64_t, 2>> lengths, std::array<int, 2> axes,
                  bool inverse, const char* op) {
  check_defined(x, op);
  const Axes both = normalize_axes(Axes{axes[0], axes[1]}, x.rank(), op, /*sort=*/false);
  auto length = [&](int i) { return lengths ? std::optional((*lengths)[i]) : std::nullopt; };
  const auto one = inverse ? ifft : fft;
  return one(one(x, length(1), static_cast<int>(both[1])), length(0), static_cast<int>(both[0]));
}
}  // namespace

Tensor fft2(const Tensor& x, std::optional<std::array<std::int64_t, 2>> lengths, std::array<int, 2> axes) {
  return transform2(x, lengths, axes, false, "fft2");
}

Tensor ifft2(const Tensor& x, std::optional<std::array<std::int64_t, 2>> lengths, std::array<int, 2> axes) {
  return transform2(x, lengths, axes, true, "ifft2");
}

}  // namespace nxv
