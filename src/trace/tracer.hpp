// The tracer: a Backend whose tensors are nodes of a graph being recorded (the analogue of Nx.Defn.Expr).
//
// Each trace is one Tracer object, so a traced tensor's backend() says which trace it belongs to. Traces
// nest (grad of grad, jit of grad): each has a depth, one more than the traces active when it started on
// this thread. apply() hands a call with any traced input to the innermost (deepest) tracer among its
// inputs, which records it and captures every other input — concrete, or traced by an enclosing trace —
// as a constant node. That one rule is what lets the backward pass of an inner trace become nodes of an
// outer one.
#pragma once
#include <map>
#include <memory>
#include <vector>

#include "nxv/backend.hpp"
#include "trace/graph.hpp"

namespace nxv {

class Tracer final : public Backend, public std::enable_shared_from_this<Tracer> {
 public:
  explicit Tracer(int depth) : depth_(depth) {}

  std::string_view name() const override { return "tracer"; }
  // Host data created inside the traced function: a constant node (its values live on the reference backend).
  std::shared_ptr<Storage> upload(std::span<const std::byte> bytes, const TensorType& type) override;
  // Always throws: a traced tensor has no values yet.
  void download(const Tensor& t, std::span<std::byte> dst) override;
  // Ops without inputs (full, iota, random) that were asked to run on this tracer.
  std::shared_ptr<Storage> execute(const OpCall& call, std::span<const Tensor> inputs, const TensorType& out) override;

  int depth() const { return depth_; }
  // Records `call` on `inputs` (any mix of this trace's tensors and others, which become constants).
  Tensor record(const OpCall& call, std::span<const Tensor> inputs, const TensorType& out);
  // Records a marker node (stop_gradient, custom_vjp) of type `type` on `inputs`.
  Tensor record_marker(NodeKind kind, std::span<const Tensor> inputs, const TensorType& type,
                       std::shared_ptr<const CustomVjp> custom = nullptr);
  // Records a control node running `control` on `inputs`, and a result node per result: the results.
  std::vector<Tensor> record_control(std::shared_ptr<const ControlFlow> control, std::span<const Tensor> inputs);
  // A new parameter node standing for a tensor like `like` (same type and weak flag).
  Tensor parameter(const Tensor& like);
  // A new parameter node of `type` (vectorize traces on per-example types no tensor has yet).
  Tensor parameter(const TensorType& type, bool weak);
  // Ends the trace: the graph with `outputs` as its outputs. Tensors of this trace used afterwards throw.
  Graph finish(std::span<const Tensor> outputs);
  // Ends the trace without a graph (the traced function threw).
  void abandon() { finished_ = true; }

 private:
  NodeId node_of(const Tensor& t);  // this trace's node for t, capturing it as a constant if needed
  Tensor append(Node node);
  void check_open(std::string_view op) const;

  int depth_;
  bool finished_ = false;
  Graph graph_;
  // Constants already captured, by storage; views share storage, so the type is compared too.
  std::multimap<const Storage*, NodeId> constants_;
};

// The tracer `t` belongs to, or nullptr for a concrete tensor.
Tracer* tracer_of(const Tensor& t);
inline bool is_traced(const Tensor& t) { return tracer_of(t) != nullptr; }
// The deepest tracer among `inputs`, or nullptr when none is traced.
Tracer* innermost_tracer(std::span<const Tensor> inputs);

// A trace in progress on this thread, one level deeper than every active one; ends when destroyed
// (also when the traced function throws).
class TraceScope {
 public:
  TraceScope();
  ~TraceScope();
  TraceScope(const TraceScope&) = delete;
  TraceScope& operator=(const TraceScope&) = delete;
  Tracer& tracer() { return *tracer_; }

 private:
  std::shared_ptr<Tracer> tracer_;
};

}  // namespace nxv
