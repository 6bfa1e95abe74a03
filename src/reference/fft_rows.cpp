// The reference FFT (reference/fft_rows.hpp): a mixed-radix Cooley-Tukey transform, decimation in time, whose
// radix-p steps are direct p-point DFTs, for lengths whose prime factors are at most kLargestRadix, and Bluestein's
// algorithm on top of it for the others. Plans (twiddle tables, the Bluestein kernel) live for one call.
#include "reference/fft_rows.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstddef>
#include <numbers>
#include <vector>

namespace nxv::reference {
namespace {

struct Complex {
  double re = 0, im = 0;
};

// Spelled out rather than std::complex, whose operator* (GCC's __muldc3) turns some NaN products back into
// infinities: here a non-finite input propagates by plain IEEE arithmetic, as it would in a shader.
Complex operator+(Complex a, Complex b) { return {a.re + b.re, a.im + b.im}; }
Complex operator*(Complex a, Complex b) { return {a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re}; }
Complex operator*(double s, Complex z) { return {s * z.re, s * z.im}; }
Complex conj(Complex z) { return {z.re, -z.im}; }

// The largest radix of the mixed-radix transform. A radix-p step is a direct p-point DFT, p products per element,
// which stays cheap well beyond 13; the cut is low so that Bluestein runs from n = 17 on, where sweeps over small
// lengths test it as thoroughly as the mixed-radix path.
constexpr std::size_t kLargestRadix = 13;

// e^{-2 pi i m/n}, or e^{+2 pi i m/n} for the inverse. The angle is reduced in integers to whole quarter turns plus at
// most an eighth of a turn before any rounding, so the error is an ulp or so of that small angle rather than of
// 2 pi (which would leave roots near -1 or -i with errors of several ulps); it also makes the roots at quarter
// turns exactly +-1 and +-i, and those at m and n - m exact conjugates.
Complex unit_root(std::size_t m, std::size_t n, bool inverse) {
  m %= n;
  const std::size_t quarter_turns = 4 * m / n, rest = 4 * m - quarter_turns * n;  // angle = (pi/2) (quarters + rest/n)
  const bool past_eighth = 2 * rest > n;  // then take the complement pi/2 - angle, swapping cos and sin
  const double angle =
      std::numbers::pi / 2 * static_cast<double>(past_eighth ? n - rest : rest) / static_cast<double>(n);
  Complex root = past_eighth ? Complex{std::sin(angle), std::cos(angle)} : Complex{std::cos(angle), std::sin(angle)};
  for (std::size_t i = 0; i < quarter_turns; ++i) root = {-root.im, root.re};  // times i, exactly
  return inverse ? root : conj(root);
}

bool has_only_small_prime_factors(std::size_t n) {
  for (std::size_t p = 2; p <= kLargestRadix; ++p)
    while (n % p == 0) n /= p;
  return n == 1;
}

// Decimation in time: the DFT X of a length L whose first radix is p comes from the p DFTs Y_0 .. Y_{p-1} of length
// m = L/p over the inputs q, q + p, q + 2p, ...: with w = e^{-2 pi i/L} (or its conjugate),
//   X_{k + j m} = sum_q w^{q k} (w^m)^{q j} Y_q[k]      (0 <= k < m, 0 <= j < p),
// that is, for each k a p-point DFT (w^m is a p-th root of unity) of the Y_q[k] times the twiddle factors w^{q k}.
class MixedRadixFft {
 public:
  MixedRadixFft(std::size_t n, bool inverse) : n_(n), roots_(n) {
    std::size_t unfactored = n;
    for (std::size_t p = 2; p <= kLargestRadix; ++p)
      for (; unfactored % p == 0; unfactored /= p) radices_.push_back(p);
    for (std::size_t m = 0; m < n_; ++m) roots_[m] = unit_root(m, n_, inverse);
  }

  // out = the DFT of in; two distinct arrays of n.
  void transform(const Complex* in, Complex* out) const { transform(in, 1, out, n_, 0); }

 private:
  // out[0 .. length) = the DFT of in[0], in[stride], ..., whose length is the product of radices_[level ..].
  void transform(const Complex* in, std::size_t stride, Complex* out, std::size_t length, std::size_t level) const {
    if (length == 1) {
      *out = *in;
      return;
    }
    const std::size_t radix = radices_[level], sub_length = length / radix;
    for (std::size_t q = 0; q < radix; ++q)
      transform(in + q * stride, stride * radix, out + q * sub_length, sub_length, level + 1);
    // out[q * sub_length + k] is now Y_q[k]. roots_ holds the n-th roots, so w^e for this length is roots_[e * step];
    // e = q k stays below the length, and the p-th roots' exponent q j is reduced mod p.
    const std::size_t step = n_ / length;
    std::array<Complex, kLargestRadix> twiddled;
    for (std::size_t k = 0; k < sub_length; ++k) {
      for (std::size_t q = 0; q < radix; ++q) twiddled[q] = out[q * sub_length + k] * roots_[q * k * step];
      for (std::size_t j = 0; j < radix; ++j) {
        Complex sum;
        for (std::size_t q = 0; q < radix; ++q) sum = sum + twiddled[q] * roots_[q * j % radix * sub_length * step];
        out[k + j * sub_length] = sum;  // the places the Y_q[k] were read from, so nothing else is overwritten
      }
    }
  }

