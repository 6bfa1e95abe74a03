// The batching rules of vectorize (include/nxv/vectorize.hpp): how each op runs on inputs that carry a batch axis.
//
// A value of the batched graph is either batched (its axis 0 is the batch axis, of `size` examples) or shared by
// every example (its per-example shape). batch_op() evaluates one op node given which of its inputs are batched;
// it is called only when at least one is. The rules live in batching_rules.cpp (the switch, elementwise, shape and
// reduction ops) and batching_rules_indexing.cpp (dot, conv, windows, indexing); each builds the batched OpCall
// directly, so the per-example arithmetic (and so each result bit) is the unbatched op's.
#pragma once
#include <optional>
#include <span>
#include <vector>

#include "nxv/backend.hpp"
#include "ops/op.hpp"

namespace nxv {
struct Graph;
struct ControlFlow;
}  // namespace nxv

namespace nxv::batching {

struct Batched {
  Tensor value;
  bool batched = false;
};

// What every rule gets: the node's call and per-example result type, its inputs, the batch size, and the
// backend that ops without inputs (iota for batch coordinates) run on.
struct RuleContext {
  const OpCall& call;
  std::span<const Batched> args;
  const TensorType& out;  // per example
  std::int64_t size;
  Backend& backend;
};

// The node's value with the batch axis first: [size] + out.shape.
Tensor batch_op(const RuleContext& c);

// The outputs of `graph` (a per-example graph) given its parameters' values, each batched or shared; an output is
// batched when it depends on a batched parameter (vectorize.cpp). A rule for a node that holds subgraphs (control
// flow) batches its bodies with it.
std::vector<Batched> evaluate_batched(const Graph& graph, std::span<const Batched> params, std::int64_t size);

// A control node (src/trace/graph.hpp) on inputs of which some are batched: its results, batched
// (batching_control.cpp).
std::vector<Batched> batch_control(const ControlFlow& control, std::span<const Batched> args, std::int64_t size);

// ---- helpers shared by the rule files ----
Shape with_batch_dim(std::int64_t size, const Shape& shape);  // [size] + shape
TensorType batched_type(const RuleContext& c);                // [size] + out.shape, out.dtype
// `x` as a batched tensor: itself when batched, else broadcast to [size] + its shape.
Tensor ensure_batched(const Batched& x, std::int64_t size);
// Axes shifted past the batch axis, with `first` (if any) prepended: {first, a0 + 1, a1 + 1, ...}.
Axes shifted(const Axes& axes, std::optional<std::int64_t> first = std::nullopt);
// x with axis `from` moved to position `to` (the other axes keep their order).
Tensor move_axis(const Tensor& x, int from, int to);
// The node evaluated example by example (slices of the batched inputs) and stacked: exact for every op, used where
// no loop-free rule exists (a batched window_scatter init).
Tensor per_example_loop(const RuleContext& c);

// Rules of batching_rules_indexing.cpp.
Tensor batch_dot(const RuleContext& c);
Tensor batch_conv(const RuleContext& c);
Tensor batch_window_reduce(const RuleContext& c);
Tensor batch_window_scatter(const RuleContext& c);
Tensor batch_take(const RuleContext& c);
Tensor batch_take_along_axis(const RuleContext& c);
Tensor batch_gather(const RuleContext& c);
Tensor batch_indexed_update(const RuleContext& c);  // indexed_add, indexed_put
Tensor batch_put_slice(const RuleContext& c);

}  // namespace nxv::batching
