// vectorize: checks in_axes, traces the function on per-example tensors, then evaluates its graph node by node
// with the batching rules (src/trace/batching_rules.cpp).
//
// The batched graph is evaluated through apply(), as the evaluator does (src/trace/evaluate.hpp): on concrete
// inputs it runs on their backend; on traced ones (inside jit, grad or an outer vectorize) it records into that
// trace, which is what lets vectorize compose with every other transformation.
#include "nxv/vectorize.hpp"

#include <map>

#include "nxv/grad.hpp"
#include "ops/apply.hpp"
#include "trace/batching.hpp"
#include "trace/control_flow.hpp"
#include "trace/evaluate.hpp"
#include "trace/tracer.hpp"

namespace nxv {

namespace {

using batching::Batched;

struct BatchPlan {
  std::vector<std::optional<int>> axes;  // per input: its batch axis, normalised, or none
  std::int64_t size = -1;
};

BatchPlan plan_batch(std::span<const Tensor> inputs, const Structure& structure, const InAxes& in_axes) {
  NXV_CHECK(in_axes.empty() || in_axes.size() == inputs.size(), "vectorize", "in_axes has ", in_axes.size(),
            " entries but the arguments ", to_string(structure), " hold ", inputs.size(),
            " tensors (expected one entry per tensor, in flattening order, or none for axis 0 everywhere)");
  BatchPlan plan;
  std::size_t first = 0;
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    NXV_CHECK(inputs[i].defined(), "vectorize", "input ", i, " of ", to_string(structure),
              " is an undefined (default-constructed) tensor");
    const std::optional<int> axis = in_axes.empty() ? std::optional<int>(0) : in_axes[i];
    if (!axis) {
      plan.axes.emplace_back();
      continue;
    }
    const int rank = inputs[i].rank();
    NXV_CHECK(*axis >= -rank && *axis < rank, "vectorize", "in_axes[", i, "] = ", *axis, " is out of range for input ",
              i, " of ", to_string(structure), ", a ", to_string(inputs[i].type()), " (expected ", -rank, " <= axis < ",
              rank, ", or not_batched for a tensor every example shares)");
    const int a = *axis < 0 ? *axis + rank : *axis;
    const std::int64_t size = inputs[i].shape()[a];
    if (plan.size < 0) {
      plan.size = size;
      first = i;
    }
    NXV_CHECK(size == plan.size, "vectorize", "input ", i, " (", to_string(inputs[i].type()), ") has batch size ", size,
              " along axis ", a, " but input ", first, " (", to_string(inputs[first].type()), ") has ", plan.size,
              " (expected one batch size)");
    plan.axes.emplace_back(a);
  }
  NXV_CHECK(plan.size >= 0, "vectorize", "no input of ", to_string(structure),
            " is batched (every in_axes entry is not_batched); expected at least one batch axis");
  return plan;
}

struct PerExampleGraph {
  Graph graph;
  Structure outputs;
};

// The trace ends before the batched graph is evaluated, so that evaluation records into the enclosing trace.
PerExampleGraph trace_per_example(std::span<const Tensor> inputs, const BatchPlan& plan, const detail::FlatFn& fn) {
  TraceScope scope;
  std::vector<Tensor> params;
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    TensorType type = inputs[i].type();
    if (plan.axes[i]) type.shape.erase(*plan.axes[i]);
    params.push_back(scope.tracer().parameter(type, inputs[i].weak()));
  }
  Structure outputs;
  const std::vector<Tensor> results = fn(params, outputs);
  return {scope.tracer().finish(results), std::move(outputs)};
}

Structure list_of(std::size_t n) { return {Structure::Kind::list, {}, std::vector<Structure>(n)}; }

// The user's rule is per example: the batched rule is that rule vectorized over the batched inputs, the output
// and its cotangent; a shared input's cotangent is the sum of the examples'.
std::shared_ptr<const CustomVjp> batched_vjp(std::shared_ptr<const CustomVjp> rule, std::vector<bool> batched) {
  return std::make_shared<const CustomVjp>(
      [rule = std::move(rule), batched = std::move(batched)](std::span<const Tensor> inputs, const Tensor& output,
                                                             const Tensor& cotangent) {
        const std::size_t n = inputs.size();
        std::vector<Tensor> leaves(inputs.begin(), inputs.end());
        leaves.push_back(output);
        leaves.push_back(cotangent);
        InAxes axes;
        for (bool b : batched) axes.push_back(b ? std::optional<int>(0) : std::nullopt);
        axes.insert(axes.end(), {0, 0});
        Structure out_structure;
        std::vector<Tensor> cotangents = detail::vectorize_flat(
            leaves, list_of(n + 2), axes,
            [&](std::span<const Tensor> p, Structure& out) {
              std::vector<Tensor> r = (*rule)(p.first(n), p[n], p[n + 1]);
              NXV_CHECK(r.size() == n, "custom_grad", "the gradient rule returned ", r.size(), " cotangents for ", n,
                        " inputs");
              // An undefined cotangent means zero; vectorize's outputs are tensors.
              for (std::size_t k = 0; k < n; ++k)
                if (!r[k].defined()) r[k] = zeros(p[k].shape(), p[k].dtype(), evaluation_backend(p));
              out = list_of(n);
              return r;
            },
            out_structure);
        for (std::size_t k = 0; k < n; ++k)
          if (!batched[k]) cotangents[k] = sum(cotangents[k], Axes{0});
        return cotangents;
      });
}

