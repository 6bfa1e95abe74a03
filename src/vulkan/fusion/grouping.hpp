// Region grouping: which fusible nodes of a traced graph share a generated kernel (docs/fusion-compiler.md).
#pragma once
#include <vector>

#include "trace/graph.hpp"

namespace nxv::vulkan::fusion {

struct Regions {
  std::vector<std::vector<NodeId>> members;  // per region, its nodes in topological order
  std::vector<int> region_of;                // per node: its region, or -1
};

// Grows regions in topological order over the `live` nodes; the stage graph they induce is acyclic.
Regions group_regions(const Graph& graph, const std::vector<bool>& live);

}  // namespace nxv::vulkan::fusion
