// Kernel programs: the instructions a generated kernel evaluates per domain element, built from the traced graph
// (views folded into reads, small fusible values recomputed, scalars as push constants), and pruned to what the
// kernel's outputs need.
#pragma once
#include <map>
#include <vector>

#include "vulkan/fusion/plan.hpp"

namespace nxv::vulkan::fusion {

// The kernel of region `region` (region_of: per node, its region): every member of `members` at its own element
// of the domain, the shape of members[0].
Kernel region_program(const Graph& graph, const std::vector<int>& region_of, int region,
                      const std::vector<NodeId>& members);
// A reduction kernel of `reduce` over its input's shape: the members of `region` (none when -1), then the
// reduction's input element (Kernel::reduce_value).
Kernel reduction_program(const Graph& graph, const std::vector<int>& region_of, int region,
                         const std::vector<NodeId>& members, NodeId reduce);
// The members of region `region` that `kernel` computes at its own domain element (those it can write as
// outputs), with their instruction.
std::map<NodeId, int> member_values(const Graph& graph, const Kernel& kernel, const std::vector<int>& region_of,
                                    int region);
// Keeps the instructions that `outputs` (and a reduction's input) need and the reads they use, renumbered.
Kernel prune(const Kernel& kernel, const std::vector<NodeId>& outputs, const std::map<NodeId, int>& member_value);

}  // namespace nxv::vulkan::fusion
