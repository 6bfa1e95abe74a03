// Running control nodes (src/trace/graph.hpp's ControlFlow): what the evaluator, eager calls and the Vulkan
// compiler's eager stages do with one.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <vector>

#include "trace/graph.hpp"

namespace nxv {

// Runs body `body` of a control node on `inputs`: its outputs. The default evaluates the subgraph; the Vulkan
// compiler passes its compiled bodies.
using BodyRunner = std::function<std::vector<Tensor>(std::size_t body, std::span<const Tensor> inputs)>;

// The body number a runner may also serve for a while_loop on a device (run_control's `guarded_step`): one guarded
// iteration, guarded_while_step's graph.
inline constexpr std::size_t kGuardedWhileStep = 2;

// The node's results for concrete `inputs`, computed on their backend (the rules: include/nxv/control_flow.hpp).
// With `guarded_step_stages` > 0, a while_loop on a device runs `run_body(kGuardedWhileStep, ...)`, a graph of that
// many stages, per iteration instead of its condition, its body and a select per carry.
std::vector<Tensor> run_control(const ControlFlow& control, std::span<const Tensor> inputs,
                                const BodyRunner& run_body = nullptr, std::int64_t guarded_step_stages = 0);

// A while_loop on a device reads its condition back after each chunk of guarded iterations (a guarded iteration
// past the loop's end leaves the carry as it was). The chunk after one of `chunk` iterations, `done` in all, for
// guarded steps of `stages` stages (0: unknown): at most double, at most 64, and for costly steps no more than a
// read-back saves (a NUTS transition's step of ~100 stages reads back after every iteration).
std::int64_t next_while_chunk(std::int64_t chunk, std::int64_t done, std::int64_t stages);

// One guarded iteration of while_loop `control` as one graph, so that a compiler fuses the condition and the
// selects into the body's kernels: its parameters are the carries, then the condition's captures, then the body's;
// its outputs the condition on the carries, then each carry advanced by the body where that holds, kept where not.
Graph guarded_while_step(const ControlFlow& control);
// run_control, or, when an input is traced (a graph replayed inside another trace), the node recorded there.
std::vector<Tensor> run_or_record(const std::shared_ptr<const ControlFlow>& control, std::span<const Tensor> inputs);
// Moves the concrete constants of `graph` and of its control nodes' bodies to `target` (place_constant), so that
// running a body does not copy them on every iteration.
void place_constants(Graph& graph, Backend& target);

}  // namespace nxv
