// Passes find_needed_values, split_oversized_region and keep_oversized_reduction_eager (passes.hpp): which values
// must exist as tensors, the kernels pruned to them, and what gives way when a kernel exceeds the binding limit.
#include <algorithm>

#include "vulkan/fusion/passes.hpp"
#include "vulkan/fusion/program.hpp"

namespace nxv::vulkan::fusion {

// Graph outputs, inputs of eager stages and reads of active kernels are needed. A kernel's reads depend on what it
// writes (its pruning), and what it writes on what is needed, so the search runs until nothing new is needed.
void find_needed_values(Planning& p) {
  const Graph& g = p.graph;
  p.needed.assign(g.nodes.size(), false);
  for (RegionKernel& k : p.region_kernels) {
    k.outputs.clear();
    k.kernel = {};
  }
  for (auto& [node, red] : p.reductions) red.kernel = {};
  std::vector<NodeId> work(g.outputs.begin(), g.outputs.end());
  for (bool changed = true; changed;) {
    while (!work.empty()) {
      const NodeId x = work.back();
      work.pop_back();
      if (p.needed[x]) continue;
      p.needed[x] = true;
      if (p.region_of[x] >= 0) {
        p.region_kernels[p.region_of[x]].outputs.push_back(x);
      } else if (!p.reductions.count(x)) {
        for (NodeId in : eager_inputs(g.nodes[x])) work.push_back(in);
      }
    }
    changed = false;
    auto need_reads = [&](const Kernel& k) {
      for (const Read& read : k.reads)
        if (!p.needed[read.node]) {
          work.push_back(read.node);
          changed = true;
        }
    };
    for (std::size_t r = 0; r < p.regions.size(); ++r) {
      RegionKernel& k = p.region_kernels[r];
      if (k.outputs.empty() || p.absorbed(static_cast<int>(r))) continue;
      std::sort(k.outputs.begin(), k.outputs.end());
      k.kernel = prune(k.full, k.outputs, k.member_value);
      need_reads(k.kernel);
    }
    for (auto& [node, red] : p.reductions) {
      if (!p.needed[node]) continue;
      std::vector<NodeId> written;
      if (red.region >= 0 && p.absorber[red.region] == node) {
        written = p.region_kernels[red.region].outputs;
        std::sort(written.begin(), written.end());
      }
      red.kernel = prune(red.full, written, red.member_value);
      need_reads(red.kernel);
    }
  }
}

// The later half only reads the earlier one, so the stage graph stays acyclic. A region of one member can still be
// oversized when it inlines values broadcast into it (index_map.hpp's inlined: their leaves become its reads); that
// member then runs as an eager op on materialised inputs (its region left empty).
bool split_oversized_region(Planning& p) {
  for (std::size_t r = 0; r < p.regions.size(); ++r) {
    const RegionKernel& k = p.region_kernels[r];
    if (k.outputs.empty() || p.absorbed(static_cast<int>(r)) || k.kernel.bindings() <= p.max_bindings) continue;
    std::vector<NodeId>& members = p.regions[r];
    if (members.size() < 2) {
      if (members.empty()) continue;
      p.region_of[members[0]] = -1;
      members.clear();
      return true;
    }
    std::vector<NodeId> tail(members.begin() + static_cast<std::ptrdiff_t>(members.size() / 2), members.end());
    members.resize(members.size() / 2);
    for (NodeId m : tail) p.region_of[m] = static_cast<int>(p.regions.size());
    p.regions.push_back(std::move(tail));
    return true;
  }
  return false;
}

bool keep_oversized_reduction_eager(Planning& p) {
  for (const auto& [node, red] : p.reductions)
    if (p.needed[node] && red.kernel.bindings() > p.max_bindings) {
      p.reduction_allowed[node] = false;
      return true;
    }
  return false;
}

bool read_materialised_reduction_inputs(Planning& p) {
  for (const auto& [node, red] : p.reductions) {
    if (!p.needed[node] || red.region < 0 || p.absorber[red.region] == node) continue;
    const NodeId input = p.graph.nodes[node].inputs[0];
    if (p.region_of[input] == red.region && p.needed[input]) {
      p.reduction_allowed[node] = false;
      return true;
    }
  }
  return false;
}

}  // namespace nxv::vulkan::fusion
