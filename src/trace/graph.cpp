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

// The header of a control node: its kind and static attributes.
std::string control_text(const ControlFlow& c) {
  std::ostringstream s;
  s << control_name(c.kind);
  if (c.kind == ControlFlow::Kind::fori_loop) s << "(lo=" << c.lo << ", hi=" << c.hi << ")";
  if (c.kind == ControlFlow::Kind::scan) s << "(length=" << c.length << ")";
  return s.str();
}

std::string results_text(const ControlFlow& c) {
  std::string s = "(";
  for (std::size_t r = 0; r < c.results.size(); ++r) s += (r ? ", " : "") + to_string(c.results[r]);
  return s + ")";
}

// The names of a control node's bodies, in ControlFlow::bodies' order.
std::vector<std::string_view> body_names(ControlFlow::Kind kind) {
  switch (kind) {
    case ControlFlow::Kind::while_loop:
      return {"cond", "body"};
    case ControlFlow::Kind::cond:
      return {"on_true", "on_false"};
    case ControlFlow::Kind::fori_loop:
    case ControlFlow::Kind::scan:
      break;
  }
  return {"body"};
}

void write_graph(std::ostringstream& s, const Graph& graph, const std::string& indent);

void write_bodies(std::ostringstream& s, const ControlFlow& c, const std::string& indent) {
  const std::vector<std::string_view> names = body_names(c.kind);
  for (std::size_t b = 0; b < c.bodies.size(); ++b) {
    s << indent << "  " << names[b] << ":\n";
    write_graph(s, *c.bodies[b], indent + "    ");
  }
}

void write_graph(std::ostringstream& s, const Graph& graph, const std::string& indent) {
  for (std::size_t i = 0; i < graph.nodes.size(); ++i) {
    const Node& n = graph.nodes[i];
    s << indent << "%" << i << " = ";
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
      case NodeKind::control:
        s << control_text(*n.control);
        break;
      case NodeKind::result:
        s << "result(" << n.result << ")";
        break;
    }
    for (std::size_t k = 0; k < n.inputs.size(); ++k) s << (k ? ", %" : " %") << n.inputs[k];
    if (n.kind == NodeKind::control) {
      s << " : " << results_text(*n.control) << "\n";
      write_bodies(s, *n.control, indent);
      continue;
    }
    s << " : " << to_string(n.type) << (n.weak ? " (weak)" : "") << "\n";
  }
  s << indent << "outputs:";
  for (std::size_t k = 0; k < graph.outputs.size(); ++k) s << (k ? ", %" : " %") << graph.outputs[k];
  s << "\n";
}

}  // namespace

std::string_view control_name(ControlFlow::Kind kind) {
  switch (kind) {
    case ControlFlow::Kind::while_loop:
      return "while_loop";
    case ControlFlow::Kind::fori_loop:
      return "fori_loop";
    case ControlFlow::Kind::scan:
      return "scan";
    case ControlFlow::Kind::cond:
      return "cond";
  }
  return "control";
}

int ControlFlow::captured_begin(std::size_t b) const {
  int first = operands + xs;
  for (std::size_t k = 0; k < b; ++k) first += captured[k];
  return first;
}

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
        << ", batch=" << to_string(a.batch_a) << "x" << to_string(a.batch_b)
        << (a.precision == Precision::fast ? ", fast" : "") << ")";
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
        << ", groups=" << a.feature_groups << "x" << a.batch_groups << (a.precision == Precision::fast ? ", fast" : "")
        << ")";
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
    case OpCode::triangular_solve: {
      const TriangularSolveAttrs& a = call.attrs_as<TriangularSolveAttrs>();
      s << "(" << (a.left_side ? "left" : "right") << ", " << (a.lower ? "lower" : "upper")
        << (a.transpose_a ? ", transpose_a" : "") << (a.unit_diagonal ? ", unit_diagonal" : "") << ")";
      break;
    }
    case OpCode::gather:
    case OpCode::indexed_add:
    case OpCode::indexed_put:
    case OpCode::select:
    case OpCode::clip:
    case OpCode::cast:
    case OpCode::reshape:
    case OpCode::eye:
    case OpCode::bitcast:
    case OpCode::real_view:
    case OpCode::complex_view:
    case OpCode::cholesky:
    case OpCode::lu:
    case OpCode::eigh:
    case OpCode::svd:
      break;
    case OpCode::qr:
      s << (call.attrs_as<QrAttrs>().complete ? "(complete)" : "(reduced)");
      break;
    case OpCode::fft:
      s << (call.attrs_as<FftAttrs>().inverse ? "(inverse)" : "(forward)");
      break;
  }
  return s.str();
}

std::string to_string(const Graph& graph) {
  std::ostringstream s;
  write_graph(s, graph, "");
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
