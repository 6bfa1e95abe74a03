// Gradient rules of the elementwise family: unary and binary functions, select, clip and cast.
//
// The rule for each function id sits in one switch over UnaryFn/BinaryFn with no `default:`, so -Wswitch
// names any function added to shared/elementwise.def without a rule here. (A gradient column in the .def
// itself would be the single place, but the .def is shared with GLSL and a rule needs C++ ops.)
// Integer-only and pred-valued functions have no rule: their outputs are not float, so backward.cpp never
// asks (their gradient is zero, as in Nx).
#include <cmath>
#include <numbers>

#include "grad/rules.hpp"

namespace nxv::rules {

namespace {

Tensor zero_like(const Tensor& t) { return scalar_like(0.0, t); }

// d op(x) / dx times g, for a unary function with input x and output y; undefined for zero.
Tensor unary_rule(UnaryFn fn, const Tensor& x, const Tensor& y, const Tensor& g) {
  switch (fn) {
    case UnaryFn::negate:
      return negate(g);
    case UnaryFn::abs:
      return g * sign(x);  // 0 at 0
    case UnaryFn::sign:
    case UnaryFn::floor:
    case UnaryFn::ceil:
    case UnaryFn::round:
      return {};  // piecewise constant
    case UnaryFn::square:
      return g * (2.0 * x);
    case UnaryFn::exp:
      return g * y;
    case UnaryFn::expm1:
      return g * (y + 1.0);
    case UnaryFn::log:
      return g / x;
    case UnaryFn::log1p:
      return g / (x + 1.0);
    case UnaryFn::sqrt:
      return g * 0.5 / y;
    case UnaryFn::rsqrt:
      return g * (-0.5) * y / x;  // d x^-1/2 = -1/2 x^-3/2
    case UnaryFn::sigmoid:
      return g * y * (1.0 - y);
    case UnaryFn::tanh:
      return g * (1.0 - square(y));
    case UnaryFn::sin:
      return g * cos(x);
    case UnaryFn::cos:
      return negate(g * sin(x));
    case UnaryFn::erf:
      return g * (2.0 / std::sqrt(std::numbers::pi)) * exp(negate(square(x)));
    case UnaryFn::reciprocal:
      return negate(g * square(y));
    case UnaryFn::softplus:
      return g * sigmoid(x);
    case UnaryFn::tan:
      return g * (square(y) + 1.0);
    case UnaryFn::sinh:
      return g * cosh(x);
    case UnaryFn::cosh:
      return g * sinh(x);
    case UnaryFn::asinh:
      return g * rsqrt(square(x) + 1.0);
    case UnaryFn::acosh:
      return g * rsqrt(square(x) - 1.0);
    case UnaryFn::atanh:
      return g / (1.0 - square(x));
    case UnaryFn::cbrt:
      return g / (3.0 * square(y));
    case UnaryFn::asin:
      return g * rsqrt(1.0 - square(x));
    case UnaryFn::acos:
      return negate(g * rsqrt(1.0 - square(x)));
    case UnaryFn::atan:
      return g / (1.0 + square(x));
    case UnaryFn::erfc:
      return negate(g * (2.0 / std::sqrt(std::numbers::pi)) * exp(negate(square(x))));
    case UnaryFn::log_sigmoid:
      return g * sigmoid(negate(x));  // 1 - sigmoid(x), without its cancellation for large x
    case UnaryFn::erf_inv:
      return g * (std::sqrt(std::numbers::pi) / 2.0) * exp(square(y));  // 1 / erf'(y)
    case UnaryFn::lgamma:
      return g * digamma(x);
    case UnaryFn::digamma:
      return g * trigamma(x);
    case UnaryFn::trigamma:
      // its derivative is polygamma(2, x), which the op set does not have yet
      detail::fail(
          "grad: no gradient for trigamma (it would need polygamma(2, x), not implemented); "
          "differentiate a function of trigamma's input that avoids it, or stop_gradient its output");
    case UnaryFn::bitwise_not:
    case UnaryFn::population_count:
    case UnaryFn::count_leading_zeros:
    case UnaryFn::is_nan:
    case UnaryFn::is_infinity:
    case UnaryFn::logical_not:
      return {};
  }
  return {};
}

// 1 where x is the result z and the other operand isn't, 1/2 on a tie, 0 elsewhere: max and min split the
// cotangent evenly between tied operands (JAX's _balanced_eq).
Tensor balanced_eq(const Tensor& x, const Tensor& z, const Tensor& other) {
  const Tensor one = scalar_like(1.0, z), half = scalar_like(0.5, z);
  return select(equal(x, z), select(equal(other, z), half, one), zero_like(z));
}

struct Pair {
  Tensor a, b;
};

// The cotangents of a binary function's operands, before un-broadcasting.
Pair binary_rule(BinaryFn fn, const Tensor& a, const Tensor& b, const Tensor& y, const Tensor& g) {
  switch (fn) {
    case BinaryFn::add:
      return {g, g};
    case BinaryFn::subtract:
      return {g, negate(g)};
    case BinaryFn::multiply:
      return {g * b, g * a};
    case BinaryFn::divide:
      return {g / b, negate(g * y / b)};
    case BinaryFn::pow: {
      // As JAX: d/da = 0 where b == 0 (so 0^0 has slope 0); d/db = y log a, with log 0 replaced by 0.
      const Tensor da = select(equal(b, 0.0), zero_like(y), b * pow(a, b - 1.0));
      const Tensor safe_a = select(equal(a, 0.0), scalar_like(1.0, a), a);
      return {g * da, g * log(safe_a) * y};
    }
    case BinaryFn::max:
    case BinaryFn::min:
      return {g * balanced_eq(a, y, b), g * balanced_eq(b, y, a)};
    case BinaryFn::remainder: {
      // a rem b = a - b trunc(a / b); trunc is piecewise constant.
      const Tensor q = a / b;
      return {g, negate(g * sign(q) * floor(abs(q)))};
    }
    case BinaryFn::atan2: {
      const Tensor denom = square(a) + square(b);
      return {g * b / denom, negate(g * a / denom)};
    }
    case BinaryFn::xlogy:  // as JAX: d/da = log b, unmasked at a == 0; d/db = a / b
      return {g * log(b), g * a / b};
    case BinaryFn::xlog1py:
      return {g * log1p(b), g * a / (b + 1.0)};
    case BinaryFn::quotient:
    case BinaryFn::bitwise_and:
    case BinaryFn::bitwise_or:
    case BinaryFn::bitwise_xor:
    case BinaryFn::left_shift:
    case BinaryFn::right_shift:
    case BinaryFn::equal:
    case BinaryFn::not_equal:
    case BinaryFn::less:
    case BinaryFn::less_equal:
    case BinaryFn::greater:
    case BinaryFn::greater_equal:
    case BinaryFn::logical_and:
    case BinaryFn::logical_or:
    case BinaryFn::logical_xor:
      return {};
  }
  return {};
}

Tensor unbroadcast_if(const Tensor& t, const Tensor& like) { return t.defined() ? unbroadcast(t, like.shape()) : t; }

}  // namespace

Tensor scalar_like(double value, const Tensor& t) { return scalar(value, t.dtype(), t.backend()); }

Tensor unbroadcast(const Tensor& g, const Shape& shape) {
  if (g.shape() == shape) return g;
  const int lead = g.rank() - shape.size();
  Axes axes;
  for (int i = 0; i < g.rank(); ++i)
    if (i < lead || (shape[i - lead] == 1 && g.shape()[i] != 1)) axes.push_back(i);
  return reshape(axes.empty() ? g : sum(g, axes, /*keep_axes=*/true), shape);
}

std::vector<Tensor> elementwise_vjp(const Vjp& v) {
  const std::span<const Tensor> x = v.x;
  switch (v.call.code) {
    case OpCode::unary:
      return {unary_rule(v.call.attrs_as<UnaryAttrs>().fn, x[0], v.y, v.g)};
    case OpCode::binary: {
      const Pair p = binary_rule(v.call.attrs_as<BinaryAttrs>().fn, x[0], x[1], v.y, v.g);
      return {v.needs[0] ? unbroadcast_if(p.a, x[0]) : Tensor(), v.needs[1] ? unbroadcast_if(p.b, x[1]) : Tensor()};
    }
    case OpCode::select: {
      const Tensor zero = zero_like(v.g);
      return {Tensor(), v.needs[1] ? unbroadcast(select(x[0], v.g, zero), x[1].shape()) : Tensor(),
              v.needs[2] ? unbroadcast(select(x[0], zero, v.g), x[2].shape()) : Tensor()};
    }
    case OpCode::clip: {
      // y = min(max(x, low), high): the cotangent goes to whichever operand y strictly came from; on a tie
      // (x == low or x == high) it goes to none, as JAX's clamp.
      const Tensor &in = x[0], &low = x[1], &high = x[2], zero = zero_like(v.g);
      auto route = [&](const Tensor& where, const Tensor& like) {
        return unbroadcast(select(where, v.g, zero), like.shape());
      };
      return {v.needs[0] ? route(logical_and(greater(in, low), less(in, high)), in) : Tensor(),
              v.needs[1] ? route(logical_and(greater(low, in), less(low, high)), low) : Tensor(),
              v.needs[2] ? route(less(high, max(in, low)), high) : Tensor()};
    }
    case OpCode::cast:
      return {is_float(x[0].dtype()) ? as_type(v.g, x[0].dtype()) : Tensor()};
    default:
      return std::vector<Tensor>(x.size());
  }
}

}  // namespace nxv::rules
