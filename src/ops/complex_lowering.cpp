// The ops of the op table on complex tensors, lowered to real ops (see complex_lowering.hpp). The ops that only move
// elements run once on the real views [..., 2]; the others that act on each part alone (gathering, scattering,
// adding elements) run once on the real parts and once on the imaginary parts; dot, casts, products and creation
// have rules of their own; the rest have no complex form.
#include "ops/complex_lowering.hpp"

#include <numeric>
#include <optional>

#include "ops/apply.hpp"

namespace nxv {

bool involves_complex(std::span<const Tensor> inputs, const TensorType& out) {
  if (is_complex(out.dtype)) return true;
  for (const Tensor& t : inputs)
    if (t.defined() && is_complex(t.dtype())) return true;
  return false;
}

namespace {

// The op applied to one part of every complex input (real inputs, such as indices or a predicate, as they are),
// giving that part of the result.
Tensor on_part(const OpCall& call, std::span<const Tensor> inputs, const TensorType& out, bool imaginary) {
  std::vector<Tensor> parts;
  for (const Tensor& t : inputs) parts.push_back(!is_complex(t.dtype()) ? t : imaginary ? imag(t) : real(t));
  return apply(call, parts, {out.shape, real_part_type(out.dtype)});
}

Tensor part_by_part(const OpCall& call, std::span<const Tensor> inputs, const TensorType& out) {
  return complex(on_part(call, inputs, out, false), on_part(call, inputs, out, true));
}

// The ops that only move elements, on the real views of their (complex) inputs with a last axis of 2 added to their
// attributes: no copy of the parts, one op instead of two and a join. nullopt where the call needs the per-part form.
std::optional<Tensor> on_views(const OpCall& call, std::span<const Tensor> inputs, const TensorType& out) {
  for (const Tensor& t : inputs)
    if (!is_complex(t.dtype())) return std::nullopt;
  OpCall real_call = call;
  const int rank = out.shape.size();
  switch (call.code) {
    case OpCode::reshape:
    case OpCode::reverse:
    case OpCode::concatenate:
      break;
    case OpCode::transpose: {
      TransposeAttrs a = call.attrs_as<TransposeAttrs>();
      a.permutation.push_back(rank);
      real_call.attrs = a;
      break;
    }
    case OpCode::broadcast: {
      BroadcastAttrs a = call.attrs_as<BroadcastAttrs>();
      a.axes.push_back(rank);
      real_call.attrs = a;
      break;
    }
    case OpCode::slice: {
      SliceAttrs a = call.attrs_as<SliceAttrs>();
      a.starts.push_back(0);
      if (!a.strides.empty()) a.strides.push_back(1);
      real_call.attrs = a;
      break;
    }
    case OpCode::pad: {  // a zero pads both parts alike
      PadAttrs a = call.attrs_as<PadAttrs>();
      if (a.value != 0.0) return std::nullopt;
      a.low.push_back(0);
      a.high.push_back(0);
      a.interior.push_back(0);
      real_call.attrs = a;
      break;
    }
    default:
      return std::nullopt;
  }
  std::vector<Tensor> views;
  for (const Tensor& t : inputs) views.push_back(real_view(t));
  Shape shape = out.shape;
  shape.push_back(2);
  return complex_view(apply(real_call, views, {shape, real_part_type(out.dtype)}));
}

[[noreturn]] void no_complex_form(const OpCall& call, std::span<const Tensor> inputs, const TensorType& out) {
  detail::fail(describe(call), ": got ", inputs.empty() ? to_string(out) : shapes_of(inputs),
               ", expected real tensors (", op_name(call.code), " has no complex form)");
}

// as_type: complex to complex converts both parts; real to complex gives a zero imaginary part; complex to real
// keeps the real part (Nx's rule), except to pred, which asks whether either part is nonzero.
Tensor cast(const Tensor& x, DType to) {
  if (!is_complex(to)) {
    if (to == DType::pred) return logical_or(not_equal(real(x), 0.0), not_equal(imag(x), 0.0));
    return as_type(real(x), to);
  }
  const DType part = real_part_type(to);
  if (is_complex(x.dtype())) return complex(as_type(real(x), part), as_type(imag(x), part));
  const Tensor re = as_type(x, part);
  return complex(re, zeros({}, part, re.backend()));
}

// (ar + i ai)(br + i bi) summed: four real dots with the call's axes.
Tensor dot(const OpCall& call, std::span<const Tensor> in, const TensorType& out) {
  const TensorType part{out.shape, real_part_type(out.dtype)};
  auto d = [&](const Tensor& a, const Tensor& b) { return apply(call, {a, b}, part); };
  const Tensor ar = real(in[0]), ai = imag(in[0]), br = real(in[1]), bi = imag(in[1]);
  return complex(d(ar, br) - d(ai, bi), d(ar, bi) + d(ai, br));
}

// The product of complex elements over some axes: the reduced axes moved last and flattened, then halves
// multiplied pairwise (a one appended to an odd count) until one element is left.
Tensor product(const Tensor& z, const ReduceAttrs& attrs, const TensorType& out) {
  Axes perm;
  Shape kept;
  std::int64_t n = 1;
  for (int i = 0; i < z.rank(); ++i)
    if (!attrs.axes.contains(i)) perm.push_back(i), kept.push_back(z.shape()[i]);
  for (std::int64_t a : attrs.axes) perm.push_back(a), n *= z.shape()[a];
  Shape flat = kept;
  flat.push_back(n);
  Tensor t = reshape(transpose(z, perm), flat);
  if (n == 0) return full(out.shape, 1.0, z.dtype(), z.backend());
  Shape starts = Shape::filled(kept.size() + 1, 0), lengths = flat;
  while (n > 1) {
    if (n % 2) {
      lengths.back() = 1;
      t = concatenate({t, full(lengths, 1.0, z.dtype(), z.backend())}, kept.size());
      ++n;
    }
    lengths.back() = n / 2;
    starts.back() = n / 2;
    const Tensor second = slice(t, starts, lengths);
    starts.back() = 0;
    t = slice(t, starts, lengths) * second;
    n /= 2;
  }
  return reshape(t, out.shape);
}

}  // namespace

Tensor lower_complex(const OpCall& call, std::span<const Tensor> in, const TensorType& out) {
  if (std::optional<Tensor> moved = on_views(call, in, out)) return *moved;
  switch (call.code) {  // the movement ops other than a pad by a nonzero value ran on the views above
    case OpCode::select:
    case OpCode::take:
    case OpCode::take_along_axis:
    case OpCode::gather:
    case OpCode::indexed_add:
    case OpCode::indexed_put:
    case OpCode::put_slice:
      return part_by_part(call, in, out);
    case OpCode::pad: {  // the padding value is real: the imaginary parts pad with zero
      PadAttrs zero = call.attrs_as<PadAttrs>();
      zero.value = 0.0;
      return complex(on_part(call, in, out, false), on_part(OpCall{OpCode::pad, zero}, in, out, true));
    }
    case OpCode::reduce: {
      const ReduceAttrs& attrs = call.attrs_as<ReduceAttrs>();
      if (attrs.fn == ReduceFn::sum) return part_by_part(call, in, out);
      if (attrs.fn == ReduceFn::product) return product(in[0], attrs, out);
      break;
    }
    case OpCode::cumulative:
      if (call.attrs_as<CumulativeAttrs>().fn == ReduceFn::sum) return part_by_part(call, in, out);
      break;
    case OpCode::window_reduce:
      if (call.attrs_as<WindowAttrs>().fn == ReduceFn::sum) return part_by_part(call, in, out);
      break;
    case OpCode::cast:
      return cast(in[0], out.dtype);
    case OpCode::dot:
      return dot(call, in, out);
    case OpCode::unary:
    case OpCode::unary_test:
      return complex_unary(call.attrs_as<UnaryAttrs>().fn, in[0]);
    case OpCode::binary:
    case OpCode::binary_test:
      return complex_binary(call.attrs_as<BinaryAttrs>().fn, in[0], in[1]);
    default:
      break;
  }
  no_complex_form(call, in, out);
}

Tensor lower_complex_creation(Backend& backend, const OpCall& call, const TensorType& out) {
  const DType part = real_part_type(out.dtype);
  switch (call.code) {
    case OpCode::full:
    case OpCode::iota:
    case OpCode::eye:
      return complex(apply_on(backend, call, {out.shape, part}), zeros({}, part, backend));
    default:
      no_complex_form(call, {}, out);
  }
}

}  // namespace nxv
