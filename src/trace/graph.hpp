// Graph: a traced function as a list of nodes in topological order — the data structure that jit compiles,
// grad differentiates and the fusion compiler will plan stages over.
//
// A node is a parameter (the traced function's i-th flattened input), a constant (a concrete tensor the
// function captured, or a tensor of an enclosing trace), an op (an OpCall exactly as backends execute it),
// or one of two markers that backends never see: stop_gradient (identity for values, zero for gradients)
// and custom_vjp (identity on its last input for values; its gradient comes from a user rule).
//
// Control flow (include/nxv/control_flow.hpp) is a `control` node and one `result` node per value it gives:
//   %4 = fori_loop(lo=0, hi=1000) %1, %2, %3      the node: its inputs, its subgraphs (ControlFlow::bodies)
//   %5 = result(0) %4 : f32[2]                    result r of the node: ControlFlow::results[r]
// A control node's own `type` is that of its first result (or pred[] without results); nothing but its result
// nodes reads it. Its inputs are laid out as
//   [operands..., xs..., captured by body 0..., captured by body 1...]
// operands: the carry (loops) or the predicate then the operands (cond); xs: scan's stacked inputs. Each body is a
// whole Graph whose parameters are, in order:
//   while_loop  bodies {cond, body}:        cond [carry..., captured0...] -> [pred[]]
//                                           body [carry..., captured1...] -> [carry...]
//   fori_loop   bodies {body}:              [counter (s64[]), carry..., captured0...] -> [carry...]
//   scan        bodies {body}:              [carry..., x..., captured0...] -> [carry..., y...] (x: xs[i] for each leaf)
//   cond        bodies {on_true, on_false}: [operands..., captured0 or captured1...] -> [results...]
// and its results: loops the final carry (scan: then ys, each y stacked along a new leading axis of `length`); cond
// the taken branch's results. Tensors a body captured from the enclosing trace are its last parameters and inputs
// of the node; concrete tensors it captured stay constants of the body. A batching rule maps the node by mapping
// each body (the captured inputs are batched or not like any input) and rebuilding the ControlFlow.
#pragma once
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "nxv/grad.hpp"
#include "nxv/tensor.hpp"
#include "ops/op.hpp"

namespace nxv {

using NodeId = std::int32_t;

enum class NodeKind : std::uint8_t { parameter, constant, op, stop_gradient, custom_vjp, control, result };

struct Graph;

// What a control node runs (see the top of this file for its layout).
struct ControlFlow {
  enum class Kind : std::uint8_t { while_loop, fori_loop, scan, cond };
  Kind kind = Kind::fori_loop;
  std::vector<std::shared_ptr<const Graph>> bodies;
  std::vector<int> captured;    // per body: the node inputs it captured (its last parameters)
  int operands = 0;             // the carry (loops), or the predicate and the operands (cond)
  int xs = 0;                   // scan: the stacked inputs, after the operands
  std::int64_t lo = 0, hi = 0;  // fori_loop: the counter runs over [lo, hi)
  std::int64_t length = 0;      // scan: the leading axis of every xs and ys leaf
  std::vector<TensorType> results;
  std::vector<bool> weak;  // per result: its weak flag (a loop's carry keeps the flag of its initial value)
  // The node inputs body b captured: [first, first + captured[b]).
  int captured_begin(std::size_t b) const;
};
// "while_loop", "fori_loop", "scan", "cond".
std::string_view control_name(ControlFlow::Kind kind);

struct Node {
  NodeKind kind = NodeKind::op;
  OpCall call{};               // op nodes
  std::vector<NodeId> inputs;  // op and marker nodes; custom_vjp: the primal inputs, then the output
  TensorType type;
  bool weak = false;                        // parameters and constants keep the weak flag of the tensor they stand for
  int parameter = -1;                       // parameter nodes: the index into the flattened inputs
  Tensor constant;                          // constant nodes
  std::shared_ptr<const CustomVjp> custom;  // custom_vjp nodes
  std::shared_ptr<const ControlFlow> control;  // control nodes
  int result = -1;                             // result nodes: which result of the control node (their one input)
};

struct Graph {
  std::vector<Node> nodes;         // topological order: a node's inputs come before it
  std::vector<NodeId> parameters;  // parameters[i] is the node of flattened input i
  std::vector<NodeId> outputs;     // the flattened outputs (a node may appear several times)
};

// "reduce(sum, axes=[1])", "dot(contract=[1]x[0], batch=[]x[])": an op with its attributes.
std::string format_call(const OpCall& call);
// One node per line: `%5 = binary(add) %3, %4 : f32[32, 128]`, then `outputs: %5, %7`; a control node's bodies
// follow it, indented.
std::string to_string(const Graph& graph);
// Whether each node contributes to an output (the others, unused branches, are neither evaluated nor compiled).
std::vector<bool> live_nodes(const Graph& graph);

}  // namespace nxv