  std::size_t n_;
  std::vector<std::size_t> radices_;
  std::vector<Complex> roots_;  // roots_[m] = e^{-+2 pi i m/n}
};

// Bluestein's algorithm: jk = (j^2 + k^2 - (j - k)^2) / 2 turns the DFT into a convolution. With the chirp
// c_k = e^{-pi i k^2/n} (its conjugate for the inverse),
//   X_j = c_j sum_k (x_k c_k) conj(c_{j-k}),
// computed as a cyclic convolution of a power-of-two length >= 2n - 1, long enough that the kernel's values at the
// negative j - k (stored at the top of the array) stay clear of those at the positive ones.
class BluesteinFft {
 public:
  BluesteinFft(std::size_t n, bool inverse)
      : n_(n),
        padded_length_(std::bit_ceil(2 * n - 1)),
        fft_(padded_length_, false),
        chirp_(n),
        kernel_spectrum_(padded_length_),
        padded_(padded_length_),
        spectrum_(padded_length_) {
    // c_k depends on k^2 mod 2n only; k^2 itself overflows (and as a double loses the low bits that decide the
    // angle) long before n does, so it is kept mod 2n by (k + 1)^2 = k^2 + 2k + 1.
    for (std::size_t k = 0, k_squared = 0; k < n; ++k) {
      chirp_[k] = unit_root(k_squared, 2 * n, inverse);
      k_squared = (k_squared + 2 * k + 1) % (2 * n);
    }
    // The kernel conj(c_d) at d and -d, scaled by 1 / padded_length_ for the unnormalised inverse FFT in transform
    // (exactly: a power of two).
    const double scale = 1 / static_cast<double>(padded_length_);
    for (std::size_t d = 0; d < n; ++d)
      padded_[d] = padded_[(padded_length_ - d) % padded_length_] = scale * conj(chirp_[d]);
    fft_.transform(padded_.data(), kernel_spectrum_.data());
  }

  void transform(const Complex* in, Complex* out) {
    std::fill(padded_.begin(), padded_.end(), Complex{});
    for (std::size_t k = 0; k < n_; ++k) padded_[k] = in[k] * chirp_[k];
    fft_.transform(padded_.data(), spectrum_.data());
    // The inverse FFT as conj(FFT(conj(z))), so that one forward plan serves both.
    for (std::size_t i = 0; i < padded_length_; ++i) padded_[i] = conj(spectrum_[i] * kernel_spectrum_[i]);
    fft_.transform(padded_.data(), spectrum_.data());
    for (std::size_t j = 0; j < n_; ++j) out[j] = chirp_[j] * conj(spectrum_[j]);
  }

 private:
  std::size_t n_, padded_length_;
  MixedRadixFft fft_;
  std::vector<Complex> chirp_, kernel_spectrum_;
  std::vector<Complex> padded_, spectrum_;  // scratch for transform
};

// Each row is copied out, transformed and copied back: the transforms are out of place.
template <class Fft>
void transform_rows(Fft& fft, double* data, std::size_t rows, std::size_t n) {
  std::vector<Complex> row(n), spectrum(n);
  for (std::size_t r = 0; r < rows; ++r) {
    double* values = data + 2 * n * r;
    for (std::size_t k = 0; k < n; ++k) row[k] = {values[2 * k], values[2 * k + 1]};
    fft.transform(row.data(), spectrum.data());
    for (std::size_t k = 0; k < n; ++k) {
      values[2 * k] = spectrum[k].re;
      values[2 * k + 1] = spectrum[k].im;
    }
  }
}

}  // namespace

void fft_rows(double* data, std::int64_t rows, std::int64_t n, bool inverse) {
  if (rows <= 0 || n <= 0) return;
  const auto row_count = static_cast<std::size_t>(rows), length = static_cast<std::size_t>(n);
  if (has_only_small_prime_factors(length)) {
    MixedRadixFft fft(length, inverse);
    transform_rows(fft, data, row_count, length);
  } else {
    BluesteinFft fft(length, inverse);
    transform_rows(fft, data, row_count, length);
  }
}

}  // namespace nxv::reference
