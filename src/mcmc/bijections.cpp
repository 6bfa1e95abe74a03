// The bijections of nxv/bijections.hpp: unconstrained space onto supports, with their log-Jacobians.
#include "nxv/bijections.hpp"

#include <cmath>

#include "nxv/indexing.hpp"

namespace nxv::dist {

namespace {

int last_axis(const Tensor& x) { return x.rank() - 1; }

// The last axis split as [..., :1] and [..., 1:].
Tensor head(const Tensor& x) {
  Shape lengths = x.shape();
  lengths.back() = 1;
  return slice(x, Shape::filled(x.rank(), 0), lengths);
}
Tensor tail(const Tensor& x) {
  Shape starts = Shape::filled(x.rank(), 0), lengths = x.shape();
  starts.back() = 1;
  lengths.back() -= 1;
  return slice(x, starts, lengths);
}

void check_vector(const char* what, const Tensor& t, std::int64_t min_length) {
  NXV_CHECK(t.rank() >= 1 && t.shape().back() >= min_length, what, "got shape ", to_string(t.shape()),
            ", expected a last axis of length >= ", min_length);
}

// Stick-breaking's offsets log(K - 1 - k), k < K - 1, for a y of last axis K - 1: y = 0 then gives the centre.
Tensor stick_offsets(const Tensor& y) {
  const std::int64_t n = y.shape().back();
  const Tensor k = iota({n}, 0, y.dtype(), y.backend());
  return log(static_cast<double>(n) - k);
}

}  // namespace

Bijection identity() {
  const auto same = [](const Tensor& t) { return t; };
  return {same, same, [](const Tensor& y) { return zeros(y.shape(), y.dtype(), y.backend()); }, Support::real};
}

Bijection exp_bijection() {
  return {[](const Tensor& y) { return exp(y); }, [](const Tensor& x) { return log(x); },
          [](const Tensor& y) { return y; }, Support::positive};
}

Bijection softplus_bijection() {
  // inverse: y = log(e^x - 1) = x + log(1 - e^-x), exact for large x.
  return {[](const Tensor& y) { return softplus(y); }, [](const Tensor& x) { return x + log(-expm1(-x)); },
          [](const Tensor& y) { return log_sigmoid(y); }, Support::positive};
}

Bijection sigmoid_bijection() {
  return {[](const Tensor& y) { return sigmoid(y); }, [](const Tensor& x) { return log(x) - log1p(-x); },
          [](const Tensor& y) { return log_sigmoid(y) + log_sigmoid(-y); }, Support::unit_interval};
}

Bijection lower_bound(Tensor low) {
  return {[low](const Tensor& y) { return low + exp(y); }, [low](const Tensor& x) { return log(x - low); },
          [](const Tensor& y) { return y; }, Support::interval};
}

Bijection upper_bound(Tensor high) {
  return {[high](const Tensor& y) { return high - exp(y); }, [high](const Tensor& x) { return log(high - x); },
          [](const Tensor& y) { return y; }, Support::interval};
}

Bijection interval(Tensor low, Tensor high) {
  return {[low, high](const Tensor& y) { return low + (high - low) * sigmoid(y); },
          [low, high](const Tensor& x) {
            const Tensor z = (x - low) / (high - low);
            return log(z) - log1p(-z);
          },
          [low, high](const Tensor& y) { return log(high - low) + log_sigmoid(y) + log_sigmoid(-y); },
          Support::interval};
}

Bijection stick_breaking() {
  Bijection b;
  b.codomain = Support::simplex;
  b.event_rank = 1;
  b.forward = [](const Tensor& y) {
    check_vector("stick_breaking", y, 1);
    const Tensor t = y - stick_offsets(y);
    // log of what remains of the stick after each break: log prod (1 - z_j) = sum log sigmoid(-t_j).
    const Tensor log_left = cumulative_sum(log_sigmoid(-t), last_axis(y));
    const Tensor log_before = log_left - log_sigmoid(-t);  // exclusive: before break k
    Shape starts = Shape::filled(y.rank(), 0), lengths = y.shape();
    starts.back() = lengths.back() - 1;
    lengths.back() = 1;
    return concatenate({sigmoid(t) * exp(log_before), exp(slice(log_left, starts, lengths))}, last_axis(y));
  };
  b.inverse = [](const Tensor& x) {
    check_vector("stick_breaking", x, 2);
    Shape lengths = x.shape();
    lengths.back() -= 1;
    const Tensor parts = slice(x, Shape::filled(x.rank(), 0), lengths);
    const Tensor before = 1.0 - (cumulative_sum(parts, last_axis(x)) - parts);  // the stick left before break k
    const Tensor z = parts / before;
    return log(z) - log1p(-z) + stick_offsets(parts);
  };
  b.log_abs_det_jacobian = [](const Tensor& y) {
    check_vector("stick_breaking", y, 1);
    const Tensor t = y - stick_offsets(y);
    // d x_k / d y_k = z_k (1 - z_k) (the stick left before break k); the Jacobian is triangular.
    const Tensor log_before = cumulative_sum(log_sigmoid(-t), last_axis(y)) - log_sigmoid(-t);
    return sum(log_sigmoid(t) + log_sigmoid(-t) + log_before, Axes{-1});
  };
  return b;
}

Bijection ordered() {
  Bijection b;
  b.codomain = Support::real_vector;
  b.event_rank = 1;
  b.forward = [](const Tensor& y) {
    check_vector("ordered", y, 1);
    return cumulative_sum(concatenate({head(y), exp(tail(y))}, last_axis(y)), last_axis(y));
  };
  b.inverse = [](const Tensor& x) {
    check_vector("ordered", x, 1);
    Shape lengths = x.shape();
    lengths.back() -= 1;
    const Tensor previous = slice(x, Shape::filled(x.rank(), 0), lengths);
    return concatenate({head(x), log(tail(x) - previous)}, last_axis(x));
  };
  b.log_abs_det_jacobian = [](const Tensor& y) {
    check_vector("ordered", y, 1);
    return sum(tail(y), Axes{-1});
  };
  return b;
}

Bijection biject_to(Support support) {
  switch (support) {
    case Support::real:
    case Support::real_vector: {
      Bijection b = identity();
      b.codomain = support;
      b.event_rank = support == Support::real_vector ? 1 : 0;
      if (b.event_rank == 1)
        b.log_abs_det_jacobian = [](const Tensor& y) {
          return sum(zeros(y.shape(), y.dtype(), y.backend()), Axes{-1});
        };
      return b;
    }
    case Support::positive:
    case Support::nonnegative:
      return exp_bijection();
    case Support::unit_interval:
      return sigmoid_bijection();
    case Support::simplex:
      return stick_breaking();
    default:
      break;
  }
  detail::fail("biject_to: got support ", name(support),
               ", expected real, real_vector, positive, nonnegative, unit_interval or simplex (for an interval use "
               "dist::interval(low, high); discrete supports have no bijection to R)");
}

}  // namespace nxv::dist
