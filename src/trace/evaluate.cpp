#include "trace/evaluate.hpp"

#include <map>

#include "ops/apply.hpp"
#include "trace/control_flow.hpp"
#include "trace/tracer.hpp"

namespace nxv {

Backend& evaluation_backend(std::span<const Tensor> inputs) {
  if (Tracer* t = innermost_tracer(inputs)) return *t;
  return inputs.empty() ? default_backend() : inputs[0].backend();
}

Tensor place_constant(const Tensor& constant, Backend& target) {
  if (is_traced(constant) || dynamic_cast<Tracer*>(&target) || &constant.backend() == &target) return constant;
  return constant.to(target);
}

namespace {

// The results of the control nodes evaluated so far, read by their result nodes.
using ControlResults = std::map<NodeId, std::vector<Tensor>>;

// The value of node `id` given the values of the nodes before it (a control node's: none; its results go into
// `results`).
Tensor evaluate_node(NodeId id, const Node& n, const std::vector<Tensor>& values, std::span<const Tensor> inputs,
                     Backend& backend, ControlResults& results) {
  std::vector<Tensor> args;
  args.reserve(n.inputs.size());
  for (NodeId i : n.inputs) args.push_back(values[i]);
  switch (n.kind) {
    case NodeKind::parameter:
      return inputs[n.parameter];
    case NodeKind::constant:
      return place_constant(n.constant, backend);
    case NodeKind::op:
      return args.empty() ? apply_on(backend, n.call, n.type) : apply(n.call, args, n.type);
    case NodeKind::stop_gradient:
      return stop_gradient(args[0]);
    case NodeKind::custom_vjp: {
      const Tensor output = args.back();
      args.pop_back();
      return detail::attach_custom_vjp(args, output, n.custom);
    }
    case NodeKind::control:
      results[id] = run_or_record(n.control, args);
      return {};
    case NodeKind::result:
      return results.at(n.inputs[0])[static_cast<std::size_t>(n.result)];
  }
  return {};
}

void check_inputs(const Graph& graph, std::span<const Tensor> inputs) {
  NXV_CHECK(inputs.size() == graph.parameters.size(), "evaluate", "got ", inputs.size(), " inputs for a graph of ",
            graph.parameters.size(), " parameters");
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    const TensorType& expected = graph.nodes[graph.parameters[i]].type;
    NXV_CHECK(inputs[i].defined() && inputs[i].type() == expected, "evaluate", "input ", i, " is ",
              inputs[i].defined() ? to_string(inputs[i].type()) : std::string("undefined"), ", expected ",
              to_string(expected));
  }
}

}  // namespace

std::vector<Tensor> evaluate_all(const Graph& graph, std::span<const Tensor> inputs) {
  check_inputs(graph, inputs);
  Backend& backend = evaluation_backend(inputs);
  const std::vector<bool> live = live_nodes(graph);
  std::vector<Tensor> values(graph.nodes.size());
  ControlResults results;
  for (std::size_t i = 0; i < graph.nodes.size(); ++i)
    if (live[i]) values[i] = evaluate_node(static_cast<NodeId>(i), graph.nodes[i], values, inputs, backend, results);
  return values;
}

std::vector<Tensor> evaluate(const Graph& graph, std::span<const Tensor> inputs, Backend* target) {
  check_inputs(graph, inputs);
  Backend& backend = target != nullptr && !innermost_tracer(inputs) ? *target : evaluation_backend(inputs);
  // last_use[i]: the last node reading node i (outputs are read at the end), so memory is returned early.
  const std::size_t end = graph.nodes.size();
  std::vector<std::size_t> last_use(graph.nodes.size(), 0);
  for (std::size_t i = 0; i < graph.nodes.size(); ++i)
    for (NodeId in : graph.nodes[i].inputs) last_use[in] = i;
  for (NodeId o : graph.outputs) last_use[o] = end;
  const std::vector<bool> live = live_nodes(graph);
  std::vector<Tensor> values(graph.nodes.size());
  ControlResults results;
  for (std::size_t i = 0; i < graph.nodes.size(); ++i) {
    if (!live[i]) continue;
    values[i] = evaluate_node(static_cast<NodeId>(i), graph.nodes[i], values, inputs, backend, results);
    for (NodeId in : graph.nodes[i].inputs)
      if (last_use[in] == i) {
        values[in] = Tensor();
        results.erase(in);
      }
  }
  std::vector<Tensor> outputs;
  for (NodeId o : graph.outputs) outputs.push_back(values[o]);
  return outputs;
}

}  // namespace nxv
