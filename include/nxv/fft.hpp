// Fourier transforms: Nx.fft, Nx.ifft, Nx.fft2, Nx.ifft2 and NumPy's rfft/irfft, along any axis, of any length
// (mixed radix, and Bluestein's algorithm where the length has a large prime factor), batched over every other
// axis, and differentiable. A real input is converted to complex (c64; f64 gives c128).
//
//   Tensor spectrum = nxv::fft(signal);            // along the last axis
//   Tensor back = nxv::ifft(spectrum);             // signal, up to rounding: O(eps log n) relative to the largest
//   Tensor half = nxv::rfft(real_signal, 1024);    // 513 bins of the signal cropped or zero-padded to 1024 points
//
// The reference backend runs the readable oracle (src/reference/fft_rows.cpp); the Vulkan backend has no FFT
// kernel yet and runs it through the counted host fallback (include/nxv/fallback.hpp).
#pragma once
#include <array>
#include <cstdint>
#include <optional>

#include "nxv/tensor.hpp"

namespace nxv {

// The discrete Fourier transform along `axis`, X_j = sum_k x_k e^{-2 pi i jk / n}, unnormalised (NumPy's, Nx's and
// torch.fft's default). `length` is n: the axis is cropped, or padded with zeros, to it first (Nx's :length);
// unset, the axis' size.
Tensor fft(const Tensor& x, std::optional<std::int64_t> length = std::nullopt, int axis = -1);
// The inverse transform, with e^{+2 pi i jk / n} and divided by n: ifft(fft(x)) is x up to rounding.
Tensor ifft(const Tensor& x, std::optional<std::int64_t> length = std::nullopt, int axis = -1);
// The transform of a real x: its n / 2 + 1 non-negative frequencies (the others are their conjugates).
Tensor rfft(const Tensor& x, std::optional<std::int64_t> length = std::nullopt, int axis = -1);
// The real signal of n points whose rfft is x (n defaults to 2 (m - 1) for m bins): x cropped or zero-padded to
// n / 2 + 1 bins, completed by conjugate symmetry, inverse-transformed; imaginary parts of the bins that must be
// real (0, and n / 2 for an even n) are ignored, as NumPy does.
Tensor irfft(const Tensor& x, std::optional<std::int64_t> length = std::nullopt, int axis = -1);
// fft and ifft over two distinct axes (default the last two), lengths[i] for axes[i].
Tensor fft2(const Tensor& x, std::optional<std::array<std::int64_t, 2>> lengths = std::nullopt,
            std::array<int, 2> axes = {-2, -1});
Tensor ifft2(const Tensor& x, std::optional<std::array<std::int64_t, 2>> lengths = std::nullopt,
             std::array<int, 2> axes = {-2, -1});

}  // namespace nxv
