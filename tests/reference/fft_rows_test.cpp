// Reference kernel: fft_rows (src/reference/fft_rows.cpp), against a direct DFT summed in long double, by round
// trips, by Parseval's identity at lengths too long for the direct DFT, with inputs whose spectra are known exactly,
// and with special values. Inputs are uniform in [-1, 1) from fixed seeds.
//
// Errors are measured as max |error| / (eps log2(n + 1) max |X|), the growth a stable FFT promises. Worst ratios
// seen (g++ 12, x86-64, -O2 and -O0; impulses at every n up to 1100, random inputs at every n up to 400 and every
// 7th beyond, and the lengths below; both directions): 0.80 against the direct DFT (an impulse through Bluestein
// at n = 31; 0.52 for random inputs), 0.73 for a round trip (relative to max |x|), 0.01 for Parseval's identity
// (relative to sum |X|^2). The bounds keep a margin of about 4 over the first two, 10 over the third, and stay low
// enough to catch Bluestein's classic error, a chirp angle pi k^2 / n computed in floating point: it gives ratios
// of 3 to 19 at the Bluestein lengths up to 64 and 1400 at 65537.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <numbers>
#include <random>
#include <vector>

#include "reference/fft_rows.hpp"

namespace nxv::reference_test {
namespace {

using reference::fft_rows;

constexpr double kEps = std::numeric_limits<double>::epsilon();
constexpr double kDftBound = 3, kRoundTripBound = 3, kParsevalBound = 0.1;

// Complex numbers as fft_rows takes them: (re, im) pairs, rows one after another.
using Values = std::vector<double>;

Values random_values(std::int64_t count, std::uint64_t seed) {
  std::mt19937_64 generator(seed);
  std::uniform_real_distribution<double> uniform(-1, 1);
  Values values(static_cast<std::size_t>(2 * count));
  for (double& v : values) v = uniform(generator);
  return values;
}

Values transformed(Values values, std::int64_t rows, std::int64_t n, bool inverse) {
  fft_rows(values.data(), rows, n, inverse);
  return values;
}

double re(const Values& v, std::int64_t i) { return v[static_cast<std::size_t>(2 * i)]; }
double im(const Values& v, std::int64_t i) { return v[static_cast<std::size_t>(2 * i + 1)]; }

// max |v_i| over the complex numbers first, first + 1, ..., first + count - 1.
double max_magnitude(const Values& v, std::int64_t first, std::int64_t count) {
  double largest = 0;
  for (std::int64_t i = first; i < first + count; ++i) largest = std::max(largest, std::hypot(re(v, i), im(v, i)));
  return largest;
}

// How many times eps log2(n + 1) * scale the error is.
double error_ratio(double error, double scale, std::int64_t n) {
  return error / (kEps * std::log2(static_cast<double>(n) + 1) * scale);
}

struct LongComplex {
  long double re = 0, im = 0;
};

// The DFT of the row of x starting at complex number `first`, at the outputs `bins`: sums in long double of
// products with roots of unity tabulated in long double and indexed by jk mod n in integers, so its own errors
// are some 2^-11 of those being measured.
std::vector<LongComplex> direct_dft(const Values& x, std::int64_t first, std::int64_t n, bool inverse,
                                    const std::vector<std::int64_t>& bins) {
  std::vector<LongComplex> roots(static_cast<std::size_t>(n));
  for (std::int64_t m = 0; m < n; ++m) {
    const long double angle =
        2 * std::numbers::pi_v<long double> * static_cast<long double>(m) / static_cast<long double>(n);
    roots[static_cast<std::size_t>(m)] = {std::cos(angle), inverse ? std::sin(angle) : -std::sin(angle)};
  }
  std::vector<LongComplex> spectrum;
  for (std::int64_t j : bins) {
    LongComplex sum;
    for (std::int64_t k = 0, jk = 0; k < n; ++k, jk = (jk + j) % n) {
      const LongComplex w = roots[static_cast<std::size_t>(jk)];
      const long double x_re = re(x, first + k), x_im = im(x, first + k);
      sum.re += x_re * w.re - x_im * w.im;
      sum.im += x_re * w.im + x_im * w.re;
    }
    spectrum.push_back(sum);
  }
  return spectrum;
}

std::vector<std::int64_t> every_bin(std::int64_t n) {
  std::vector<std::int64_t> bins(static_cast<std::size_t>(n));
  for (std::int64_t j = 0; j < n; ++j) bins[static_cast<std::size_t>(j)] = j;
  return bins;
}

// Transforms `rows` rows of x and checks each against the direct DFT of that row.
void expect_matches_direct_dft(const Values& x, std::int64_t rows, std::int64_t n, bool inverse) {
  const Values got = transformed(x, rows, n, inverse);
  for (std::int64_t r = 0; r < rows; ++r) {
    const std::vector<LongComplex> want = direct_dft(x, r * n, n, inverse, every_bin(n));
    long double error = 0, scale = 0;
    for (std::int64_t j = 0; j < n; ++j) {
      const LongComplex w = want[static_cast<std::size_t>(j)];
      error = std::max(error, std::hypot(re(got, r * n + j) - w.re, im(got, r * n + j) - w.im));
      scale = std::max(scale, std::hypot(w.re, w.im));
    }
    EXPECT_LE(error_ratio(static_cast<double>(error), static_cast<double>(scale), n), kDftBound)
        << "n = " << n << ", row " << r << (inverse ? ", inverse" : ", forward");
  }
}

bool largest_prime_factor_at_most_13(std::int64_t n) {
  for (std::int64_t p = 2; p <= 13; ++p)
    while (n % p == 0) n /= p;
  return n == 1;
}

// 1, 2, ..., 64, then `more`.
std::vector<std::int64_t> lengths_up_to_64_and(std::initializer_list<std::int64_t> more) {
  std::vector<std::int64_t> lengths;
  for (std::int64_t n = 1; n <= 64; ++n) lengths.push_back(n);
  lengths.insert(lengths.end(), more);
  return lengths;
}

TEST(FftRows, MatchesDirectDftForEveryLengthUpTo64) {
  for (std::int64_t n = 1; n <= 64; ++n)
    for (bool inverse : {false, true})
      expect_matches_direct_dft(random_values(n, 1000 + static_cast<std::uint64_t>(n)), 1, n, inverse);
}

TEST(FftRows, MatchesDirectDftForPrimeAndCompositeLengths) {
  // Primes beyond the largest radix (Bluestein), products of the larger radices, powers of two.
  for (std::int64_t n : {97, 101, 1009, 360, 625, 729, 1000, 1001, 1024, 4096})
    for (bool inverse : {false, true})
      expect_matches_direct_dft(random_values(n, 2000 + static_cast<std::uint64_t>(n)), 1, n, inverse);
}

TEST(FftRows, TransformsEachRowOnItsOwn) {
  constexpr std::int64_t kRows = 5;
  for (std::int64_t n : {12, 17, 64}) {
    const Values x = random_values(kRows * n, 3000 + static_cast<std::uint64_t>(n));
    expect_matches_direct_dft(x, kRows, n, false);
    // Bit for bit what the row gives alone.
    const Values together = transformed(x, kRows, n, false);
    for (std::int64_t r = 0; r < kRows; ++r) {
      const auto row_begin = x.begin() + 2 * r * n;
      const Values alone = transformed(Values(row_begin, row_begin + 2 * n), 1, n, false);
      EXPECT_TRUE(std::equal(alone.begin(), alone.end(), together.begin() + 2 * r * n)) << "n = " << n << ", row " << r;
    }
  }
}

TEST(FftRows, InverseOfForwardDividedByNIsTheInput) {
  for (std::int64_t n : lengths_up_to_64_and({1009, 4096, 65537})) {
    const Values x = random_values(n, 4000 + static_cast<std::uint64_t>(n));
    const Values round_trip = transformed(transformed(x, 1, n, false), 1, n, true);
    double error = 0;
    for (std::int64_t k = 0; k < n; ++k) {
      const double scale = 1 / static_cast<double>(n);
      error = std::max(error, std::hypot(re(round_trip, k) * scale - re(x, k), im(round_trip, k) * scale - im(x, k)));
    }
    EXPECT_LE(error_ratio(error, max_magnitude(x, 0, n), n), kRoundTripBound) << "n = " << n;
  }
}

TEST(FftRows, LongLengthsKeepParsevalsIdentityAndMatchSampledBins) {
  // 2^20 (radix 2 only) and the prime 65537 (Bluestein, whose chirp angle pi k^2 / n needs k^2 mod 2n in integers:
  // as a double, pi k^2 would be off by ~1e-6 here).
  for (std::int64_t n : {std::int64_t{1} << 20, std::int64_t{65537}}) {
    const Values x = random_values(n, 5000 + static_cast<std::uint64_t>(n));
    const Values spectrum = transformed(x, 1, n, false);
    long double input_energy = 0, output_energy = 0;
    for (std::int64_t k = 0; k < n; ++k) {
      input_energy += static_cast<long double>(re(x, k)) * re(x, k) + static_cast<long double>(im(x, k)) * im(x, k);
      output_energy += static_cast<long double>(re(spectrum, k)) * re(spectrum, k) +
                       static_cast<long double>(im(spectrum, k)) * im(spectrum, k);
    }
    const long double energy_error = std::abs(input_energy * static_cast<long double>(n) - output_energy);
    EXPECT_LE(error_ratio(static_cast<double>(energy_error), static_cast<double>(output_energy), n), kParsevalBound)
        << "n = " << n;

    const std::vector<std::int64_t> bins{0, 1, 2, 3, n / 3, n / 2, n / 2 + 1, n - 2, n - 1, 12345};
    const std::vector<LongComplex> want = direct_dft(x, 0, n, false, bins);
    double error = 0;
    for (std::size_t b = 0; b < bins.size(); ++b)
      error = std::max(error, static_cast<double>(
                                  std::hypot(re(spectrum, bins[b]) - want[b].re, im(spectrum, bins[b]) - want[b].im)));
    EXPECT_LE(error_ratio(error, max_magnitude(spectrum, 0, n), n), kDftBound) << "n = " << n;
  }
}

TEST(FftRows, ImpulseHasAFlatSpectrum) {
  // An impulse at 0: every output is 1, exactly where the mixed-radix transform runs (it only multiplies the 1 by
  // roots of unity that are exactly 1 and adds zeros); Bluestein's convolution rounds. An impulse at t: the roots
  // of unity e^{-+2 pi i jt/n}.
  for (std::int64_t n : lengths_up_to_64_and({97, 360, 1000, 1009, 4096})) {
    for (bool inverse : {false, true}) {
      Values impulse(static_cast<std::size_t>(2 * n), 0.0);
      impulse[0] = 1;
      const Values spectrum = transformed(impulse, 1, n, inverse);
      double error = 0;
      for (std::int64_t j = 0; j < n; ++j) error = std::max(error, std::hypot(re(spectrum, j) - 1, im(spectrum, j)));
      if (largest_prime_factor_at_most_13(n))
        EXPECT_EQ(error, 0) << "n = " << n;
      else
        EXPECT_LE(error_ratio(error, 1, n), kDftBound) << "n = " << n;

      Values shifted(static_cast<std::size_t>(2 * n), 0.0);
      shifted[static_cast<std::size_t>(2 * (n / 3))] = 1;
      expect_matches_direct_dft(shifted, 1, n, inverse);
    }
  }
}

TEST(FftRows, ConstantHasItsWholeSpectrumAtZero) {
  // X_0 = n c exactly where the mixed-radix transform runs (integer multiples of c, no roots but 1 involved); the
  // other outputs are exactly 0 for powers of two (whose roots of unity in the butterflies are exactly +-1, +-i)
  // and within the error bound otherwise.
  constexpr double kRe = 0.75, kIm = -0.5;
  for (std::int64_t n : lengths_up_to_64_and({97, 360, 1000, 1009, 4096})) {
    Values constant(static_cast<std::size_t>(2 * n));
    for (std::int64_t k = 0; k < n; ++k) {
      constant[static_cast<std::size_t>(2 * k)] = kRe;
      constant[static_cast<std::size_t>(2 * k + 1)] = kIm;
    }
    const Values spectrum = transformed(constant, 1, n, false);
    const double n_re = kRe * static_cast<double>(n), n_im = kIm * static_cast<double>(n);
    const double scale = std::hypot(n_re, n_im);
    const double zero_bin_error = std::hypot(re(spectrum, 0) - n_re, im(spectrum, 0) - n_im);
    const double other_bins_error = max_magnitude(spectrum, 1, n - 1);
    if (largest_prime_factor_at_most_13(n))
      EXPECT_EQ(zero_bin_error, 0) << "n = " << n;
    else
      EXPECT_LE(error_ratio(zero_bin_error, scale, n), kDftBound) << "n = " << n;
    if ((n & (n - 1)) == 0)
      EXPECT_EQ(other_bins_error, 0) << "n = " << n;
    else
      EXPECT_LE(error_ratio(other_bins_error, scale, n), kDftBound) << "n = " << n;
  }
}

TEST(FftRows, NoRowsOrZeroLengthChangesNothing) {
  const Values before{1, 2, 3, 4, 5, 6, 7, 8};
  Values values = before;
  fft_rows(values.data(), 0, 4, false);
  fft_rows(values.data(), 2, 0, true);
  EXPECT_EQ(values, before);
  fft_rows(nullptr, 0, 0, false);
  fft_rows(nullptr, 3, 0, false);
  fft_rows(nullptr, 0, 3, true);
}

TEST(FftRows, NanOrInfinityMakesEveryOutputOfItsRowNan) {
  // With n >= 2, every output depends on every input through products with roots of unity, and an infinity times
  // a zero part of a root (at the latest the imaginary 0 of the root 1) is NaN. Other rows are untouched; n = 1
  // copies its row.
  constexpr std::int64_t kRows = 3;
  const double inf = std::numeric_limits<double>::infinity();
  for (std::int64_t n : {1, 2, 3, 8, 12, 13, 17, 64, 97, 360}) {
    const Values x = random_values(kRows * n, 6000 + static_cast<std::uint64_t>(n));
    const Values clean = transformed(x, kRows, n, false);
    for (double special : {std::numeric_limits<double>::quiet_NaN(), inf, -inf}) {
      for (std::int64_t part : {0, 1}) {  // re, im
        Values poisoned = x;
        const std::int64_t position = n + n / 2;  // row 1
        poisoned[static_cast<std::size_t>(2 * position + part)] = special;
        const Values got = transformed(poisoned, kRows, n, false);
        for (std::int64_t i = 0; i < 2 * kRows * n; ++i) {
          const auto at = static_cast<std::size_t>(i);
          const bool in_row_1 = i >= 2 * n && i < 4 * n;
          if (in_row_1 && n >= 2)
            EXPECT_TRUE(std::isnan(got[at])) << "n = " << n << ", " << special << " in part " << part << ", at " << i;
          else if (in_row_1)
            EXPECT_TRUE(got[at] == poisoned[at] || (std::isnan(got[at]) && std::isnan(poisoned[at])))
                << "n = 1, " << special << " at " << i;
          else
            EXPECT_EQ(got[at], clean[at]) << "n = " << n << ", " << special << ", untouched row at " << i;
        }
      }
    }
  }
}

}  // namespace
}  // namespace nxv::reference_test
