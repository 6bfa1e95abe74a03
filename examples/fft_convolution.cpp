// 2-D convolution by FFT, checked against nxv::conv: a 96x80 image blurred and edge-filtered by 9x9 kernels, once
// through conv (a direct sum over the window) and once through the convolution theorem: zero-pad both to the full
// output size, multiply the spectra (fft2), transform back (ifft2). conv is a cross-correlation, as in Nx and XLA,
// so the FFT side flips the kernel. Runs on the Vulkan device when there is one (else the reference backend); exits
// 1 if the two differ by more than the FFT's rounding (f32: a few times eps log2(n) of the largest output).
//
//   ./build/examples/fft_convolution
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include <nxv/nxv.hpp>

int main() {
  using namespace nxv;
  Backend& backend =
      vulkan::available() && !std::getenv("NXV_EXAMPLE_REFERENCE") ? vulkan::backend() : reference_backend();
  const std::int64_t h = 96, w = 80, k = 9;
  const Tensor image = uniform(key(1), {1, 1, h, w}, DType::f32, 0.0, 1.0, backend);
  // A Gaussian blur (sigma 2) and a horizontal Sobel-like edge kernel, as [out channels 2, in 1, k, k].
  const Tensor i = as_type(iota({k}, 0, DType::s32, backend), DType::f32) - static_cast<double>(k / 2);
  const Tensor gauss1 = exp(square(i) * (-1.0 / 8.0));
  const Tensor blur = reshape(dot(reshape(gauss1, {k, 1}), reshape(gauss1, {1, k})), {1, 1, k, k});
  const Tensor edge = reshape(dot(reshape(gauss1, {k, 1}), reshape(i, {1, k})), {1, 1, k, k});
  const Tensor kernels = concatenate({blur / sum(blur), edge}, 0);

  // Direct: the full output, [1, 2, h + k - 1, w + k - 1].
  ConvOptions full;
  full.padding = {{k - 1, k - 1}, {k - 1, k - 1}};
  const Tensor direct = conv(image, kernels, full);

  // By FFT: spectra of the image and of the flipped kernels at the full size, multiplied, transformed back.
  const std::array<std::int64_t, 2> size{h + k - 1, w + k - 1};
  const Tensor image_spectrum = fft2(reshape(image, {h, w}), size);                            // [h+k-1, w+k-1]
  const Tensor kernel_spectra = fft2(reshape(reverse(kernels, Axes{2, 3}), {2, k, k}), size);  // [2, ...]
  const Tensor by_fft = reshape(real(ifft2(kernel_spectra * image_spectrum)), direct.shape());

  const double largest = reduce_max(abs(direct)).to_host().item();
  const double error = reduce_max(abs(by_fft - direct)).to_host().item();
  const double bound = 8 * std::ldexp(1.0, -24) * std::log2(static_cast<double>(size[0] * size[1])) * largest;
  std::printf("on %s: a %lldx%lld image, two %lldx%lld kernels; max |fft - conv| = %.3g (bound %.3g, max %.3g)\n",
              std::string(backend.name()).c_str(), static_cast<long long>(h), static_cast<long long>(w),
              static_cast<long long>(k), static_cast<long long>(k), error, bound, largest);
  if (!(error <= bound)) {
    std::printf("FFT convolution differs from conv\n");
    return 1;
  }
  return 0;
}