Tensor batched_custom_vjp(const Node& n, std::span<const Batched> args, std::int64_t size) {
  std::vector<Tensor> inputs;
  std::vector<bool> batched;
  for (std::size_t k = 0; k + 1 < args.size(); ++k) {
    inputs.push_back(args[k].value);
    batched.push_back(args[k].batched);
  }
  return detail::attach_custom_vjp(inputs, batching::ensure_batched(args.back(), size),
                                   batched_vjp(n.custom, std::move(batched)));
}

Batched evaluate_node(const Node& n, std::span<const Batched> args, std::span<const Batched> params, std::int64_t size,
                      Backend& backend) {
  bool any_batched = false;
  std::vector<Tensor> values;
  for (const Batched& a : args) {
    any_batched = any_batched || a.batched;
    values.push_back(a.value);
  }
  switch (n.kind) {
    case NodeKind::parameter:
      return params[n.parameter];
    case NodeKind::constant:
      return {place_constant(n.constant, backend), false};
    case NodeKind::op:
      if (values.empty()) return {apply_on(backend, n.call, n.type), false};
      if (!any_batched) return {apply(n.call, values, n.type), false};
      return {batching::batch_op({n.call, args, n.type, size, backend}), true};
    case NodeKind::stop_gradient:
      return {stop_gradient(values[0]), args[0].batched};
    case NodeKind::custom_vjp:
      if (!any_batched) {
        const Tensor output = values.back();
        values.pop_back();
        return {detail::attach_custom_vjp(values, output, n.custom), false};
      }
      return {batched_custom_vjp(n, args, size), true};
    case NodeKind::control:  // evaluate_batched runs control nodes and their results
    case NodeKind::result:
      break;
  }
  return {};
}

}  // namespace

namespace batching {

std::vector<Batched> evaluate_batched(const Graph& graph, std::span<const Batched> params, std::int64_t size) {
  std::vector<Tensor> inputs;
  for (const Batched& p : params) inputs.push_back(p.value);
  Backend& backend = evaluation_backend(inputs);
  const std::size_t end = graph.nodes.size();
  std::vector<std::size_t> last_use(graph.nodes.size(), 0);
  for (std::size_t i = 0; i < graph.nodes.size(); ++i)
    for (NodeId in : graph.nodes[i].inputs) last_use[in] = i;
  for (NodeId o : graph.outputs) last_use[o] = end;
  const std::vector<bool> live = live_nodes(graph);
  std::vector<Batched> values(graph.nodes.size());
  std::map<NodeId, std::vector<Batched>> control_results;
  for (std::size_t i = 0; i < graph.nodes.size(); ++i) {
    if (!live[i]) continue;
    const Node& n = graph.nodes[i];
    std::vector<Batched> args;
    for (NodeId in : n.inputs) args.push_back(values[in]);
    if (n.kind == NodeKind::control) {
      bool any_batched = false;
      std::vector<Tensor> shared;
      for (const Batched& a : args) {
        any_batched = any_batched || a.batched;
        shared.push_back(a.value);
      }
      if (any_batched) {
        control_results[static_cast<NodeId>(i)] = batching::batch_control(*n.control, args, size);
      } else {
        std::vector<Batched>& r = control_results[static_cast<NodeId>(i)];
        for (const Tensor& t : run_or_record(n.control, shared)) r.push_back({t, false});
      }
      continue;
    }
    if (n.kind == NodeKind::result) {
      values[i] = control_results.at(n.inputs[0])[static_cast<std::size_t>(n.result)];
      continue;
    }
    values[i] = evaluate_node(n, args, params, size, backend);
    for (NodeId in : n.inputs)
      if (last_use[in] == i) values[in] = Batched{};
  }
  std::vector<Batched> outputs;
  for (NodeId o : graph.outputs) outputs.push_back(values[o]);
  return outputs;
}

}  // namespace batching

namespace detail {

std::vector<Tensor> vectorize_flat(std::span<const Tensor> inputs, const Structure& structure, const InAxes& in_axes,
                                   const FlatFn& fn, Structure& out_structure) {
  const BatchPlan plan = plan_batch(inputs, structure, in_axes);
  PerExampleGraph traced = trace_per_example(inputs, plan, fn);
  out_structure = std::move(traced.outputs);
  std::vector<Batched> params;
  for (std::size_t i = 0; i < inputs.size(); ++i)
    params.push_back(plan.axes[i] ? Batched{batching::move_axis(inputs[i], *plan.axes[i], 0), true}
                                  : Batched{inputs[i], false});
  std::vector<Tensor> outputs;
  for (const Batched& o : batching::evaluate_batched(traced.graph, params, plan.size))
    outputs.push_back(batching::ensure_batched(o, plan.size));
  return outputs;
}

}  // namespace detail
}  // namespace nxv
