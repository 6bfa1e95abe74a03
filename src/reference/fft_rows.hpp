// The reference FFT: the readable oracle the library's FFT kernels are checked against, so it favours
// obviously-correct over fast. Lengths whose prime factors are all at most 13 take a textbook mixed-radix
// Cooley-Tukey transform, the others Bluestein's chirp-z algorithm (a convolution done by a power-of-two FFT), so
// every length costs O(n log n) and keeps an error of O(eps log n) relative to the largest output. Every twiddle
// factor is computed from its exact integer angle, and nothing is cached between calls: kernels may run on several
// threads at once.
#pragma once
#include <cstdint>

namespace nxv::reference {

// The discrete Fourier transform of `rows` contiguous rows of `n` complex numbers each, in place. Row r holds
// n (re, im) pairs of doubles at data + 2 * n * r. Forward: X_j = sum_k x_k e^{-2 pi i jk/n};
// inverse: e^{+2 pi i jk/n}; both unnormalised (the caller scales the inverse by 1/n). n == 0 or rows == 0 does
// nothing. A NaN or an infinity in a row of n >= 2 makes every component of that row's outputs NaN (an infinity
// meets a zero in the products with the twiddle factors, and every output depends on every input); other rows are
// unaffected.
void fft_rows(double* data, std::int64_t rows, std::int64_t n, bool inverse);

}  // namespace nxv::reference
