// What every distribution shares: parameter checks, the out-of-support rule, and uniform and normal draws from a
// key tensor.
#pragma once
#include <cmath>
#include <initializer_list>
#include <string_view>

#include "nxv/dist.hpp"

namespace nxv::dist::detail {

// Checks that `params` are float tensors of one dtype (f32 or f64) whose shapes broadcast (the event axis, the
// last `event_rank` axes, excluded and required to agree); the error names `dist`.
Shapes check_params(std::string_view dist, std::initializer_list<const Tensor*> params, int event_rank = 0);

// x checked against the distribution (continuous: its dtype; discrete: its dtype or an integer dtype, converted).
Tensor check_value(std::string_view dist, const Shapes& d, const Tensor& x, bool discrete = false);

// The out-of-support rule (dist.hpp): `density(xs)` is evaluated at xs = x where `inside`, else at `fallback` (a
// point of the support), and the result is -inf outside (NaN where x is NaN).
template <class Density>
Tensor restrict_to(const Tensor& x, const Tensor& inside, double fallback, Density density) {
  const Tensor safe = select(inside, x, scalar(fallback, x.dtype(), x.backend()));
  const Tensor lp = density(safe);
  const Tensor outside = select(is_nan(x), x, scalar(-INFINITY, x.dtype(), x.backend()));
  return select(inside, lp, outside);
}

// [sample..., batch..., event...].
Shape draw_shape(const Shape& sample_shape, const Shapes& d);

// Uniform strictly inside (0, 1): f32 with 23 random bits ((m + 1/2) 2^-23), f64 with 48 (two 24-bit streams,
// (m + 1/2) 2^-48), exact in the dtype. Streams 2 * stream and 2 * stream + 1 of nn::random_uniform.
Tensor uniform_open(const Tensor& key, const Shape& shape, DType dtype, std::uint32_t stream);
// Standard normal by the inverse CDF: sqrt(2) erf_inv(2u - 1) with u = uniform_open(...).
Tensor standard_normal(const Tensor& key, const Shape& shape, DType dtype, std::uint32_t stream);

// Gamma(alpha, 1) variates of `shape` (alpha broadcasts to it): Marsaglia-Tsang, 10 rounds (dist.hpp). Uses
// streams first_stream .. first_stream + 20.
Tensor standard_gamma(const Tensor& key, const Shape& shape, const Tensor& alpha, std::uint32_t first_stream);
inline constexpr std::uint32_t kGammaStreams = 21;
// Poisson(rate) counts of `shape` in rate's dtype (dist.hpp's rule). Uses streams first_stream .. + 24.
Tensor poisson_count(const Tensor& key, const Shape& shape, const Tensor& rate, std::uint32_t first_stream);

// The standard normal's log density and CDF (erfc keeps the lower tail's relative accuracy).
Tensor normal_log_density(const Tensor& z);
Tensor normal_cdf(const Tensor& z);

}  // namespace nxv::dist::detail
