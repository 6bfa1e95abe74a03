// Complex numbers: the parts of a complex tensor and the elementwise ops on complex operands, each written as ops on
// the real and imaginary parts (src/ops/complex_lowering.hpp says why). Formulas are the careful ones of C99's
// Annex G where it matters for edge values: |z| without overflow in the squares, Smith's division, Kahan's square
// root. An op without a complex form is refused naming it.
#include <limits>

#include "ops/apply.hpp"
#include "ops/complex_lowering.hpp"

namespace nxv {

Tensor real_view(const Tensor& z) {
  check_defined(z, "real_view");
  NXV_CHECK(is_complex(z.dtype()), "real_view", "got ", to_string(z.type()), ", expected a c64 or c128 tensor");
  Shape shape = z.shape();
  shape.push_back(2);
  return apply(OpCall{OpCode::real_view, {}}, {z}, {shape, real_part_type(z.dtype())});
}

Tensor complex_view(const Tensor& pairs) {
  check_defined(pairs, "complex_view");
  const DType part = pairs.dtype();
  NXV_CHECK((part == DType::f32 || part == DType::f64) && pairs.rank() >= 1 && pairs.shape().back() == 2,
            "complex_view", "got ", to_string(pairs.type()), ", expected an f32 or f64 tensor whose last axis is 2");
  const Shape shape(std::span<const std::int64_t>(pairs.shape().begin(), pairs.shape().end() - 1));
  return apply(OpCall{OpCode::complex_view, {}}, {pairs}, {shape, complex_type(part)});
}

namespace {
// Part `k` (0 real, 1 imaginary) of a complex tensor, as a tensor of its shape.
Tensor part(const Tensor& z, std::int64_t k) {
  const Tensor pairs = real_view(z);
  Shape starts = Shape::filled(z.rank(), 0), lengths = z.shape();
  starts.push_back(k);
  lengths.push_back(1);
  return reshape(slice(pairs, starts, lengths), z.shape());
}

// A rank-0 constant of x's dtype (complex too) on x's backend, to broadcast against x.
Tensor constant_like(const Tensor& x, double value) { return full({}, value, x.dtype(), x.backend()); }
}  // namespace

Tensor real(const Tensor& z) {
  check_defined(z, "real");
  return is_complex(z.dtype()) ? part(z, 0) : z;
}

Tensor imag(const Tensor& z) {
  check_defined(z, "imag");
  return is_complex(z.dtype()) ? part(z, 1) : zeros(z.shape(), z.dtype(), z.backend());
}

Tensor complex(const Tensor& re, const Tensor& im) {
  check_defined(re, "complex");
  check_defined(im, "complex");
  const Tensor both[] = {re, im};
  NXV_CHECK(!is_complex(re.dtype()) && !is_complex(im.dtype()), "complex", "got ", shapes_of(both),
            ", expected real tensors (the parts)");
  const DType part_type = real_part_type(complex_type(promote(re.dtype(), im.dtype())));
  const Shape shape = broadcast_shapes(re.shape(), im.shape(), "complex");
  auto prepared = [&](const Tensor& t) {
    const Tensor converted = t.dtype() == part_type ? t : as_type(t, part_type);
    return t.shape() == shape ? converted : broadcast(converted, shape);
  };
  return complex_view(stack({prepared(re), prepared(im)}, -1));
}

Tensor conjugate(const Tensor& z) {
  check_defined(z, "conjugate");
  return is_complex(z.dtype()) ? complex(real(z), negate(imag(z))) : z;
}

Tensor phase(const Tensor& z) {
  check_defined(z, "phase");
  if (is_complex(z.dtype())) return atan2(imag(z), real(z));
  const Tensor x = as_type(z, float_type(z.dtype()));
  return atan2(zeros({}, x.dtype(), x.backend()), x);
}

namespace {

// |z|: the larger part times sqrt(1 + (smaller / larger)^2), so that the squares cannot overflow or underflow; 0 at
// 0, and +inf where a part is infinite even beside a NaN (as C's hypot).
Tensor magnitude(const Tensor& z) {
  const Tensor x = abs(real(z)), y = abs(imag(z));
  const Tensor big = max(x, y), small = min(x, y);
  const Tensor ratio = small / big;
  const Tensor scaled = select(equal(big, 0.0), big, big * sqrt(1.0 + ratio * ratio));
  return select(logical_or(is_infinity(x), is_infinity(y)), constant_like(x, std::numeric_limits<double>::infinity()),
                scaled);
}

Tensor multiply_parts(const Tensor& a, const Tensor& b) {
  const Tensor ar = real(a), ai = imag(a), br = real(b), bi = imag(b);
  return complex(ar * br - ai * bi, ar * bi + ai * br);
}

// Smith's algorithm: divide by the larger part of b first, so that no square of b's parts is formed. Dividing by
// zero divides each part by that zero (infinities, or NaN for 0 / 0).
Tensor divide_parts(const Tensor& a, const Tensor& b) {
  const Tensor ar = real(a), ai = imag(a), br = real(b), bi = imag(b);
  const Tensor by_real = greater_equal(abs(br), abs(bi));
  const Tensor r1 = bi / br, d1 = br + bi * r1;
  const Tensor r2 = br / bi, d2 = bi + br * r2;
  Tensor re = select(by_real, (ar + ai * r1) / d1, (ar * r2 + ai) / d2);
  Tensor im = select(by_real, (ai - ar * r1) / d1, (ai * r2 - ar) / d2);
  const Tensor by_zero = logical_and(equal(br, 0.0), equal(bi, 0.0));
  re = select(by_zero, ar / br, re);
  im = select(by_zero, ai / br, im);
  return complex(re, im);
}

Tensor exp_parts(const Tensor& z) {
  const Tensor x = real(z), y = imag(z), e = exp(x);
  // A zero imaginary part stays exactly zero (inf * sin(0) would be NaN).
  return complex(e * cos(y), select(equal(y, 0.0), y, e * sin(y)));
}

Tensor log_parts(const Tensor& z) { return complex(log(magnitude(z)), atan2(imag(z), real(z))); }

// The principal square root (Kahan): t = sqrt((|z| + |x|) / 2); for x >= 0 it is t + i y / 2t, else |y| / 2t ± i t
// with y's sign. Halving before adding keeps |z| + |x| from overflowing.
Tensor sqrt_parts(const Tensor& z) {
  const Tensor x = real(z), y = imag(z);
  const Tensor t = sqrt(magnitude(z) * 0.5 + abs(x) * 0.5);
  const Tensor twice = t * 2.0;
  const Tensor right = greater_equal(x, 0.0), zero = equal(t, 0.0);
  const Tensor re = select(right, t, abs(y) / twice);
  const Tensor im = select(right, y / twice, select(less(y, 0.0), negate(t), t));
  return complex(select(zero, t, re), select(zero, y, im));
}

[[noreturn]] void no_complex_form(const char* op, std::span<const Tensor> inputs) {
  detail::fail(op, ": got ", shapes_of(inputs), ", expected real tensors (", op, " has no complex form)");
}

}  // namespace

Tensor complex_unary(UnaryFn fn, const Tensor& z) {
  const Tensor x = real(z), y = imag(z);
  switch (fn) {
    case UnaryFn::negate:
      return complex(negate(x), negate(y));
    case UnaryFn::abs:
      return magnitude(z);
    case UnaryFn::sign: {  // z / |z|, and 0 at 0
      const Tensor m = magnitude(z);
      const Tensor zero = equal(m, 0.0);
      const Tensor safe = select(zero, constant_like(m, 1.0), m);
      return complex(select(zero, x, x / safe), select(zero, y, y / safe));
    }
    case UnaryFn::square:
      return multiply_parts(z, z);
    case UnaryFn::exp:
      return exp_parts(z);
    case UnaryFn::log:
      return log_parts(z);
    case UnaryFn::sqrt:
      return sqrt_parts(z);
    case UnaryFn::rsqrt:
      return divide_parts(constant_like(z, 1.0), sqrt_parts(z));
    case UnaryFn::reciprocal:
      return divide_parts(constant_like(z, 1.0), z);
    case UnaryFn::sin:  // sin x cosh y + i cos x sinh y
      return complex(sin(x) * cosh(y), cos(x) * sinh(y));
    case UnaryFn::cos:  // cos x cosh y - i sin x sinh y
      return complex(cos(x) * cosh(y), negate(sin(x) * sinh(y)));
    case UnaryFn::is_nan:
      return logical_or(is_nan(x), is_nan(y));
    case UnaryFn::is_infinity:
      return logical_or(is_infinity(x), is_infinity(y));
    case UnaryFn::logical_not:
      return logical_and(equal(x, 0.0), equal(y, 0.0));
    default:
      no_complex_form(fn_name(fn), {&z, 1});
  }
}

Tensor complex_binary(BinaryFn fn, const Tensor& a, const Tensor& b) {
  switch (fn) {
    case BinaryFn::add:
      return complex(real(a) + real(b), imag(a) + imag(b));
    case BinaryFn::subtract:
      return complex(real(a) - real(b), imag(a) - imag(b));
    case BinaryFn::multiply:
      return multiply_parts(a, b);
    case BinaryFn::divide:
      return divide_parts(a, b);
    case BinaryFn::pow: {  // exp(b log a); 0^b is 1 for b = 0 and 0 for Re b > 0 (log 0 would give NaN there)
      const Tensor general = exp_parts(multiply_parts(b, log_parts(a)));
      const Tensor base_zero = logical_and(equal(real(a), 0.0), equal(imag(a), 0.0));
      const Tensor exponent_zero = logical_and(equal(real(b), 0.0), equal(imag(b), 0.0));
      const Tensor one = constant_like(general, 1.0), zero = constant_like(general, 0.0);
      return select(base_zero, select(exponent_zero, one, select(greater(real(b), 0.0), zero, general)), general);
    }
    case BinaryFn::equal:
      return logical_and(equal(real(a), real(b)), equal(imag(a), imag(b)));
    case BinaryFn::not_equal:
      return logical_or(not_equal(real(a), real(b)), not_equal(imag(a), imag(b)));
    case BinaryFn::logical_and:
    case BinaryFn::logical_or:
    case BinaryFn::logical_xor: {  // on the truth of each operand (nonzero)
      const Tensor ta = logical_not(complex_unary(UnaryFn::logical_not, a));
      const Tensor tb = logical_not(complex_unary(UnaryFn::logical_not, b));
      return fn == BinaryFn::logical_and  ? logical_and(ta, tb)
             : fn == BinaryFn::logical_or ? logical_or(ta, tb)
                                          : logical_xor(ta, tb);
    }
    default: {
      const Tensor both[] = {a, b};
      no_complex_form(fn_name(fn), both);
    }
  }
}

}  // namespace nxv
