// Elementwise and movement ops of the per-instance kernels as expressions of an element index, and literals
// (instance_generator.hpp).
#include <cmath>

#include "nxv/shape.hpp"
#include "vulkan/fusion/codegen.hpp"
#include "vulkan/fusion/glsl_types.hpp"
#include "vulkan/fusion/instance_generator.hpp"

namespace nxv::vulkan::fusion::instance {

std::vector<std::string> InstanceGenerator::coords(const Shape& shape, const std::string& e) {
  const Shape strides = contiguous_strides(shape);
  std::vector<std::string> c(static_cast<std::size_t>(shape.size()));
  for (int d = 0; d < shape.size(); ++d) {
    if (shape[d] == 1) {
      c[d] = "0u";
      continue;
    }
    std::string q = strides[d] == 1 ? e : "(" + e + " / " + u(strides[d]) + ")";
    c[d] = d == 0 ? q : "(" + q + " % " + u(shape[d]) + ")";
  }
  return c;
}

std::string InstanceGenerator::flat(const Shape& shape, const std::vector<std::string>& c) {
  const Shape strides = contiguous_strides(shape);
  std::string s;
  for (int d = 0; d < shape.size(); ++d) {
    if (shape[d] == 1) continue;
    s += (s.empty() ? "" : " + ") + (strides[d] == 1 ? c[d] : c[d] + " * " + u(strides[d]));
  }
  return s.empty() ? "0u" : "(" + s + ")";
}

std::string InstanceGenerator::broadcast_index(const Shape& out, const Shape& in, const std::string& e) {
  if (in == out) return e;
  if (num_elements(in) == 1) return "0u";
  const std::vector<std::string> oc = coords(out, e);
  std::vector<std::string> ic(static_cast<std::size_t>(in.size()));
  const int lead = out.size() - in.size();
  for (int d = 0; d < in.size(); ++d) ic[d] = in[d] == 1 ? "0u" : oc[d + lead];
  return flat(in, ic);
}

std::string InstanceGenerator::arg(const Graph& g, const Node& n, std::size_t i, const std::string& e) const {
  const Node& a = g.nodes[n.inputs[i]];
  return read(values_.at(&a), broadcast_index(n.type.shape, a.type.shape, e));
}

std::string InstanceGenerator::element(const Graph& g, const Node& n, const std::string& e) {
  const Shape& shape = n.type.shape;
  const DType t = n.type.dtype;
  const auto in_shape = [&](std::size_t i) -> const Shape& { return g.nodes[n.inputs[i]].type.shape; };
  const auto at = [&](std::size_t i, const std::string& index) { return read(input(g, n, i), index); };
  switch (n.call.code) {
    case OpCode::unary:
    case OpCode::unary_test:
    case OpCode::cast:
    case OpCode::binary:
    case OpCode::binary_test:
    case OpCode::clip: {
      std::string call = elementwise_helper(n, g.nodes[n.inputs[0]].type.dtype, helpers_) + "(";
      for (std::size_t i = 0; i < n.inputs.size(); ++i) call += (i ? ", " : "") + arg(g, n, i, e);
      return truncated(t, call + ")");
    }
    case OpCode::select:
      return "(" + arg(g, n, 0, e) + " != 0u ? " + arg(g, n, 1, e) + " : " + arg(g, n, 2, e) + ")";
    case OpCode::broadcast: {
      const Axes& axes = n.call.attrs_as<BroadcastAttrs>().axes;
      const std::vector<std::string> oc = coords(shape, e);
      const Shape& in = in_shape(0);
      std::vector<std::string> ic(static_cast<std::size_t>(in.size()));
      for (int d = 0; d < in.size(); ++d) ic[d] = in[d] == 1 ? "0u" : oc[axes[d]];
      return at(0, flat(in, ic));
    }
    case OpCode::transpose: {
      const Axes& perm = n.call.attrs_as<TransposeAttrs>().permutation;
      const std::vector<std::string> oc = coords(shape, e);
      const Shape& in = in_shape(0);
      std::vector<std::string> ic(static_cast<std::size_t>(in.size()));
      for (int d = 0; d < shape.size(); ++d) ic[perm[d]] = oc[d];
      return at(0, flat(in, ic));
    }
    case OpCode::slice: {
      const SliceAttrs& a = n.call.attrs_as<SliceAttrs>();
      std::vector<std::string> c = coords(shape, e);
      for (int d = 0; d < shape.size(); ++d) {
        const std::int64_t step = a.strides.empty() ? 1 : a.strides[d];
        if (step != 1) c[d] = "(" + c[d] + " * " + u(step) + ")";
        if (a.starts[d] != 0) c[d] = "(" + c[d] + " + " + u(a.starts[d]) + ")";
      }
      return at(0, flat(in_shape(0), c));
    }
    case OpCode::reverse: {
      std::vector<std::string> c = coords(shape, e);
      for (const std::int64_t d : n.call.attrs_as<ReverseAttrs>().axes)
        c[d] = "(" + u(shape[static_cast<int>(d)] - 1) + " - " + c[d] + ")";
      return at(0, flat(in_shape(0), c));
    }
    case OpCode::pad: {
      // Output coordinate o comes from input coordinate (o - low) / (interior + 1) where that divides and lies in
      // range; the rest is the padding value. Signed arithmetic: low may cut elements off.
      const PadAttrs& a = n.call.attrs_as<PadAttrs>();
      const Shape& in = in_shape(0);
      const std::vector<std::string> oc = coords(shape, e);
      std::vector<std::string> ic(static_cast<std::size_t>(in.size()));
      std::string inside;
      for (int d = 0; d < in.size(); ++d) {
        const std::string shifted = "(int(" + oc[d] + ") - " + std::to_string(a.low[d]) + ")";
        const std::int64_t step = (a.interior.empty() ? 0 : a.interior[d]) + 1;
        std::string cond = shifted + " >= 0 && " + shifted + " < " + std::to_string((in[d] - 1) * step + 1);
        if (step != 1) cond += " && " + shifted + " % " + std::to_string(step) + " == 0";
        inside += (inside.empty() ? "" : " && ") + cond;
        ic[d] = step == 1 ? "uint" + shifted : "uint(" + shifted + " / " + std::to_string(step) + ")";
      }
      if (inside.empty()) inside = "true";
      return "(" + inside + " ? " + at(0, flat(in, ic)) + " : " + literal_of_double(t, a.value) + ")";
    }
    case OpCode::concatenate: {
      const int axis = static_cast<int>(n.call.attrs_as<AxisAttrs>().axis);
      const std::vector<std::string> oc = coords(shape, e);
      std::string expr;
      std::int64_t start = 0;
      for (std::size_t i = 0; i < n.inputs.size(); ++i) {
        const Shape& in = in_shape(i);
        std::vector<std::string> ic = oc;
        ic[axis] = start == 0 ? oc[axis] : "(" + oc[axis] + " - " + u(start) + ")";
        const std::string value = at(i, flat(in, ic));
        start += in[axis];
        expr = i == 0 ? value : "(" + oc[axis] + " < " + u(start - in[axis]) + " ? " + expr + " : " + value + ")";
      }
      return expr;
    }
    case OpCode::iota: {
      const int axis = static_cast<int>(n.call.attrs_as<AxisAttrs>().axis);
      const std::string coord = coords(shape, e)[axis];
      if (t == DType::pred) return "nxv_nonzero(" + coord + ")";
      return truncated(t, std::string(compute_type(t)) + "(" + coord + ")");
    }
    case OpCode::full:
      return literal_of_double(t, n.call.attrs_as<FullAttrs>().value);
    case OpCode::take: {
      // x.shape[:axis] + indices.shape + x.shape[axis + 1:]; an index is clamped into range (the reference's).
      const int axis = static_cast<int>(n.call.attrs_as<AxisAttrs>().axis);
      const Shape& xs = in_shape(0);
      const Shape& is = in_shape(1);
      const std::vector<std::string> oc = coords(shape, e);
      const std::vector<std::string> index_coords(oc.begin() + axis, oc.begin() + axis + is.size());
      const std::string index = at(1, flat(is, index_coords));
      std::vector<std::string> ic(static_cast<std::size_t>(xs.size()));
      for (int d = 0; d < xs.size(); ++d)
        ic[d] = d < axis   ? oc[d]
                : d > axis ? oc[d + is.size() - 1]
                           : "uint(clamp(int64_t(" + index + "), 0l, " + std::to_string(xs[axis] - 1) + "l))";
      return at(0, flat(xs, ic));
    }
    case OpCode::eye: {
      const std::vector<std::string> c = coords(shape, e);
      const int r = shape.size();
      return "(" + c[r - 2] + " == " + c[r - 1] + " ? " + literal_of_double(t, 1) + " : " + literal_of_double(t, 0) +
             ")";
    }
    default:
      throw Unsupported{"op " + format_call(n.call)};
  }
}

std::string InstanceGenerator::literal_of_double(DType t, double v) {
  if (t == DType::pred) return v != 0 ? "1u" : "0u";
  if (t == DType::f64) return float_constant(t, &v);
  if (t == DType::f32) {
    const float f = static_cast<float>(v);
    return float_constant(t, &f);
  }
  if (v != static_cast<double>(static_cast<std::int64_t>(v))) throw Unsupported{"a fractional integer constant"};
  const std::int64_t i = static_cast<std::int64_t>(v);
  if (info(t).kind == DTypeKind::unsigned_int && i < 0) throw Unsupported{"a negative unsigned constant"};
  return std::string(compute_type(t)) + "(" + std::to_string(i) + (size_of(t) == 8 ? "l" : "") + ")";
}

std::string InstanceGenerator::literal_bits(DType t, const void* p) {
  std::ostringstream s;
  s << std::hex;
  switch (t) {
    case DType::f32:
      s << "uintBitsToFloat(0x" << word<std::uint32_t>(p) << "u)";
      break;
    case DType::f64: {
      const auto w = word<std::uint64_t>(p);
      s << "packDouble2x32(uvec2(0x" << (w & 0xffffffffu) << "u, 0x" << (w >> 32) << "u))";
      break;
    }
    case DType::s64:
    case DType::u64:
      s << compute_type(t) << "(0x" << word<std::uint64_t>(p) << "ul)";
      break;
    case DType::s32:
    case DType::u32:
      s << compute_type(t) << "(0x" << word<std::uint32_t>(p) << "u)";
      break;
    case DType::pred:
    case DType::u8: {
      const auto w = word<std::uint8_t>(p);
      s << "uint(0x" << static_cast<unsigned>(t == DType::pred ? (w != 0) : w) << "u)";
      break;
    }
    case DType::u16:
      s << "uint(0x" << word<std::uint16_t>(p) << "u)";
      break;
    case DType::s8:
      s << std::dec << "int(" << static_cast<int>(word<std::int8_t>(p)) << ")";
      break;
    case DType::s16:
      s << std::dec << "int(" << word<std::int16_t>(p) << ")";
      break;
    default:
      throw Unsupported{"a constant of dtype " + std::string(name(t))};
  }
  return s.str();
}

std::size_t InstanceGenerator::constants_block(DType t) {
  std::size_t b = 0;
  while (b < k_.constants.size() && k_.constants[b].dtype != t) ++b;
  if (b == k_.constants.size()) k_.constants.push_back({t, {}});
  return b;
}

std::string InstanceGenerator::float_constant(DType t, const void* p) {
  if (float_literals_) return literal_bits(t, p);
  const std::size_t b = constants_block(t);
  std::vector<std::byte>& bytes = k_.constants[b].bytes;
  const std::size_t at = bytes.size() / size_of(t);
  const auto* first = static_cast<const std::byte*>(p);
  bytes.insert(bytes.end(), first, first + size_of(t));
  return load_expr(t, "k" + std::to_string(b) + "[" + u(static_cast<std::int64_t>(at)) + "]");
}

Value InstanceGenerator::constant(const Node& n) {
  check_dtype(n.type.dtype);
  const Tensor host = n.constant.to_host();
  std::vector<std::byte> bytes(static_cast<std::size_t>(host.size()) * size_of(n.type.dtype));
  host.copy_to(bytes);
  Value v;
  v.dtype = n.type.dtype;
  v.elements = host.size();
  if (v.elements == 1 && (!is_float(v.dtype) || float_literals_)) {  // InstanceOptions::float_literals
    v.kind = Value::Kind::literal;
    v.name = literal_bits(n.type.dtype, bytes.data());
    return v;
  }
  const std::size_t b = constants_block(v.dtype);
  v.kind = Value::Kind::shared;
  v.name = "k" + std::to_string(b);
  v.offset = static_cast<std::int64_t>(k_.constants[b].bytes.size() / size_of(v.dtype));
  k_.constants[b].bytes.insert(k_.constants[b].bytes.end(), bytes.begin(), bytes.end());
  return v;
}

}  // namespace nxv::vulkan::fusion::instance
