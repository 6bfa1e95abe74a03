// while_loop, fori_loop, scan and cond (include/nxv/control_flow.hpp): each body traced once into a subgraph, the
// carries' structures and types checked, then one control node (src/trace/graph.hpp) recorded or run at once.
#include "nxv/control_flow.hpp"

#include <algorithm>

#include "nxv/ops.hpp"
#include "trace/compiler.hpp"
#include "trace/control_flow.hpp"
#include "trace/tracer.hpp"

namespace nxv {

namespace {

using Tensors = std::vector<Tensor>;
using Kind = ControlFlow::Kind;

struct TracedBody {
  std::shared_ptr<const Graph> graph;
  Structure outputs;
  std::vector<TensorType> types;  // of the flattened outputs
  Tensors captured;               // tensors of enclosing traces, now the body's last parameters
};

// fn traced on parameters like `like`. Tensors of an enclosing trace it captured (constant nodes holding traced
// tensors) become parameters after those, so that the control node reads them as inputs.
TracedBody trace_body(std::span<const Tensor> like, const detail::FlatFn& fn) {
  TraceScope scope;
  Tensors params;
  for (const Tensor& t : like) params.push_back(scope.tracer().parameter(t));
  TracedBody body;
  const Tensors results = fn(params, body.outputs);
  auto graph = std::make_shared<Graph>(scope.tracer().finish(results));
  for (std::size_t i = 0; i < graph->nodes.size(); ++i) {
    Node& n = graph->nodes[i];
    if (n.kind != NodeKind::constant || !is_traced(n.constant)) continue;
    body.captured.push_back(n.constant);
    n.kind = NodeKind::parameter;
    n.constant = Tensor();
    n.parameter = static_cast<int>(graph->parameters.size());
    graph->parameters.push_back(static_cast<NodeId>(i));
  }
  for (NodeId o : graph->outputs) body.types.push_back(graph->nodes[o].type);
  body.graph = std::move(graph);
  return body;
}

std::vector<TensorType> types_of(std::span<const Tensor> ts) {
  std::vector<TensorType> out;
  for (const Tensor& t : ts) out.push_back(t.type());
  return out;
}

std::string describe(const Structure& s, std::span<const TensorType> types) {
  return to_string(Signature{s, {types.begin(), types.end()}, {}, {}});
}

void check_same(std::string_view op, std::string_view what, const Structure& got, std::span<const TensorType> got_types,
                std::string_view expected_what, const Structure& expected, std::span<const TensorType> expected_types) {
  const bool same =
      got == expected && std::equal(got_types.begin(), got_types.end(), expected_types.begin(), expected_types.end());
  NXV_CHECK(same, op, what, " returned ", describe(got, got_types), " but ", expected_what, " ",
            describe(expected, expected_types), " (the same structure and types are needed; convert with as_type)");
}

void check_defined(std::span<const Tensor> ts, std::string_view op, std::string_view what) {
  for (std::size_t i = 0; i < ts.size(); ++i)
    NXV_CHECK(ts[i].defined(), op, what, " holds an undefined (default-constructed) tensor at leaf ", i);
}

void check_pred(const TracedBody& c) {
  const bool ok = c.outputs == Structure{} && c.types.size() == 1 && c.types[0] == TensorType{{}, DType::pred};
  NXV_CHECK(ok, "while_loop", "the condition must return a pred scalar (rank 0), got ", describe(c.outputs, c.types),
            " (compare, e.g. with less, to make one)");
}

// Records or runs the node; `inputs`: the operands (and xs) then what each body captured.
Tensors finish(ControlFlow cf, Tensors inputs, std::span<const TracedBody> bodies) {
  for (const TracedBody& b : bodies) {
    cf.bodies.push_back(b.graph);
    cf.captured.push_back(static_cast<int>(b.captured.size()));
    inputs.insert(inputs.end(), b.captured.begin(), b.captured.end());
  }
  return run_or_record(std::make_shared<const ControlFlow>(std::move(cf)), inputs);
}

ControlFlow loop(Kind kind, std::span<const Tensor> init) {
  ControlFlow cf;
  cf.kind = kind;
  cf.operands = static_cast<int>(init.size());
  for (const Tensor& t : init) {
    cf.results.push_back(t.type());
    cf.weak.push_back(t.weak());
  }
  return cf;
}

// A host tensor of `type`, standing for a parameter when tracing (only its type is read).
Tensor like(const TensorType& type) { return zeros(type.shape, type.dtype, reference_backend()); }

}  // namespace

namespace detail {

std::vector<Tensor> while_loop(const Structure& carry, std::span<const Tensor> init, const FlatFn& cond,
                               const FlatFn& body) {
  check_defined(init, "while_loop", "the initial carry");
  const TracedBody c = trace_body(init, cond);
  check_pred(c);
  const TracedBody b = trace_body(init, body);
  const std::vector<TensorType> types = types_of(init);
  check_same("while_loop", "the body", b.outputs, b.types, "the loop carries", carry, types);
  const TracedBody bodies[] = {c, b};
  return finish(loop(Kind::while_loop, init), Tensors(init.begin(), init.end()), bodies);
}

std::vector<Tensor> fori_loop(std::int64_t lo, std::int64_t hi, const Structure& carry, std::span<const Tensor> init,
                              const FlatFn& body) {
  check_defined(init, "fori_loop", "the initial carry");
  Tensors params{like({{}, DType::s64})};
  params.insert(params.end(), init.begin(), init.end());
  const TracedBody b = trace_body(params, body);
  check_same("fori_loop", "the body", b.outputs, b.types, "the loop carries", carry, types_of(init));
  ControlFlow cf = loop(Kind::fori_loop, init);
  cf.lo = lo;
  cf.hi = std::max(lo, hi);
  return finish(std::move(cf), Tensors(init.begin(), init.end()), {&b, 1});
}

std::vector<Tensor> scan(const Structure& carry, std::span<const Tensor> init, const Structure& xs_structure,
                         std::span<const Tensor> xs, const FlatFn& body, Structure& ys) {
  check_defined(init, "scan", "the initial carry");
  check_defined(xs, "scan", "xs");
  NXV_CHECK(!xs.empty(), "scan", "xs holds no tensors (got ", to_string(xs_structure),
            "); scan needs at least one to take its length from (use fori_loop for a plain loop)");
  const std::int64_t length = xs[0].rank() > 0 ? xs[0].shape()[0] : -1;
  Tensors params(init.begin(), init.end());
  for (const Tensor& x : xs) {
    NXV_CHECK(x.rank() > 0 && x.shape()[0] == length, "scan", "every leaf of xs needs the same leading axis, got ",
              describe(xs_structure, types_of(xs)));
    params.push_back(like({Shape(x.shape().begin() + 1, x.shape().end()), x.dtype()}));
  }
  const TracedBody b = trace_body(params, body);
  const std::vector<TensorType> types = types_of(init);
  const bool pair = b.outputs.kind == Structure::Kind::tuple && b.outputs.children.size() == 2;
  NXV_CHECK(pair, "scan", "the body must return a pair (carry, y), got ", describe(b.outputs, b.types));
  const std::size_t n = b.outputs.children[0].leaf_count();
  const std::span<const TensorType> out_types(b.types);
  check_same("scan", "the body's carry", b.outputs.children[0], out_types.first(std::min(n, out_types.size())),
             "the loop carries", carry, types);
  ControlFlow cf = loop(Kind::scan, init);
  cf.xs = static_cast<int>(xs.size());
  cf.length = length;
  for (std::size_t k = n; k < b.types.size(); ++k) {
    Shape stacked{length};
    for (std::int64_t d : b.types[k].shape) stacked.push_back(d);
    cf.results.push_back({stacked, b.types[k].dtype});
    cf.weak.push_back(false);
  }
  ys = b.outputs.children[1];
  Tensors inputs(init.begin(), init.end());
  inputs.insert(inputs.end(), xs.begin(), xs.end());
  return finish(std::move(cf), std::move(inputs), {&b, 1});
}

std::vector<Tensor> cond(const Tensor& pred, std::span<const Tensor> operands, const FlatFn& on_true,
                         const FlatFn& on_false, Structure& results) {
  NXV_CHECK(pred.defined(), "cond", "the predicate is undefined (default-constructed)");
  NXV_CHECK(pred.rank() == 0 && pred.dtype() == DType::pred, "cond",
            "the predicate must be a pred scalar (rank 0), got ", to_string(pred.type()),
            " (compare, e.g. with greater, to make one)");
  check_defined(operands, "cond", "the operands");
  const TracedBody t = trace_body(operands, on_true);
  const TracedBody f = trace_body(operands, on_false);
  check_same("cond", "on_false", f.outputs, f.types, "on_true returned", t.outputs, t.types);
  ControlFlow cf;
  cf.kind = Kind::cond;
  cf.operands = static_cast<int>(operands.size()) + 1;
  cf.results = t.types;
  cf.weak.assign(t.types.size(), false);
  results = t.outputs;
  Tensors inputs{pred};
  inputs.insert(inputs.end(), operands.begin(), operands.end());
  const TracedBody bodies[] = {t, f};
  return finish(std::move(cf), std::move(inputs), bodies);
}

}  // namespace detail
}  // namespace nxv
