// Looped stages: a fori_loop whose body is fused elementwise kernels over the carries' shape, run as one generated
// kernel with the loop inside (codegen.hpp's LoopKernel): one dispatch for all its iterations, no host round trip.
// The fusion compiler (compiler.cpp) runs every other control node's bodies once per iteration.
//
// A dispatch runs at most kTripsPerDispatch iterations, a longer loop one dispatch per chunk, each continuing from
// the last one's carries: llvmpipe (lavapipe) ends a shader invocation's loops after 65535 iterations in all
// (gallivm's LP_MAX_TGSI_LOOP_ITERATIONS; nested loops share the count), which a 10^5-iteration loop measurably hit.
#pragma once
#include <optional>
#include <span>
#include <vector>

#include "vulkan/fusion/codegen.hpp"
#include "vulkan/kernels/layout.hpp"
#include "vulkan/runtime/pipelines.hpp"

namespace nxv::vulkan::fusion {

inline constexpr std::int64_t kTripsPerDispatch = 32768;

struct LoopedStage {
  Kernel kernel;  // the body's fused kernels as one (its nodes are the body's)
  LoopKernel loop;
  const vulkan::Pipeline* pipeline = nullptr;
  vulkan::kernels::Grid grid;
};

// The looped stage of a control node, when it is a fori_loop of at least one iteration whose body plans as fused
// stages over the carries' shape that read only parameters and constants, each carry at the element it computes (no
// element reads another's carry), the counter as a scalar; its kernel compiled.
std::optional<LoopedStage> looped_stage(const ControlFlow& cf);

// Runs control node `n` (whose looped stage is `ls`) on `args` (its inputs, on Vulkan): its results, after one
// dispatch.
std::vector<Tensor> run_looped(const LoopedStage& ls, const Node& n, std::span<const Tensor> args, Backend& vk);

}  // namespace nxv::vulkan::fusion
