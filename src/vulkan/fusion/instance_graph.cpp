// Graphs, nodes and control flow of the per-instance kernels (instance_generator.hpp).
#include <cmath>

#include "nxv/shape.hpp"
#include "vulkan/fusion/codegen.hpp"
#include "vulkan/fusion/glsl_types.hpp"
#include "vulkan/fusion/instance_generator.hpp"

namespace nxv::vulkan::fusion::instance {

void InstanceGenerator::emit_graph(const Graph& g) {
  const std::vector<bool> live = live_nodes(g);
  std::vector<int> uses(g.nodes.size(), 0);
  std::vector<NodeId> consumer(g.nodes.size(), -1);
  for (std::size_t i = 0; i < g.nodes.size(); ++i)
    for (const NodeId in : g.nodes[i].inputs) {
      ++uses[static_cast<std::size_t>(in)];
      consumer[static_cast<std::size_t>(in)] = static_cast<NodeId>(i);
    }
  for (const NodeId o : g.outputs) uses[static_cast<std::size_t>(o)] += 2;  // an output is stored: never lazy
  const std::vector<int>* outer_uses = uses_;
  const std::vector<NodeId>* outer_consumers = consumers_;
  for (std::size_t i = 0; i < g.nodes.size(); ++i) {
    const Node& n = g.nodes[i];
    if (!live[i] || n.kind == NodeKind::parameter || values_.count(&n)) continue;
    uses_ = &uses;  // a body emitted by a control node below sets its own
    consumers_ = &consumer;
    emit_node(g, n);
  }
  uses_ = outer_uses;
  consumers_ = outer_consumers;
}

void InstanceGenerator::emit_node(const Graph& g, const Node& n) {
  switch (n.kind) {
    case NodeKind::parameter:
      return;
    case NodeKind::constant:
      values_[&n] = constant(n);
      return;
    case NodeKind::stop_gradient:
      values_[&n] = input(g, n, 0);
      return;
    case NodeKind::custom_vjp:
      values_[&n] = input(g, n, n.inputs.size() - 1);
      return;
    case NodeKind::control:
      emit_control(g, n);
      return;
    case NodeKind::result:
      values_[&n] = results_.at(&g.nodes[n.inputs[0]]).at(static_cast<std::size_t>(n.result));
      return;
    case NodeKind::op:
      break;
  }
  switch (n.call.code) {
    case OpCode::reshape:
      values_[&n] = input(g, n, 0);  // the same elements in the same order
      values_[&n].elements = num_elements(n.type.shape);
      return;
    case OpCode::reduce:
      emit_reduce(g, n);
      return;
    case OpCode::dot:
      emit_dot(g, n);
      return;
    case OpCode::indexed_add:
      emit_indexed_add(g, n);
      return;
    case OpCode::cumulative:
      emit_cumulative(g, n);
      return;
    default:
      break;
  }
  if (lazy(g, n) || view(g, n)) {
    Value v;
    v.kind = Value::Kind::lazy;
    v.view = !lazy(g, n);
    v.dtype = n.type.dtype;
    v.elements = num_elements(n.type.shape);
    v.expression = [this, &g, &n](const std::string& e) { return element(g, n, e); };
    values_[&n] = v;
    return;
  }
  const Value out = allocate(n.type);
  for_each_output(out, [&](const std::string& e) { line(write(out, e) + " = " + element(g, n, e) + ";"); });
  values_[&n] = out;
}

bool InstanceGenerator::elementwise(OpCode c) {
  return c == OpCode::unary || c == OpCode::unary_test || c == OpCode::binary || c == OpCode::binary_test ||
         c == OpCode::cast || c == OpCode::clip || c == OpCode::select;
}

bool InstanceGenerator::lazy(const Graph& g, const Node& n) const {
  const auto i = static_cast<std::size_t>(&n - g.nodes.data());
  if (!elementwise(n.call.code) || num_elements(n.type.shape) <= 1 || (*uses_)[i] != 1) return false;
  const Node& c = g.nodes[static_cast<std::size_t>((*consumers_)[i])];
  if (c.kind != NodeKind::op) return false;
  return (elementwise(c.call.code) && c.type.shape == n.type.shape) || c.call.code == OpCode::reduce;
}

bool InstanceGenerator::view(const Graph& g, const Node& n) const {
  const OpCode c = n.call.code;
  if (c != OpCode::transpose && c != OpCode::broadcast && c != OpCode::slice && c != OpCode::reverse) return false;
  for (std::size_t i = 0; i < n.inputs.size(); ++i)
    if (input(g, n, i).kind == Value::Kind::lazy && !input(g, n, i).view) return false;  // work read again
  return true;
}

void InstanceGenerator::emit_body(const Graph& g, const Node& n, std::size_t b, const std::vector<Value>& leading) {
  const ControlFlow& cf = *n.control;
  const Graph& body = *cf.bodies[b];
  for (const Node& node : body.nodes) {  // a body object met before (a shared subgraph) is emitted afresh
    values_.erase(&node);
    results_.erase(&node);
  }
  for (std::size_t i = 0; i < leading.size(); ++i) values_[&body.nodes[body.parameters[i]]] = leading[i];
  const int first = cf.captured_begin(b);
  for (int i = 0; i < cf.captured[b]; ++i)
    values_[&body.nodes[body.parameters[leading.size() + static_cast<std::size_t>(i)]]] =
        input(g, n, static_cast<std::size_t>(first + i));
  emit_graph(body);
}

std::vector<Value> InstanceGenerator::outputs_of(const Graph& body) const {
  std::vector<Value> out;
  for (const NodeId o : body.outputs) out.push_back(values_.at(&body.nodes[o]));
  return out;
}

void InstanceGenerator::assign(const std::vector<Value>& carries, std::vector<Value> next) {
  for (Value& v : next) {
    bool aliased = v.kind == Value::Kind::lazy;  // it may read a carry
    for (const Value& c : carries) aliased = aliased || v.same_storage(c);
    if (!aliased) continue;
    TensorType type{Shape{v.elements}, v.dtype};
    const Value temp = allocate(type);
    copy(temp, v);
    v = temp;
  }
  for (std::size_t j = 0; j < carries.size(); ++j)
    if (!carries[j].same_storage(next[j])) copy(carries[j], next[j]);
}

std::vector<Value> InstanceGenerator::declare_carries(const ControlFlow& cf, std::size_t count) {
  std::vector<Value> carries;
  for (std::size_t j = 0; j < count; ++j) carries.push_back(allocate(cf.results[j]));
  return carries;
}

void InstanceGenerator::emit_control(const Graph& g, const Node& n) {
  const ControlFlow& cf = *n.control;
  std::vector<Value> results;
  switch (cf.kind) {
    case ControlFlow::Kind::fori_loop: {
      results = declare_carries(cf, static_cast<std::size_t>(cf.operands));
      for (std::size_t j = 0; j < results.size(); ++j) copy(results[j], input(g, n, j));
      const std::string i = fresh("i");
      line("for (int64_t " + i + " = " + std::to_string(cf.lo) + "l; " + i + " < " + std::to_string(cf.hi) + "l" +
           (cap_ ? " && !nxv_stop" : "") + "; ++" + i + ") {");
      ++indent_;
      repeat_ *= static_cast<double>(cf.hi - cf.lo);
      count_trip();
      Value counter;
      counter.kind = Value::Kind::literal;
      counter.dtype = DType::s64;
      counter.elements = 1;
      counter.name = i;
      std::vector<Value> leading = {counter};
      leading.insert(leading.end(), results.begin(), results.end());
      emit_body(g, n, 0, leading);
      assign(results, outputs_of(*cf.bodies[0]));
      repeat_ /= static_cast<double>(cf.hi - cf.lo);
      --indent_;
      line("}");
      break;
    }
    case ControlFlow::Kind::while_loop: {
      results = declare_carries(cf, static_cast<std::size_t>(cf.operands));
      for (std::size_t j = 0; j < results.size(); ++j) copy(results[j], input(g, n, j));
      line(cap_ ? "while (!nxv_stop) {" : "while (true) {");
      ++indent_;
      repeat_ *= kWhileTrips;
      ++in_while_;
      count_trip();
      emit_body(g, n, 0, results);
      line("if (" + read(outputs_of(*cf.bodies[0])[0], "0u") + " == 0u) break;");
      emit_body(g, n, 1, results);
      assign(results, outputs_of(*cf.bodies[1]));
      repeat_ /= kWhileTrips;
      --in_while_;
      --indent_;
      line("}");
      break;
    }
    case ControlFlow::Kind::cond: {
      results = declare_carries(cf, cf.results.size());
      std::vector<Value> operands;
      for (int j = 1; j < cf.operands; ++j) operands.push_back(input(g, n, static_cast<std::size_t>(j)));
      line("if (" + read(input(g, n, 0), "0u") + " != 0u) {");
      for (std::size_t b = 0; b < 2; ++b) {
        ++indent_;
        emit_body(g, n, b, operands);
        const std::vector<Value> out = outputs_of(*cf.bodies[b]);
        for (std::size_t j = 0; j < results.size(); ++j) copy(results[j], out[j]);
        --indent_;
        line(b == 0 ? "} else {" : "}");
      }
      break;
    }
    case ControlFlow::Kind::scan:
      throw Unsupported{"scan"};
  }
  results_[&n] = results;
}

}  // namespace nxv::vulkan::fusion::instance
