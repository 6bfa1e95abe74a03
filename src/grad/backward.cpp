// Reverse mode over a traced graph, and nxv::value_and_grad built on it.
//
// value_and_grad traces the function, evaluates the graph on the actual inputs (keeping every node's value),
// then walks the nodes in reverse, turning each node's cotangent into cotangents of its inputs with the
// rule of its op (rules_*.cpp) and summing those of nodes used several times. Only nodes that both depend on
// a differentiated input and reach the output take part (`needs` and the cotangents present), so unused
// branches, constant data and integer computations cost nothing. A control node's results pass their cotangents
// to it, and its rule (control_vjp.cpp) gives those of its inputs.
#include <algorithm>
#include <map>

#include "grad/rules.hpp"
#include "nxv/grad.hpp"
#include "ops/apply.hpp"
#include "trace/evaluate.hpp"
#include "trace/tracer.hpp"

namespace nxv {

namespace {

// Gradients flow through float tensors and through complex ones (as the pairs of their parts).
bool differentiable(DType t) { return is_float(t) || is_complex(t); }

std::vector<Tensor> op_vjp(const rules::Vjp& v) {
  switch (v.call.code) {
    case OpCode::unary:
    case OpCode::binary:
    case OpCode::select:
    case OpCode::clip:
    case OpCode::cast:
      return rules::elementwise_vjp(v);
    case OpCode::reduce:
      return rules::reduce_vjp(v);
    case OpCode::reshape:
    case OpCode::transpose:
    case OpCode::broadcast:
    case OpCode::slice:
    case OpCode::pad:
    case OpCode::concatenate:
    case OpCode::reverse:
      return rules::movement_vjp(v);
    case OpCode::dot:
      return rules::dot_vjp(v);
    // pred/s64 results (never reached: backward only follows float nodes) and ops without inputs.
    case OpCode::unary_test:
    case OpCode::binary_test:
    case OpCode::arg_reduce:
    case OpCode::iota:
    case OpCode::eye:
    case OpCode::full:
    case OpCode::random_uniform:
    case OpCode::random_normal:
      return std::vector<Tensor>(v.x.size());
    case OpCode::take:
    case OpCode::take_along_axis:
    case OpCode::gather:
    case OpCode::indexed_add:
    case OpCode::indexed_put:
    case OpCode::put_slice:
    case OpCode::sort:
    case OpCode::argsort:
    case OpCode::cumulative:
      return rules::indexing_vjp(v);
    case OpCode::conv:
      return rules::conv_vjp(v);
    case OpCode::window_reduce:
    case OpCode::window_scatter:
      return rules::window_vjp(v);
    // Reinterpreted bits have no derivative: an integer input takes none, and a float input's integer result is
    // never followed (as JAX, whose bitcast_convert_type has a zero derivative).
    case OpCode::bitcast:
      return std::vector<Tensor>(v.x.size());
    // A complex number's gradient is that of its real part plus i times that of its imaginary part (PyTorch's
    // convention: a step against it descends), so the views pass the gradient's pairs through.
    case OpCode::real_view:
      return {complex_view(v.g)};
    case OpCode::complex_view:
      return {real_view(v.g)};
    case OpCode::cholesky:
    case OpCode::triangular_solve:
    case OpCode::lu:
    case OpCode::qr:
    case OpCode::eigh:
    case OpCode::svd:
      return rules::linalg_vjp(v);
    // The DFT is linear, y = F x, so x's gradient is F^H y's: the transform of the other direction (unnormalised,
    // as F^H of the unnormalised forward DFT is exactly the unnormalised inverse).
    case OpCode::fft:
      return {apply(OpCall{OpCode::fft, FftAttrs{!v.call.attrs_as<FftAttrs>().inverse}}, {v.g}, v.g.type())};
  }
  detail::fail("grad: no gradient rule for ", format_call(v.call));
}

std::vector<Tensor> custom_vjp(const Node& node, std::span<const Tensor> inputs, const Tensor& y, const Tensor& g) {
  std::vector<Tensor> cot = (*node.custom)(inputs, y, g);
  NXV_CHECK(cot.size() == inputs.size(), "custom_grad", "the gradient rule returned ", cot.size(), " cotangents for ",
            inputs.size(), " inputs");
  for (std::size_t i = 0; i < cot.size(); ++i) {
    if (!cot[i].defined() || !differentiable(inputs[i].dtype())) continue;
    NXV_CHECK(cot[i].shape() == inputs[i].shape(), "custom_grad", "the gradient rule returned ",
              to_string(cot[i].type()), " for input ", i, " of type ", to_string(inputs[i].type()),
              " (expected its shape)");
    cot[i] = as_type(cot[i], inputs[i].dtype());
  }
  return cot;
}

// Whether each node's value depends on a wanted parameter through float values (the only nodes whose cotangents
// matter). A control node has no value of its own: it needs one when an input does, and its results when float.
std::vector<bool> needs_gradient(const Graph& graph, const std::vector<bool>& wanted) {
  std::vector<bool> needs(graph.nodes.size(), false);
  for (std::size_t k = 0; k < wanted.size(); ++k) needs[graph.parameters[k]] = wanted[k];
  for (std::size_t i = 0; i < graph.nodes.size(); ++i) {
    const Node& n = graph.nodes[i];
    if (n.kind == NodeKind::parameter || n.kind == NodeKind::constant || n.kind == NodeKind::stop_gradient) continue;
    // A custom_vjp node's last input is the output it marks: its gradient comes from the rule instead.
    const std::size_t operands = n.inputs.size() - (n.kind == NodeKind::custom_vjp ? 1 : 0);
    bool any = false;
    for (std::size_t k = 0; k < operands; ++k) any = any || needs[n.inputs[k]];
    needs[i] = any && (n.kind == NodeKind::control || differentiable(n.type.dtype));
  }
  return needs;
}

std::string node_name(const Node& n) {
  if (n.kind == NodeKind::control) return std::string(control_name(n.control->kind));
  if (n.kind == NodeKind::custom_vjp) return "custom_grad";
  return format_call(n.call);
}

// The cotangents of the wanted parameters, given every node's value and a cotangent per output (undefined: none).
std::vector<Tensor> backward(const Graph& graph, const std::vector<Tensor>& values, std::span<const Tensor> seeds,
                             const std::vector<bool>& wanted) {
  const std::vector<bool> needs = needs_gradient(graph, wanted);
  std::vector<Tensor> cot(graph.nodes.size());
  NodeId last = -1;
  for (std::size_t k = 0; k < graph.outputs.size(); ++k) {
    const NodeId o = graph.outputs[k];
    if (!needs[o] || !seeds[k].defined()) continue;
    cot[o] = cot[o].defined() ? add(cot[o], seeds[k]) : seeds[k];
    last = std::max(last, o);
  }
  std::map<NodeId, std::vector<Tensor>> result_cots;  // per control node, its results' cotangents
  for (NodeId i = last; i >= 0; --i) {
    const Node& n = graph.nodes[i];
    if (!needs[i] || n.kind == NodeKind::parameter) continue;
    if (n.kind == NodeKind::result) {
      if (!cot[i].defined()) continue;
      std::vector<Tensor>& r = result_cots[n.inputs[0]];
      r.resize(graph.nodes[n.inputs[0]].control->results.size());
      r[static_cast<std::size_t>(n.result)] = cot[i];
      cot[i] = Tensor();
      continue;
    }
    const auto found = result_cots.find(i);
    if (n.kind == NodeKind::control ? found == result_cots.end() : !cot[i].defined()) continue;
    std::vector<Tensor> x;
    std::vector<bool> input_needs;
    for (NodeId in : n.inputs) {
      x.push_back(values[in]);
      input_needs.push_back(needs[in]);
    }
    std::vector<Tensor> contributions;
    if (n.kind == NodeKind::control) {
      contributions = rules::control_vjp(*n.control, x, found->second, input_needs);
      result_cots.erase(found);
    } else if (n.kind == NodeKind::custom_vjp) {
      x.pop_back();
      contributions = custom_vjp(n, x, values[i], cot[i]);
    } else {
      contributions = op_vjp(rules::Vjp{n.call, x, values[i], cot[i], input_needs});
    }
    for (std::size_t k = 0; k < contributions.size(); ++k) {
      const NodeId in = n.inputs[k];
      if (!needs[in] || !contributions[k].defined()) continue;
      NXV_CHECK(contributions[k].type() == graph.nodes[in].type, "grad", "the rule of ", node_name(n),
                " gave a cotangent of ", to_string(contributions[k].type()), " for its input ", k, " of type ",
                to_string(graph.nodes[in].type));
      cot[in] = cot[in].defined() ? add(cot[in], contributions[k]) : contributions[k];
    }
    cot[i] = Tensor();  // consumed: release it early
  }
  std::vector<Tensor> grads;
  for (std::size_t k = 0; k < wanted.size(); ++k) grads.push_back(wanted[k] ? cot[graph.parameters[k]] : Tensor());
  return grads;
}

}  // namespace

namespace rules {

std::vector<Tensor> graph_vjp(const Graph& graph, std::span<const Tensor> inputs, std::span<const Tensor> cotangents,
                              const std::vector<bool>& wanted) {
  return backward(graph, evaluate_all(graph, inputs), cotangents, wanted);
}

}  // namespace rules

namespace detail {

ValueAndGrad value_and_grad(std::span<const Tensor> wrt, std::span<const Tensor> rest, const ScalarFn& fn) {
  NXV_CHECK(!wrt.empty(), "grad", "the first argument holds no tensors to differentiate with respect to");
  for (std::size_t i = 0; i < wrt.size(); ++i) {
    NXV_CHECK(wrt[i].defined(), "grad", "tensor ", i, " of the first argument is undefined (default-constructed)");
    NXV_CHECK(differentiable(wrt[i].dtype()), "grad",
              "can only differentiate with respect to float or complex tensors, but tensor ", i,
              " of the first argument is ", to_string(wrt[i].type()),
              " (convert it with as_type, or pass integer data as a later argument)");
  }
  std::vector<Tensor> inputs(wrt.begin(), wrt.end());
  inputs.insert(inputs.end(), rest.begin(), rest.end());
  Graph graph;
  {
    TraceScope scope;
    std::vector<Tensor> params;
    for (const Tensor& t : inputs) params.push_back(scope.tracer().parameter(t));
    const std::span<const Tensor> all(params);
    const Tensor out = fn(all.first(wrt.size()), all.subspan(wrt.size()));
    NXV_CHECK(out.defined(), "grad", "the function returned an undefined (default-constructed) tensor");
    NXV_CHECK(out.rank() == 0 && is_float(out.dtype()), "grad",
              "the function must return a float scalar (rank 0) to be differentiated, got ", to_string(out.type()),
              " (reduce it, e.g. with sum or mean)");
    graph = scope.tracer().finish({&out, 1});
  }
  const std::vector<Tensor> values = evaluate_all(graph, inputs);
  const Tensor value = values[graph.outputs[0]];
  std::vector<bool> wanted(inputs.size(), false);
  std::fill(wanted.begin(), wanted.begin() + static_cast<std::ptrdiff_t>(wrt.size()), true);
  const Tensor seed = scalar(1.0, value.dtype(), value.backend());
  std::vector<Tensor> grads = backward(graph, values, {&seed, 1}, wanted);
  grads.resize(wrt.size());
  for (std::size_t k = 0; k < grads.size(); ++k)
    if (!grads[k].defined()) grads[k] = zeros(wrt[k].shape(), wrt[k].dtype(), wrt[k].backend());
  return {value, std::move(grads)};
}

}  // namespace detail
}  // namespace nxv
