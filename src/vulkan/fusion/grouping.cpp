// Pass group_elementwise_regions (passes.hpp): which fusible nodes share a generated kernel. Union-find over
// regions, with a dependency check that keeps the stage graph acyclic (docs/fusion-compiler.md, "How regions grow").
#include <algorithm>
#include <map>
#include <set>

#include "vulkan/fusion/index_map.hpp"
#include "vulkan/fusion/passes.hpp"

namespace nxv::vulkan::fusion {
namespace {

const Shape& shape_of(const Graph& g, NodeId id) { return g.nodes[id].type.shape; }

class Grouping {
 public:
  Grouping(const Graph& g, const std::vector<bool>& live) : g_(g), live_(live) {
    const std::size_t n = g.nodes.size();
    region_of_.assign(n, -1);
    deps_.resize(n);
  }

  void run() {
    for (std::size_t i = 0; i < g_.nodes.size(); ++i) {
      const Node& n = g_.nodes[i];
      if (!live_[i]) continue;
      if (fusible(g_, n))
        place(static_cast<NodeId>(i));
      else
        for (NodeId x : n.inputs) add_deps(deps_[i], deps_of(x));
    }
  }

  // Regions as member lists (topological order), indexed by a dense id; region_of() maps nodes to them.
  std::vector<std::vector<NodeId>> regions(std::vector<int>& region_of) const {
    std::map<int, int> dense;
    std::vector<std::vector<NodeId>> out;
    region_of.assign(g_.nodes.size(), -1);
    for (std::size_t i = 0; i < g_.nodes.size(); ++i) {
      if (region_of_[i] < 0) continue;
      const int root = find(region_of_[i]);
      auto [it, fresh] = dense.emplace(root, static_cast<int>(out.size()));
      if (fresh) out.emplace_back();
      out[it->second].push_back(static_cast<NodeId>(i));
      region_of[i] = it->second;
    }
    return out;
  }

 private:
  int find(int r) const {
    while (parent_[r] != r) r = parent_[r];
    return r;
  }

  std::vector<int> deps_of(NodeId x) const {
    if (region_of_[x] >= 0) return {region_of_[x]};
    return deps_[x];
  }
  static void add_deps(std::vector<int>& to, const std::vector<int>& from) {
    for (int r : from)
      if (std::find(to.begin(), to.end(), r) == to.end()) to.push_back(r);
  }

  // Whether anything in `from` (region ids) is, or transitively reads an output of, region `target`.
  bool depends(const std::vector<int>& from, int target) const {
    target = find(target);
    std::set<int> seen;
    std::vector<int> stack;
    for (int r : from) stack.push_back(find(r));
    while (!stack.empty()) {
      const int r = stack.back();
      stack.pop_back();
      if (r == target) return true;
      if (!seen.insert(r).second) continue;
      for (int q : region_deps_[r]) stack.push_back(find(q));
    }
    return false;
  }

  // The input edges of fusible node n, as its kernel will see them (KernelBuilder makes the same decisions): a
  // value of n's shape read at n's own element is a candidate region to share; one-element constants and `full`
  // become push constants and depend on nothing; smaller fusible values broadcast into n are recomputed in the
  // kernel, so their own inputs are the edges; anything else is read from a buffer and depends on what made it.
  struct Edge {
    int candidate = -1;
    std::vector<int> deps;
  };
  using Seen = std::set<std::pair<NodeId, std::vector<std::int64_t>>>;
  void walk(NodeId start, const IndexMap& start_map, const Shape& domain, Seen& seen, std::vector<Edge>& edges) const {
    auto [x, m] = resolve(g_, start, start_map, domain);
    if (!seen.emplace(x, placement_key(m)).second) return;
    const Node& n = g_.nodes[x];
    if (region_of_[x] >= 0 && n.type.shape == domain && is_identity(m, domain)) {
      const int r = find(region_of_[x]);
      edges.push_back({r, {r}});
    } else if (n.kind == NodeKind::constant ? n.constant.size() == 1
                                            : n.kind == NodeKind::op && n.call.code == OpCode::full) {
      // a push constant, or (when the block is full) a read of a constant or an eager `full`: no region either way
    } else if (inlined(g_, n, m, domain)) {
      for (NodeId in : n.inputs)
        walk(in, numpy_input_map(m, shape_of(g_, in), n.type.shape, domain), domain, seen, edges);
    } else {
      edges.push_back({-1, deps_of(x)});
    }
  }

  bool valid(const std::vector<Edge>& edges, const std::vector<int>& chosen) const {
    for (const Edge& e : edges) {
      if (e.candidate >= 0 && std::find(chosen.begin(), chosen.end(), e.candidate) != chosen.end()) continue;
      for (int c : chosen)
        if (depends(e.deps, c)) return false;
    }
    for (int a : chosen)
      for (int b : chosen)
        if (a != b && depends(region_deps_[a], b)) return false;
    return true;
  }

  void place(NodeId id) {
    const Node& n = g_.nodes[id];
    std::vector<Edge> edges;
    Seen seen;
    const Shape& domain = n.type.shape;
    for (NodeId x : n.inputs)
      walk(x, numpy_input_map(identity_map(domain), shape_of(g_, x), domain, domain), domain, seen, edges);
    std::vector<int> chosen;
    for (const Edge& e : edges) {
      if (e.candidate < 0 || std::find(chosen.begin(), chosen.end(), e.candidate) != chosen.end()) continue;
      chosen.push_back(e.candidate);
      if (!valid(edges, chosen)) chosen.pop_back();
    }
    int root;
    if (chosen.empty()) {
      root = static_cast<int>(parent_.size());
      parent_.push_back(root);
      region_deps_.emplace_back();
    } else {
      root = chosen[0];
      for (std::size_t k = 1; k < chosen.size(); ++k) {
        parent_[chosen[k]] = root;
        add_deps(region_deps_[root], region_deps_[chosen[k]]);
      }
    }
    for (const Edge& e : edges)
      if (e.candidate < 0 || std::find(chosen.begin(), chosen.end(), e.candidate) == chosen.end())
        add_deps(region_deps_[root], e.deps);
    region_of_[id] = root;
  }

  const Graph& g_;
  const std::vector<bool>& live_;
  std::vector<int> region_of_;                 // region id (not yet find()-ed) of fusible nodes, else -1
  std::vector<std::vector<int>> deps_;         // other nodes: the regions they read, directly or through eager nodes
  std::vector<int> parent_;                    // union-find over region ids
  std::vector<std::vector<int>> region_deps_;  // per region: the regions its inputs depend on
};

}  // namespace

void group_elementwise_regions(Planning& p) {
  const std::vector<bool> live = live_nodes(p.graph);
  Grouping grouping(p.graph, live);
  grouping.run();
  p.regions = grouping.regions(p.region_of);
}

}  // namespace nxv::vulkan::fusion
