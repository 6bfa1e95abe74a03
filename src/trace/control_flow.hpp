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

// What a while_loop's earlier runs say about its next one, kept by whoever runs the same loop again (the Vulkan
// compiler, per while node of a compiled graph): a loop that runs about as long as last time -- a NUTS transition
// over many chains -- starts with one chunk of most of the iterations it needed then, so that it reads its
// condition back a few times instead of once per iteration. A guarded iteration past the end changes nothing, so
// a wrong guess costs time, never bits.
struct WhileHistory {
  std::int64_t first_chunk = 1;
};

// The first chunk of the next run after one that started with `first` and ended in the chunk of `last` iterations
// run after `before` others: most (4/5) of what it needed when that is known, 3/4 of `first` when the first chunk
// already ended it (it needed `first` or fewer); at most kMaxFirstWhileChunk.
inline constexpr std::int64_t kMaxFirstWhileChunk = 256;
std::int64_t next_first_while_chunk(std::int64_t first, std::int64_t before, std::int64_t last);

// The node's results for concrete `inputs`, computed on their backend (the rules: include/nxv/control_flow.hpp).
// With `guarded_step_stages` > 0, a while_loop on a device runs `run_body(kGuardedWhileStep, ...)`, a graph of that
// many stages, per iteration instead of its condition, its body and a select per carry; with a `history` (that
// loop's), its first chunk is the history's, which is updated for the next run.
std::vector<Tensor> run_control(const ControlFlow& control, std::span<const Tensor> inputs,
                                const BodyRunner& run_body = nullptr, std::int64_t guarded_step_stages = 0,
                                WhileHistory* history = nullptr);

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
