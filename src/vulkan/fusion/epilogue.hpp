// Epilogue fusion (docs/fusion-compiler.md): an elementwise region whose domain is a reduction's result joins that
// reduction's stage, computed by the lane that stores each result right after the reduction's shared-memory tree, so
// a bias gradient's SGD update or a mean's division costs no dispatch of its own. Only reductions of one chunk per
// output qualify (a second pass would produce the result in another dispatch), and only when the region depends on
// the reduction through nothing but its direct reads of the result (else the merged stage would be a cycle).
#pragma once
#include <cstdint>
#include <vector>

#include "vulkan/fusion/plan.hpp"

namespace nxv::vulkan::fusion {

// Merges region stages into the reduction (or eager reduce) stages they qualify for, given each stage's
// dependencies (`deps[s]`: the stages s reads from). A merged region's stage is left in place and marked by the
// returned vector (its entry: the stage it joined; -1 for stages kept); an eager reduce that receives an
// epilogue becomes a reduction stage reading its input.
// A dot computed transposed (Kernel::transposed): its call for the operands (b, a), whose result is the [N, M]
// transpose of the dot's [M, N].
struct TransposedDot {
  OpCall call;
  TensorType type;
};
TransposedDot transposed_dot(const Node& dot);

// Whether `stage` depends on `target` through some other stage (`deps[s]`: the stages s reads from): merging the
// two would then make a cycle.
bool depends_indirectly(const std::vector<std::vector<int>>& deps, int stage, int target);

std::vector<int> merge_epilogues(const Graph& graph, std::vector<Stage>& stages,
                                 const std::vector<std::vector<int>>& deps, std::uint32_t max_bindings);

}  // namespace nxv::vulkan::fusion
