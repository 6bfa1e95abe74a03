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
  const OpAttrs& a = call.attrs;
  std::ostringstream s;
  s << op_name(call.code);
  switch (call.code) {
    case OpCode::unary:
    case OpCode::unary_test:
    case OpCode::binary:
    case OpCode::binary_test: s << "(" << describe(call) << ")"; break;
    case OpCode::reduce:
    case OpCode::arg_reduce:
      s << "(" << describe(call) << ", axes=" << to_string(a.axes) << (a.keep_axes ? ", keep_axes" : "") << ")";
      break;
    case OpCode::transpose:
    case OpCode::broadcast:
    case OpCode::reverse: s << "(axes=" << to_string(a.axes) << ")"; break;
    case OpCode::slice: s << "(starts=" << to_string(a.starts) << ", strides=" << to_string(a.strides) << ")"; break;
    case OpCode::pad:
      s << "(low=" << to_string(a.pad_low) << ", high=" << to_string(a.pad_high)
        << ", interior=" << to_string(a.pad_interior) << ", value=" << a.scalar << ")";
      break;
    case OpCode::concatenate:
    case OpCode::iota: s << "(axis=" << a.axis << ")"; break;
    case OpCode::dot:
      s << "(contract=" << to_string(a.contract_a) << "x" << to_string(a.contract_b) << ", batch=" << to_string(a.batch_a)
        << "x" << to_string(a.batch_b) << ")";
      break;
    case OpCode::full: s << "(" << a.scalar << ")"; break;
    case OpCode::random_uniform:
    case OpCode::random_normal:
      s << "(key=" << key_text(a.key) << ", " << a.scalar << ", " << a.scalar2 << ")";
      break;
    case OpCode::conv:
      s << "(strides=" << to_string(a.strides) << ", low=" << to_string(a.pad_low) << ", high=" << to_string(a.pad_high)
        << ", input_dilation=" << to_string(a.input_dilation) << ", kernel_dilation=" << to_string(a.kernel_dilation)
        << ", groups=" << a.feature_groups << "x" << a.batch_groups << ")";
      break;
    case OpCode::window_reduce:
    case OpCode::window_scatter:
      s << "(" << fn_name(static_cast<ReduceFn>(a.fn)) << ", window=" << to_string(a.window) << ", strides="
        << to_string(a.strides) << ", low=" << to_string(a.pad_low) << ", high=" << to_string(a.pad_high) << ")";
      break;
    case OpCode::take:
    case OpCode::take_along_axis:
    case OpCode::sort:
    case OpCode::argsort: s << "(axis=" << a.axis << (a.fn ? ", descending" : "") << ")"; break;
    case OpCode::cumulative:
      s << "(" << fn_name(static_cast<ReduceFn>(a.fn)) << ", axis=" << a.axis << (a.keep_axes ? ", reverse" : "") << ")";
      break;
    case OpCode::put_slice: s << "(starts=" << to_string(a.starts) << ")"; break;
    case OpCode::gather:
    case OpCode::indexed_add:
    case OpCode::indexed_put:
    case OpCode::select:
    case OpCode::clip:
    case OpCode::cast:
    case OpCode::reshape:
    case OpCode::eye: break;
  }
  return s.str();
}

std::string to_string(const Graph& graph) {
  std::ostringstream s;
  for (std::size_t i = 0; i < graph.nodes.size(); ++i) {
    const Node& n = graph.nodes[i];
    s << "%" << i << " = ";
    switch (n.kind) {
      case NodeKind::parameter: s << "parameter(" << n.parameter << ")"; break;
      case NodeKind::constant: s << constant_text(n.constant); break;
      case NodeKind::op: s << format_call(n.call); break;
      case NodeKind::stop_gradient: s << "stop_gradient"; break;
      case NodeKind::custom_vjp: s << "custom_vjp"; break;
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
