// The evaluator: runs a graph op by op through apply(), on the backend of its inputs.
//
// Because every op goes through apply(), evaluating on Vulkan records dispatches into the open batch, and
// evaluating on traced tensors (grad inside jit, grad of grad) records the graph into the enclosing trace.
#pragma once
#include <span>
#include <vector>

#include "trace/graph.hpp"

namespace nxv {

// Where ops without inputs (full, iota, random) and captured constants go: the innermost trace among the
// inputs if any is traced, else the first input's backend, else the default backend.
Backend& evaluation_backend(std::span<const Tensor> inputs);

// A concrete constant moved to `target` (a copy when it lives elsewhere); traced constants, and any constant
// when `target` is a tracer, stay as they are (apply() captures them).
Tensor place_constant(const Tensor& constant, Backend& target);

// Every node's value (the backward pass reads the primal values of the nodes it differentiates).
std::vector<Tensor> evaluate_all(const Graph& graph, std::span<const Tensor> inputs);
// The outputs only; each intermediate value is released after its last use. `backend`: where ops without inputs and
// constants go (nullptr: evaluation_backend(inputs); a control node's bodies pass the node's, since a body may have
// no inputs).
std::vector<Tensor> evaluate(const Graph& graph, std::span<const Tensor> inputs, Backend* backend = nullptr);

}  // namespace nxv
