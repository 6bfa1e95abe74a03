// Graph: a traced function as a list of nodes in topological order — the data structure that jit compiles,
// grad differentiates and the fusion compiler will plan stages over.
//
// A node is a parameter (the traced function's i-th flattened input), a constant (a concrete tensor the
// function captured, or a tensor of an enclosing trace), an op (an OpCall exactly as backends execute it),
// or one of two markers that backends never see: stop_gradient (identity for values, zero for gradients)
// and custom_vjp (identity on its last input for values; its gradient comes from a user rule).
#pragma once
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "nxv/grad.hpp"
#include "nxv/tensor.hpp"
#include "ops/op.hpp"

namespace nxv {

using NodeId = std::int32_t;

enum class NodeKind : std::uint8_t { parameter, constant, op, stop_gradient, custom_vjp };

struct Node {
  NodeKind kind = NodeKind::op;
  OpCall call{};               // op nodes
  std::vector<NodeId> inputs;  // op and marker nodes; custom_vjp: the primal inputs, then the output
  TensorType type;
  bool weak = false;                        // parameters and constants keep the weak flag of the tensor they stand for
  int parameter = -1;                       // parameter nodes: the index into the flattened inputs
  Tensor constant;                          // constant nodes
  std::shared_ptr<const CustomVjp> custom;  // custom_vjp nodes
};

struct Graph {
  std::vector<Node> nodes;         // topological order: a node's inputs come before it
  std::vector<NodeId> parameters;  // parameters[i] is the node of flattened input i
  std::vector<NodeId> outputs;     // the flattened outputs (a node may appear several times)
};

// "reduce(sum, axes=[1])", "dot(contract=[1]x[0], batch=[]x[])": an op with its attributes.
std::string format_call(const OpCall& call);
// One node per line: `%5 = binary(add) %3, %4 : f32[32, 128]`, then `outputs: %5, %7`.
std::string to_string(const Graph& graph);
// Whether each node contributes to an output (the others, unused branches, are neither evaluated nor compiled).
std::vector<bool> live_nodes(const Graph& graph);

}  // namespace nxv
