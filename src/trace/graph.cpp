// Printing of traced graphs, for NXV_DEBUG and for reading what jit compiled.
#include "trace/graph.hpp"

#include <sstream>

#include "trace/tracer.hpp"

namespace nxv {

namespace {

std::string key_text(Key k) {
  std::ostringstream s;
  s << "(" << k.k0 << ", " << k.k1 << ")";
  return s.str();
}

// A concrete constant of at most this many elements is printed with its values.
constexpr std::int64_t kPrintedConstantElements = 4;

std::string constant_text(const Tensor& t) {
  if (is_traced(t)) return "constant(traced by an enclosing trace)";
  if (t.size() > kPrintedConstantElements) return "constant";
  std::string values = t.to_string();  // "f32[2]\n[1, 2]": keep the values only
  values = values.substr(values.find('\n') + 1);
  return "constant(" + values + ")";
}

}  // namespace

std::string format_call(const OpCall& call) {
  std::ostringstream s;
  s << op_name(call.code);
  switch (call.code) {
    case OpCode::unary:
    case OpCode::unary_test:
    case OpCode::binary:
    case OpCode::binary_test:
      s << "(" << describe(call) << ")";
      break;
    case OpCode::reduce: {
      const ReduceAttrs& a = call.attrs_as<ReduceAttrs>();
      s << "(" << describe(call) << ", axes=" << to_string(a.axes) << (a.keep_axes ? ", keep_axes" : "") << ")";
      break;
    }
    case OpCode::arg_reduce: {
      const ArgReduceAttrs& a = call.attrs_as<ArgReduceAttrs>();
      const Axes axes = a.axis ? Axes{*a.axis} : Axes{};
      s << "(" << describe(call) << ", axes=" << to_string(axes) << (a.keep_axes ? ", keep_axes" : "") << ")";
      break;
    }
    case OpCode::transpose:
      s << "(axes=" << to_string(call.attrs_as<TransposeAttrs>().permutation) << ")";
      break;
    case OpCode::broadcast:
      s << "(axes=" << to_string(call.attrs_as<BroadcastAttrs>().axes) << ")";
      break;
    case OpCode::reverse:
      s << "(axes=" << to_string(call.attrs_as<ReverseAttrs>().axes) << ")";
      break;
    case OpCode::slice: {
      const SliceAttrs& a = call.attrs_as<SliceAttrs>();
      s << "(starts=" << to_string(a.starts) << ", strides=" << to_string(a.strides) << ")";
      break;
    }
    case OpCode::pad: {
      const PadAttrs& a = call.attrs_as<PadAttrs>();
      s << "(low=" << to_string(a.low) << ", high=" << to_string(a.high) << ", interior=" << to_string(a.interior)
        << ", value=" << a.value << ")";
      break;
    }
    case OpCode::concatenate:
    case OpCode::iota:
    case OpCode::take:
    case OpCode::take_along_axis:
      s << "(axis=" << call.attrs_as<AxisAttrs>().axis << ")";
      break;
    case OpCode::dot: {
      const DotAttrs& a = call.attrs_as<DotAttrs>();
      s << "(contract=" << to_string(a.contract_a) << "x" << to_string(a.contract_b)
        << ", batch=" << to_string(a.batch_a) << "x" << to_string(a.batch_b) << ")";
      break;
    }
    case OpCode::full:
      s << "(" << call.attrs_as<FullAttrs>().value << ")";
      break;
    case OpCode::random_uniform: {
      const UniformAttrs& a = call.attrs_as<UniformAttrs>();
      s << "(key=" << key_text(a.key) << ", " << a.low << ", " << a.high << ")";
      break;
    }
    case OpCode::random_normal: {
      const NormalAttrs& a = call.attrs_as<NormalAttrs>();
      s << "(key=" << key_text(a.key) << ", " << a.mean << ", " << a.stddev << ")";
      break;
    }
    case OpCode::conv: {
      const ConvAttrs& a = call.attrs_as<ConvAttrs>();
      s << "(strides=" << to_string(a.strides) << ", low=" << to_string(a.pad_low) << ", high=" << to_string(a.pad_high)
        << ", input_dilation=" << to_string(a.input_dilation) << ", kernel_dilation=" << to_string(a.kernel_dilation)
        << ", groups=" << a.feature_groups << "x" << a.batch_groups << ")";
      break;
    }
    case OpCode::window_reduce:
    case OpCode::window_scatter: {
      const WindowAttrs& a = call.attrs_as<WindowAttrs>();
      s << "(" << fn_name(a.fn) << ", window=" << to_string(a.window) << ", strides=" << to_string(a.strides)
        << ", low=" << to_string(a.pad_low) << ", high=" << to_string(a.pad_high) << ")";
      break;
    }
    case OpCode::sort:
    case OpCode::argsort: {
      const SortAttrs& a = call.attrs_as<SortAttrs>();
      s << "(axis=" << a.axis << (a.descending ? ", descending" : "") << ")";
      break;
    }
    case OpCode::cumulative: {
      const CumulativeAttrs& a = call.attrs_as<CumulativeAttrs>();
      s << "(" << fn_name(a.fn) << ", axis=" << a.axis << (a.reverse ? ", reverse" : "") << ")";
      break;
    }
    case OpCode::put_slice:
      s << "(starts=" << to_string(call.attrs_as<PutSliceAttrs>().starts) << ")";
      break;
    case OpCode::gather:
    case OpCode::indexed_add:
    case OpCode::indexed_put:
    case OpCode::select:
    case OpCode::clip:
    case OpCode::cast:
    case OpCode::reshape:
    case OpCode::eye:
    case OpCode::bitcast:
      break;
  }
  return s.str();
}

std::string to_string(const Graph& graph) {
  std::ostringstream s;
  for (std::size_t i = 0; i < graph.nodes.size(); ++i) {
    const Node& n = graph.nodes[i];
    s << "%" << i << " = ";
    switch (n.kind) {
      case NodeKind::parameter:
        s << "parameter(" << n.parameter << ")";
        break;
      case NodeKind::constant:
        s << constant_text(n.constant);
        break;
      case NodeKind::op:
        s << format_call(n.call);
        break;
      case NodeKind::stop_gradient:
        s << "stop_gradient";
        break;
      case NodeKind::custom_vjp:
        s << "custom_vjp";
        break;
    }
    for (std::size_t k = 0; k < n.inputs.size(); ++k) s << (k ? ", %" : " %") << n.inputs[k];
    s << " : " << to_string(n.type) << (n.weak ? " (weak)" : "") << "\n";
  }
  s << "outputs:";
  for (std::size_t k = 0; k < graph.outputs.size(); ++k) s << (k ? ", %" : " %") << graph.outputs[k];
  s << "\n";
  return s.str();
}

std::vector<bool> live_nodes(const Graph& graph) {
  std::vector<bool> live(graph.nodes.size(), false);
  for (NodeId o : graph.outputs) live[o] = true;
  for (std::size_t i = graph.nodes.size(); i-- > 0;)
    if (live[i])
      for (NodeId in : graph.nodes[i].inputs) live[in] = true;
  return live;
}

}  // namespace nxv
