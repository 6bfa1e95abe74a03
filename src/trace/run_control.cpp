// Running control nodes on concrete tensors: each body's subgraph evaluated through the evaluator (so through
// apply(), into the backend's batched stream) once per iteration. The read-back rules are stated in
// include/nxv/control_flow.hpp.
#include <algorithm>
#include <cmath>

#include "nxv/ops.hpp"
#include "trace/control_flow.hpp"
#include "trace/evaluate.hpp"
#include "trace/tracer.hpp"

namespace nxv {

namespace {

using Tensors = std::vector<Tensor>;
using Kind = ControlFlow::Kind;

// A while_loop on a device reads its condition once per chunk of guarded iterations; chunks at most double and
// stay at most this long, so a short loop wastes few guarded iterations and a long one reads back every 64.
constexpr std::int64_t kMaxWhileChunk = 64;
// A read-back (a submit and a fence wait: 37-55 us on the H200) costs what about 9 dependent dispatches of a batch
// do (~5 us each): nxv-bench --suite kernels, bench/RESULTS.md.
constexpr double kReadBackInDispatches = 9;

Tensors join(std::span<const Tensor> a, std::span<const Tensor> b, std::span<const Tensor> c = {}) {
  Tensors out(a.begin(), a.end());
  out.insert(out.end(), b.begin(), b.end());
  out.insert(out.end(), c.begin(), c.end());
  return out;
}

std::span<const Tensor> captured_of(const ControlFlow& cf, std::span<const Tensor> inputs, std::size_t body) {
  return inputs.subspan(static_cast<std::size_t>(cf.captured_begin(body)), static_cast<std::size_t>(cf.captured[body]));
}

bool reads_are_free(const Backend& b) { return &b == &reference_backend(); }

bool is_true(const Tensor& pred) { return pred.item() != 0.0; }

// Row i of x along its leading axis, without that axis.
Tensor row(const Tensor& x, std::int64_t i) {
  Shape starts = Shape::filled(x.rank(), 0), lengths = x.shape();
  starts[0] = i;
  lengths[0] = 1;
  return reshape(slice(x, starts, lengths), Shape(x.shape().begin() + 1, x.shape().end()));
}

// rows stacked along a new leading axis into a tensor of `type`.
Tensor stack_rows(const Tensors& rows, const TensorType& type, Backend& backend) {
  if (rows.empty()) return zeros(type.shape, type.dtype, backend);
  Tensors pieces;
  pieces.reserve(rows.size());
  Shape one = type.shape;
  one[0] = 1;
  for (const Tensor& r : rows) pieces.push_back(reshape(r, one));
  return concatenate(pieces, 0);
}

// Runs the bodies of one node: the given runner, or the evaluator on `backend`.
struct Bodies {
  const ControlFlow& cf;
  Backend& backend;
  const BodyRunner& custom;
  std::int64_t guarded_step_stages = 0;  // > 0: custom also serves kGuardedWhileStep, of this many stages
  WhileHistory* history = nullptr;       // a while_loop's, when its runner keeps one
  Tensors operator()(std::size_t body, std::span<const Tensor> inputs) const {
    return custom ? custom(body, inputs) : evaluate(*cf.bodies[body], inputs, &backend);
  }
};

Tensors run_fori(const ControlFlow& cf, std::span<const Tensor> inputs, const Bodies& run) {
  Tensors carry(inputs.begin(), inputs.begin() + cf.operands);
  const std::span<const Tensor> captured = captured_of(cf, inputs, 0);
  const Graph& body = *cf.bodies[0];
  // A body that ignores its counter gets one made once (a fill per iteration saved).
  const bool reads_counter = live_nodes(body)[static_cast<std::size_t>(body.parameters[0])];
  Tensor counter;
  for (std::int64_t i = cf.lo; i < cf.hi; ++i) {
    if (reads_counter || !counter.defined())
      counter = scalar(static_cast<double>(i), DType::s64, run.backend);  // a fill, never an upload
    carry = run(0, join({&counter, 1}, carry, captured));
  }
  return carry;
}

Tensors run_scan(const ControlFlow& cf, std::span<const Tensor> inputs, const Bodies& run) {
  Tensors carry(inputs.begin(), inputs.begin() + cf.operands);
  const std::span<const Tensor> xs =
      inputs.subspan(static_cast<std::size_t>(cf.operands), static_cast<std::size_t>(cf.xs));
  const std::span<const Tensor> captured = captured_of(cf, inputs, 0);
  const std::size_t ny = cf.results.size() - carry.size();
  std::vector<Tensors> ys(ny);
  for (std::int64_t i = 0; i < cf.length; ++i) {
    Tensors x;
    for (const Tensor& t : xs) x.push_back(row(t, i));
    Tensors out = run(0, join(carry, x, captured));
    for (std::size_t k = 0; k < ny; ++k) ys[k].push_back(out[carry.size() + k]);
    out.resize(carry.size());
    carry = std::move(out);
  }
  for (std::size_t k = 0; k < ny; ++k) carry.push_back(stack_rows(ys[k], cf.results[cf.operands + k], run.backend));
  return carry;
}

}  // namespace

std::int64_t next_while_chunk(std::int64_t chunk, std::int64_t done, std::int64_t stages) {
  const std::int64_t doubled = std::min(2 * chunk, kMaxWhileChunk);
  if (stages <= 0) return doubled;
  // A loop that has run `done` iterations is expected to run about as many more. Its T iterations in chunks of k
  // cost T / k read-backs and k / 2 wasted iterations past the end; k = sqrt(2 T R / S) minimises the sum for a
  // read-back worth R dispatches and an iteration of S.
  const double best = std::sqrt(2.0 * static_cast<double>(done) * kReadBackInDispatches / static_cast<double>(stages));
  return std::clamp<std::int64_t>(static_cast<std::int64_t>(best), 1, doubled);
}

std::int64_t next_first_while_chunk(std::int64_t first, std::int64_t before, std::int64_t last) {
  if (before == 0) return std::max<std::int64_t>(1, first * 3 / 4);
  // It needed more than `before` iterations and at most before + last: exactly that when the last chunk was one
  // iteration (a costly step's chunks are), else about the middle.
  const double needed = static_cast<double>(before) + (last == 1 ? 1.0 : static_cast<double>(last + 1) / 2.0);
  return std::clamp<std::int64_t>(static_cast<std::int64_t>(0.8 * needed), 1, kMaxFirstWhileChunk);
}

namespace {

Tensors run_while(const ControlFlow& cf, std::span<const Tensor> inputs, const Bodies& run) {
  Tensors carry(inputs.begin(), inputs.begin() + cf.operands);
  const std::span<const Tensor> cond_captured = captured_of(cf, inputs, 0), body_captured = captured_of(cf, inputs, 1);
  auto holds = [&] { return run(0, join(carry, cond_captured))[0]; };
  if (reads_are_free(run.backend)) {
    while (is_true(holds())) carry = run(1, join(carry, body_captured));
    return carry;
  }
  // Chunks of k guarded iterations: once the condition fails the carry stops changing, so it keeps failing and
  // the guarded iterations past the end leave the carry as it was, bit for bit.
  const std::int64_t first = run.history != nullptr ? std::max<std::int64_t>(1, run.history->first_chunk) : 1;
  for (std::int64_t k = first, done = 0;; done += k, k = next_while_chunk(k, done, run.guarded_step_stages)) {
    Tensor c;
    for (std::int64_t j = 0; j < k; ++j) {
      if (run.guarded_step_stages > 0) {  // guarded_while_step's graph: the same ops, compiled as one
        Tensors out = run(kGuardedWhileStep, join(carry, cond_captured, body_captured));
        c = out[0];
        carry.assign(out.begin() + 1, out.end());
        continue;
      }
      c = holds();
      const Tensors next = run(1, join(carry, body_captured));
      for (std::size_t l = 0; l < carry.size(); ++l) carry[l] = select(c, next[l], carry[l]);
    }
    if (!is_true(c)) {
      if (run.history != nullptr) run.history->first_chunk = next_first_while_chunk(first, done, k);
      return carry;
    }
  }
}

Tensors run_cond(const ControlFlow& cf, std::span<const Tensor> inputs, const Bodies& run) {
  const Tensor& pred = inputs[0];
  const std::span<const Tensor> operands = inputs.subspan(1, static_cast<std::size_t>(cf.operands - 1));
  if (reads_are_free(run.backend)) {
    const std::size_t taken = is_true(pred) ? 0 : 1;
    return run(taken, join(operands, captured_of(cf, inputs, taken)));
  }
  // Both branches and a select: no read-back, and select copies the taken branch's bits.
  const Tensors t = run(0, join(operands, captured_of(cf, inputs, 0)));
  const Tensors f = run(1, join(operands, captured_of(cf, inputs, 1)));
  Tensors out;
  for (std::size_t k = 0; k < t.size(); ++k) out.push_back(select(pred, t[k], f[k]));
  return out;
}

bool placed_on(const Graph& graph, const Backend& target) {
  for (const Node& n : graph.nodes) {
    if (n.kind == NodeKind::constant && !is_traced(n.constant) && &n.constant.backend() != &target) return false;
    if (n.kind == NodeKind::control)
      for (const auto& body : n.control->bodies)
        if (!placed_on(*body, target)) return false;
  }
  return true;
}

// cf with its bodies' constants on `target` (cf itself when they are there already).
std::shared_ptr<const ControlFlow> placed(const std::shared_ptr<const ControlFlow>& cf, Backend& target) {
  if (std::all_of(cf->bodies.begin(), cf->bodies.end(), [&](const auto& b) { return placed_on(*b, target); }))
    return cf;
  auto copy = std::make_shared<ControlFlow>(*cf);
  for (auto& body : copy->bodies) {
    auto g = std::make_shared<Graph>(*body);
    place_constants(*g, target);
    body = std::move(g);
  }
  return copy;
}

}  // namespace

void place_constants(Graph& graph, Backend& target) {
  for (Node& n : graph.nodes) {
    if (n.kind == NodeKind::constant) n.constant = place_constant(n.constant, target);
    if (n.kind == NodeKind::control) n.control = placed(n.control, target);
  }
}

std::vector<Tensor> run_control(const ControlFlow& control, std::span<const Tensor> inputs, const BodyRunner& run_body,
                                std::int64_t guarded_step_stages, WhileHistory* history) {
  // cond's predicate may live elsewhere (a host scalar): its operands say where the branches run.
  const std::span<const Tensor> placement =
      control.kind == Kind::cond && inputs.size() > 1 ? inputs.subspan(1) : inputs;
  Backend& backend = evaluation_backend(placement);
  const std::shared_ptr<const ControlFlow> shared(std::shared_ptr<const ControlFlow>(), &control);
  const std::shared_ptr<const ControlFlow> cf = placed(shared, backend);
  const Bodies run{*cf, backend, run_body, run_body != nullptr ? guarded_step_stages : 0, history};
  Tensors out;
  switch (cf->kind) {
    case Kind::while_loop:
      out = run_while(*cf, inputs, run);
      break;
    case Kind::fori_loop:
      out = run_fori(*cf, inputs, run);
      break;
    case Kind::scan:
      out = run_scan(*cf, inputs, run);
      break;
    case Kind::cond:
      out = run_cond(*cf, inputs, run);
      break;
  }
  // Results keep the node's weak flags, as the traced results do (a loop's carry keeps its initial value's flag).
  for (std::size_t r = 0; r < out.size(); ++r)
    if (out[r].weak() != cf->weak[r]) out[r] = Tensor(out[r].type(), out[r].backend(), out[r].storage(), cf->weak[r]);
  return out;
}

Graph guarded_while_step(const ControlFlow& control) {
  const Graph& cond = *control.bodies[0];
  const Graph& body = *control.bodies[1];
  const auto nc = static_cast<std::size_t>(control.operands);
  TraceScope scope;
  Tracer& tracer = scope.tracer();
  const auto parameter = [&](const Graph& g, std::size_t k) {
    const Node& p = g.nodes[g.parameters[k]];
    return tracer.parameter(p.type, p.weak);
  };
  Tensors carry, cond_captured, body_captured;
  for (std::size_t k = 0; k < nc; ++k) carry.push_back(parameter(body, k));
  for (std::size_t k = nc; k < cond.parameters.size(); ++k) cond_captured.push_back(parameter(cond, k));
  for (std::size_t k = nc; k < body.parameters.size(); ++k) body_captured.push_back(parameter(body, k));
  const Tensor c = evaluate(cond, join(carry, cond_captured))[0];
  const Tensors next = evaluate(body, join(carry, body_captured));
  Tensors out{c};
  for (std::size_t l = 0; l < nc; ++l) out.push_back(select(c, next[l], carry[l]));
  return tracer.finish(out);
}

std::vector<Tensor> run_or_record(const std::shared_ptr<const ControlFlow>& control, std::span<const Tensor> inputs) {
  if (Tracer* tracer = innermost_tracer(inputs)) return tracer->record_control(control, inputs);
  return run_control(*control, inputs);
}

}  // namespace nxv
