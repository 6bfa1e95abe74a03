// Parameter checks and random draws shared by every distribution.
#include "mcmc/dist_support.hpp"

#include <cmath>
#include <numbers>

#include "nxv/nn.hpp"
#include "nxv/shape.hpp"

namespace nxv::dist {

const char* name(Support support) {
  switch (support) {
    case Support::real:
      return "real";
    case Support::nonnegative:
      return "nonnegative";
    case Support::positive:
      return "positive";
    case Support::unit_interval:
      return "unit_interval";
    case Support::interval:
      return "interval";
    case Support::boolean:
      return "boolean";
    case Support::nonnegative_integer:
      return "nonnegative_integer";
    case Support::integer_interval:
      return "integer_interval";
    case Support::real_vector:
      return "real_vector";
    case Support::simplex:
      return "simplex";
  }
  return "?";
}

namespace detail {

Shapes check_params(std::string_view dist, std::initializer_list<const Tensor*> params, int event_rank) {
  Shapes out;
  bool first = true;
  for (const Tensor* p : params) {
    NXV_CHECK(p->dtype() == DType::f32 || p->dtype() == DType::f64, dist, "got a parameter of dtype ", name(p->dtype()),
              ", expected f32 or f64");
    NXV_CHECK(first || p->dtype() == out.dtype, dist, "got parameters of dtypes ", name(out.dtype), " and ",
              name(p->dtype()), ", expected one dtype");
    NXV_CHECK(p->rank() >= event_rank, dist, "got a parameter of shape ", to_string(p->shape()),
              ", expected rank >= ", event_rank, " (the event axis)");
    const Shape& s = p->shape();
    const Shape batch(s.begin(), s.end() - event_rank);
    const Shape event(s.end() - event_rank, s.end());
    NXV_CHECK(first || event == out.event_shape, dist, "got event shapes ", to_string(out.event_shape), " and ",
              to_string(event), ", expected equal ones");
    out.batch_shape = first ? batch : broadcast_shapes(out.batch_shape, batch, dist);
    out.event_shape = event;
    out.dtype = p->dtype();
    first = false;
  }
  return out;
}

Tensor check_value(std::string_view dist, const Shapes& d, const Tensor& x, bool discrete) {
  const bool ok = x.dtype() == d.dtype || (discrete && (is_integer(x.dtype()) || x.dtype() == DType::pred));
  NXV_CHECK(ok, dist, "log_prob got a value of dtype ", name(x.dtype()), ", expected ", name(d.dtype),
            discrete ? " or an integer dtype" : "");
  const int er = static_cast<int>(d.event_shape.size());
  NXV_CHECK(x.rank() >= er && Shape(x.shape().end() - er, x.shape().end()) == d.event_shape, dist,
            "log_prob got a value of shape ", to_string(x.shape()), ", expected trailing axes ",
            to_string(d.event_shape));
  broadcast_shapes(Shape(x.shape().begin(), x.shape().end() - er), d.batch_shape, dist);
  return x.dtype() == d.dtype ? x : as_type(x, d.dtype);
}

Shape draw_shape(const Shape& sample_shape, const Shapes& d) {
  Shape s = sample_shape;
  for (const std::int64_t n : d.batch_shape) s.push_back(n);
  for (const std::int64_t n : d.event_shape) s.push_back(n);
  return s;
}

Tensor uniform_open(const Tensor& key, const Shape& shape, DType dtype, std::uint32_t stream) {
  if (dtype == DType::f64) {
    const Tensor hi = nn::random_uniform(key, shape, DType::f64, 2 * stream);
    const Tensor lo = nn::random_uniform(key, shape, DType::f64, 2 * stream + 1);
    return hi + (lo + std::ldexp(1.0, -25)) * std::ldexp(1.0, -24);
  }
  // 24 bits would put (m + 1/2) 2^-24 at 1 - 2^-25, which rounds to 1 in f32: keep 23.
  const Tensor u = nn::random_uniform(key, shape, DType::f32, 2 * stream);
  return floor(u * std::ldexp(1.0, 23)) * std::ldexp(1.0, -23) + std::ldexp(1.0, -24);
}

Tensor standard_normal(const Tensor& key, const Shape& shape, DType dtype, std::uint32_t stream) {
  return erf_inv(uniform_open(key, shape, dtype, stream) * 2.0 - 1.0) * std::numbers::sqrt2;
}

Tensor normal_log_density(const Tensor& z) { return square(z) * -0.5 - 0.5 * std::log(2 * std::numbers::pi); }

Tensor normal_cdf(const Tensor& z) { return erfc(z * (-std::numbers::sqrt2 / 2)) * 0.5; }

}  // namespace detail
}  // namespace nxv::dist
