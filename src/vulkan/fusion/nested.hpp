// Nested reductions (docs/fusion-compiler.md): a reduction to one value over the results of another reduction -- a
// loss's mean over the per-example losses -- runs in the inner reduction's dispatch. One workgroup computes the
// inner results eight at a time, each in the eager kernel's exact order (reduce.comp: lane l of 256 accumulates
// elements l, l + 256, ... from the identity, then the shared-memory tree), emulated by 32 lanes where the inner
// reduction runs over at most 32 elements: lanes 32-255 would hold the identity, so the tree's first three levels
// combine each lane with the identity (exactly what the eager kernel computes) and the last five run on the 32
// lanes. The outer reduction then reads the inner results from shared memory, in its own eager order.
#pragma once
#include <cstdint>
#include <vector>

#include "vulkan/fusion/plan.hpp"

namespace nxv::vulkan::fusion {

// Inner reductions over at most this many elements per output, and at most this many outputs, qualify.
inline constexpr std::int64_t kNestedInnerLength = 32;
inline constexpr std::int64_t kNestedInnerOutputs = 2048;

// Merges each qualifying inner reduction stage into the outer reduction stage that reads it (the outer's
// kernel.inner), marking it in `merged_into` like merge_epilogues; `deps` as there (before any merge).
void merge_nested_reductions(const Graph& graph, std::vector<Stage>& stages,
                             const std::vector<std::vector<int>>& deps, std::vector<int>& merged_into,
                             std::uint32_t max_bindings);

}  // namespace nxv::vulkan::fusion
