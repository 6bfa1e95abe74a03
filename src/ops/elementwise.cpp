// Front end of the elementwise ops: dtype rules (from the op's class in elementwise.def), weak scalars,
// broadcasting of shapes; backends receive inputs of one dtype whose shapes broadcast to the result.
#include <cmath>

#include "ops/apply.hpp"
#include "ops/complex_lowering.hpp"
#include "ops/elementwise_class.hpp"

namespace nxv {

namespace {

// The dtype an op of class `cls` computes in, given the promoted input dtype.
DType compute_dtype(ElementwiseClass cls, DType t, const char* op, std::span<const Tensor> inputs) {
  switch (cls) {
    case ElementwiseClass::NUM:
      return t == DType::pred ? DType::u8 : t;
    case ElementwiseClass::FLOAT:
      return float_type(t);
    case ElementwiseClass::INT:
      NXV_CHECK(!is_float(t), op, "expected integer tensors, got ", shapes_of(inputs));
      return t == DType::pred ? DType::u8 : t;
    case ElementwiseClass::TEST:
      return t;
  }
  return t;
}

// A weak (scalar-literal) operand adopts the other operand's dtype, except that a weak float meeting an
// integer (or pred) tensor gives f32 and a weak integer meeting pred gives s32 (as JAX).
DType weak_promote(DType strong, bool weak_is_float) {
  if (weak_is_float && !is_float(strong) && !is_complex(strong)) return DType::f32;
  if (!weak_is_float && strong == DType::pred) return DType::s32;
  return strong;
}

DType promote_operands(const Tensor& a, const Tensor& b) {
  if (a.weak() == b.weak()) return promote(a.dtype(), b.dtype());
  const Tensor& weak = a.weak() ? a : b;
  const Tensor& strong = a.weak() ? b : a;
  return weak_promote(strong.dtype(), is_float(weak.dtype()));
}

Tensor convert(const Tensor& t, DType dtype) { return t.dtype() == dtype ? t : as_type(t, dtype); }

Tensor unary_op(UnaryFn fn, const Tensor& x) {
  check_defined(x, fn_name(fn));
  if (is_complex(x.dtype())) return complex_unary(fn, x);
  const ElementwiseClass cls = class_of(fn);
  const DType dtype = compute_dtype(cls, x.dtype(), fn_name(fn), {&x, 1});
  const Tensor in = convert(x, dtype);
  const OpCall call{cls == ElementwiseClass::TEST ? OpCode::unary_test : OpCode::unary, UnaryAttrs{fn}};
  return apply(call, {in}, {x.shape(), cls == ElementwiseClass::TEST ? DType::pred : dtype});
}

Tensor binary_op(BinaryFn fn, const Tensor& a, const Tensor& b) {
  check_defined(a, fn_name(fn));
  check_defined(b, fn_name(fn));
  const ElementwiseClass cls = class_of(fn);
  const Tensor both[] = {a, b};
  const DType promoted = promote_operands(a, b);
  if (is_complex(promoted)) return complex_binary(fn, convert(a, promoted), convert(b, promoted));
  const DType dtype = compute_dtype(cls, promoted, fn_name(fn), both);
  const Shape shape = broadcast_shapes(a.shape(), b.shape(), fn_name(fn));
  const OpCall call{cls == ElementwiseClass::TEST ? OpCode::binary_test : OpCode::binary, BinaryAttrs{fn}};
  return apply(call, {convert(a, dtype), convert(b, dtype)},
               {shape, cls == ElementwiseClass::TEST ? DType::pred : dtype});
}

// The scalar as a weak rank-0 tensor already in the dtype it will be promoted to, so that no cast is
// needed and an f64 tensor meets the literal's full double value.
Tensor scalar_like(Scalar s, const Tensor& other) {
  check_defined(other, "scalar operand");
  const Tensor t = scalar(s.value, weak_promote(other.dtype(), s.is_float), other.backend());
  return Tensor(t.type(), t.backend(), t.storage(), /*weak=*/true);
}

}  // namespace

Tensor weak_scalar(Scalar value, Backend& backend) {
  const Tensor t = scalar(value.value, value.is_float ? DType::f64 : DType::s64, backend);
  return Tensor(t.type(), t.backend(), t.storage(), /*weak=*/true);
}

Tensor as_type(const Tensor& x, DType dtype) {
  check_defined(x, "as_type");
  if (x.dtype() == dtype) return x;
  OpCall call{OpCode::cast, {}};
  return apply(call, {x}, {x.shape(), dtype});
}

#define NXV_DEFINE_BINARY(fn)                                                                    \
  Tensor fn(const Tensor& a, const Tensor& b) { return binary_op(BinaryFn::fn, a, b); }          \
  Tensor fn(const Tensor& a, Scalar b) { return binary_op(BinaryFn::fn, a, scalar_like(b, a)); } \
  Tensor fn(Scalar a, const Tensor& b) { return binary_op(BinaryFn::fn, scalar_like(a, b), b); }
#define NXV_UNARY(id, name, cls, expression)
#define NXV_BINARY(id, name, cls, expression) NXV_DEFINE_BINARY(name)
#include "shared/elementwise.def"
#undef NXV_DEFINE_BINARY

#define NXV_DEFINE_UNARY(fn) \
  Tensor fn(const Tensor& x) { return unary_op(UnaryFn::fn, x); }
#define NXV_UNARY(id, name, cls, expression) NXV_DEFINE_UNARY(name)
#define NXV_BINARY(id, name, cls, expression)
#include "shared/elementwise.def"
#undef NXV_DEFINE_UNARY

Tensor select(const Tensor& pred, const Tensor& on_true, const Tensor& on_false) {
  for (const Tensor* t : {&pred, &on_true, &on_false}) check_defined(*t, "select");
  const DType dtype = promote_operands(on_true, on_false);
  const Shape shape =
      broadcast_shapes(broadcast_shapes(pred.shape(), on_true.shape(), "select"), on_false.shape(), "select");
  OpCall call{OpCode::select, {}};
  return apply(call, {convert(pred, DType::pred), convert(on_true, dtype), convert(on_false, dtype)}, {shape, dtype});
}

Tensor clip(const Tensor& x, const Tensor& low, const Tensor& high) {
  for (const Tensor* t : {&x, &low, &high}) check_defined(*t, "clip");
  DType dtype = promote_operands(x, low);
  dtype = promote(dtype, high.weak() ? dtype : high.dtype());
  NXV_CHECK(dtype != DType::pred, "clip", "expected numeric tensors, got ", shapes_of(std::vector{x, low, high}));
  const Shape shape = broadcast_shapes(broadcast_shapes(x.shape(), low.shape(), "clip"), high.shape(), "clip");
  OpCall call{OpCode::clip, {}};
  return apply(call, {convert(x, dtype), convert(low, dtype), convert(high, dtype)}, {shape, dtype});
}

Tensor clip(const Tensor& x, Scalar low, Scalar high) { return clip(x, scalar_like(low, x), scalar_like(high, x)); }

Tensor operator+(const Tensor& a, const Tensor& b) { return add(a, b); }
Tensor operator-(const Tensor& a, const Tensor& b) { return subtract(a, b); }
Tensor operator*(const Tensor& a, const Tensor& b) { return multiply(a, b); }
Tensor operator/(const Tensor& a, const Tensor& b) { return divide(a, b); }
Tensor operator+(const Tensor& a, Scalar b) { return add(a, b); }
Tensor operator-(const Tensor& a, Scalar b) { return subtract(a, b); }
Tensor operator*(const Tensor& a, Scalar b) { return multiply(a, b); }
Tensor operator/(const Tensor& a, Scalar b) { return divide(a, b); }
Tensor operator+(Scalar a, const Tensor& b) { return add(a, b); }
Tensor operator-(Scalar a, const Tensor& b) { return subtract(a, b); }
Tensor operator*(Scalar a, const Tensor& b) { return multiply(a, b); }
Tensor operator/(Scalar a, const Tensor& b) { return divide(a, b); }
Tensor operator-(const Tensor& x) { return negate(x); }

}  // namespace nxv
