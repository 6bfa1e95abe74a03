// The Vulkan fusion compiler for nxv::jit, and jit's default (JitOptions{} in include/nxv/defn.hpp):
//
//   auto step = nxv::jit(nxv::value_and_grad(loss));  // = {.compiler = nxv::vulkan_compiler()}
//
// It plans the traced graph into stages: maximal elementwise regions (unary and binary ops, comparisons,
// select, clip, casts, scalars and constants, with broadcasts, reshapes and transposes folded into index
// arithmetic) become one generated GLSL compute shader each, compiled at run time and cached in memory and on
// disk (NXV_CACHE_DIR); every other node runs through the eager Vulkan kernels. A call records all of its stages
// into one batch (at most one submit, when its results are read), and fused results are bit-identical to eager
// execution on the same device.
//
// Reductions whose input is computed elementwise are generated kernels that evaluate the producer at each element
// they load (in the eager reduction's order), and a region over a reduction's result runs in the reduction's
// kernel as its epilogue: softmax and log-softmax take 3 dispatches, and a reduction to one value over a
// reduction of short rows computes those rows itself (a loss and its mean: one dispatch). Likewise a region over a dot's or a conv's
// result (a layer's bias add and activation, a weight gradient's SGD update) runs inside a generated copy of the
// dot or conv kernel, right after each output is stored.
//
// Replay (the idea of CUDA graphs): the first call records its stages into a command buffer of the executable's
// own, and intermediates that die during the call share memory by liveness; later calls (the same signature, so
// the same shapes) copy their inputs in, execute that command buffer again and copy the outputs into fresh
// tensors, recording nothing. The default (Replay::automatic) keeps the recording only where that pays, and graphs
// that read a value back on the host while running are never replayed.
//
// Environment: NXV_REPLAY=0 turns replay off ({.replay = Replay::never}), NXV_REPLAY=always on for every graph;
// NXV_FUSION=0 plans every node as an eager stage (for A/B comparisons), NXV_FUSION=elementwise
// fuses elementwise regions only (every reduction eager, no epilogues); NXV_DEBUG prints each
// compiled graph's stage plan (stages, ops per stage, dispatches, buffers). Signatures that are not entirely
// on the Vulkan backend, or a device without f64/int64/8-bit support, use the evaluator.
#pragma once
#include <memory>

#include "nxv/defn.hpp"

namespace nxv {

// Whether a compiled executable replays its first call's recording on later calls.
enum class Replay {
  // When the recording holds at least 1.5 dispatches per input and output buffer that a replay copies: below
  // that the copies cost what not recording saves (on the H200 an SGD LeNet step, 44 dispatches for 23 buffers,
  // replays in 0.83-0.87 of the time; Adam steps, with three times the buffers, would be 3-7% slower).
  automatic,
  always,
  never,
};

struct VulkanCompilerOptions {
  Replay replay = Replay::automatic;
};

std::shared_ptr<Compiler> vulkan_compiler(VulkanCompilerOptions options = {});

}  // namespace nxv
