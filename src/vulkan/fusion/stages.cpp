// Passes form_stages, order_stages and schedule_by_level (passes.hpp): the stage graph before the merges, and its
// execution order.
#include <algorithm>
#include <functional>
#include <sstream>

#include "nxv/error.hpp"
#include "vulkan/fusion/passes.hpp"

namespace nxv::vulkan::fusion {

void form_stages(Planning& p) {
  const Graph& g = p.graph;
  std::vector<int> stage_of(g.nodes.size(), -1);
  p.stages.clear();
  p.first_node.clear();
  for (std::size_t i = 0; i < g.nodes.size(); ++i) {
    if (!p.needed[i]) continue;
    const Node& n = g.nodes[i];
    const int region = p.region_of[i];
    const NodeId reduction = region >= 0 && p.absorbed(region)            ? p.absorber[region]
                             : p.reductions.count(static_cast<NodeId>(i)) ? static_cast<NodeId>(i)
                                                                          : -1;
    if (reduction >= 0) {
      if (stage_of[reduction] < 0) {
        const ReductionStage& red = p.reductions.at(reduction);
        const bool absorbs = red.region >= 0 && p.absorber[red.region] == reduction;
        std::vector<NodeId> members = absorbs ? p.regions[red.region] : std::vector<NodeId>{};
        members.push_back(reduction);
        p.stages.push_back(Stage{Stage::Kind::reduction, reduction, red.kernel, members});
        p.first_node.push_back(static_cast<NodeId>(i));
        for (NodeId m : members) stage_of[m] = static_cast<int>(p.stages.size()) - 1;
      }
    } else if (region >= 0) {
      if (stage_of[p.regions[region][0]] < 0) {
        p.stages.push_back(Stage{Stage::Kind::fused, -1, p.region_kernels[region].kernel, p.regions[region]});
        p.first_node.push_back(static_cast<NodeId>(i));
        for (NodeId m : p.regions[region]) stage_of[m] = static_cast<int>(p.stages.size()) - 1;
      }
    } else if (n.kind != NodeKind::parameter && n.kind != NodeKind::constant) {
      p.stages.push_back(Stage{Stage::Kind::eager, static_cast<NodeId>(i), {}, {}});
      p.first_node.push_back(static_cast<NodeId>(i));
      stage_of[i] = static_cast<int>(p.stages.size()) - 1;
    }
  }
  p.deps.assign(p.stages.size(), {});
  for (std::size_t s = 0; s < p.stages.size(); ++s) {
    std::vector<NodeId> inputs;
    if (p.stages[s].kind == Stage::Kind::eager)
      inputs = eager_inputs(g.nodes[p.stages[s].node]);
    else
      for (const Read& r : p.stages[s].kernel.reads) inputs.push_back(r.node);
    for (NodeId x : inputs)
      if (stage_of[x] >= 0 && stage_of[x] != static_cast<int>(s)) p.deps[s].push_back(stage_of[x]);
  }
  p.merged_into.assign(p.stages.size(), -1);
}

namespace {

// Keeps the stages listed in `order`, in that order, with their dependencies and first nodes renumbered (every
// dependency of a kept stage must be kept); nothing stays merged.
void reorder(Planning& p, const std::vector<int>& order) {
  std::vector<int> place(p.stages.size(), -1);
  for (std::size_t k = 0; k < order.size(); ++k) place[order[k]] = static_cast<int>(k);
  std::vector<Stage> stages;
  std::vector<std::vector<int>> deps;
  std::vector<NodeId> first_node;
  for (int s : order) {
    stages.push_back(std::move(p.stages[s]));
    deps.emplace_back();
    for (int d : p.deps[s]) deps.back().push_back(place[d]);
    first_node.push_back(p.first_node[s]);
  }
  p.stages = std::move(stages);
  p.deps = std::move(deps);
  p.first_node = std::move(first_node);
  p.merged_into.assign(p.stages.size(), -1);
}

}  // namespace

// A depth-first topological sort over stage dependencies, visiting stages in the order of their first node so the
// result stays close to the traced order.
void order_stages(Planning& p) {
  std::vector<std::vector<int>>& deps = p.deps;
  const std::vector<int>& merged_into = p.merged_into;
  // A host runs after everything its epilogue (or inner reduction) reads; stages that depended on a merged stage
  // depend on its host.
  for (std::size_t s = 0; s < p.stages.size(); ++s)
    if (merged_into[s] >= 0) deps[merged_into[s]].insert(deps[merged_into[s]].end(), deps[s].begin(), deps[s].end());
  for (std::size_t s = 0; s < p.stages.size(); ++s) {
    std::vector<int> redirected;
    for (int d : deps[s]) {
      const int to = merged_into[d] >= 0 ? merged_into[d] : d;
      if (to != static_cast<int>(s) && std::find(redirected.begin(), redirected.end(), to) == redirected.end())
        redirected.push_back(to);
    }
    deps[s] = std::move(redirected);
  }
  std::vector<int> state(p.stages.size(), 0), order, path;
  std::function<void(int)> visit = [&](int s) {
    if (state[s] == 2) return;
    if (state[s] == 1) {
      std::ostringstream cycle;
      for (int q : path) {
        cycle << " -> stage of %" << p.first_node[q];
        for (NodeId m : p.stages[q].members) cycle << " %" << m;
      }
      detail::fail("fusion compiler: the stage plan has a cycle (a bug in region grouping):", cycle.str(),
                   " -> stage of %", p.first_node[s]);
    }
    state[s] = 1;
    path.push_back(s);
    for (int d : deps[s]) visit(d);
    path.pop_back();
    state[s] = 2;
    order.push_back(s);
  };
  for (std::size_t s = 0; s < p.stages.size(); ++s)
    if (merged_into[s] < 0) visit(static_cast<int>(s));
  reorder(p, order);
}

void schedule_by_level(Planning& p) {
  // deps point to earlier stages (order_stages ran): one pass gives each stage its level, 1 + its deepest input's.
  std::vector<int> level(p.stages.size(), 0);
  for (std::size_t s = 0; s < p.stages.size(); ++s)
    for (int d : p.deps[s]) level[s] = std::max(level[s], level[d] + 1);
  std::vector<int> order(p.stages.size());
  for (std::size_t s = 0; s < order.size(); ++s) order[s] = static_cast<int>(s);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return level[a] < level[b]; });
  reorder(p, order);
}

namespace {
bool reaches(const std::vector<std::vector<int>>& deps, int from, int target, std::vector<char>& seen) {
  if (from == target) return true;
  if (seen[from]) return false;
  seen[from] = 1;
  for (int d : deps[from])
    if (reaches(deps, d, target, seen)) return true;
  return false;
}
}  // namespace

bool depends_indirectly(const std::vector<std::vector<int>>& deps, int stage, int target) {
  for (int d : deps[stage]) {
    if (d == target) continue;
    std::vector<char> seen(deps.size(), 0);
    if (reaches(deps, d, target, seen)) return true;
  }
  return false;
}

}  // namespace nxv::vulkan::fusion
