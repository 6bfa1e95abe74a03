// Pass merge_nested_reductions (passes.hpp): a reduction to one value over the results of a reduction of short
// rows -- a loss's mean over the per-example losses -- computes those rows in its own workgroup, in the eager
// kernel's order (docs/fusion-compiler.md, "Nested reductions"; the kernel: codegen.cpp's emit_nested).
#include <algorithm>

#include "vulkan/fusion/index_map.hpp"
#include "vulkan/fusion/passes.hpp"

namespace nxv::vulkan::fusion {
namespace {

// Inner reductions over at most this many elements per output (the lanes that emulate the eager kernel's 256),
// and at most this many outputs (kept in shared memory), qualify.
constexpr std::int64_t kNestedInnerLength = 32;
constexpr std::int64_t kNestedInnerOutputs = 2048;

// The stage's reduction layout when it is a generated reduction of one chunk per output; outputs 0 otherwise.
ReduceLayout layout_of(const Graph& g, const Stage& s) {
  if (s.kind != Stage::Kind::reduction) return {};
  const Node& n = g.nodes[s.node];
  const std::int64_t outputs = num_elements(n.type.shape);
  if (outputs == 0) return {};
  ReduceLayout l = reduce_layout(s.kernel.domain, n.call.attrs_as<ReduceAttrs>().axes, outputs);
  return l.chunks == 1 ? l : ReduceLayout{};
}

}  // namespace

// Each outer reduction to one value takes the first qualifying inner reduction stage it reads (its kernel.inner);
// the inner stage is left in place and marked (merged_into), as are the stages merged into it.
void merge_nested_reductions(Planning& p) {
  const Graph& g = p.graph;
  std::vector<Stage>& stages = p.stages;
  std::vector<int>& merged_into = p.merged_into;
  const std::vector<std::vector<int>>& original = p.deps;
  const std::uint32_t max_bindings = p.max_bindings;
  // The dependencies with the merges so far applied: a merged stage's edges belong to the stage it joined.
  auto current_deps = [&] {
    std::vector<std::vector<int>> deps(stages.size());
    auto target = [&](int s) { return merged_into[s] >= 0 ? merged_into[s] : s; };
    for (std::size_t s = 0; s < stages.size(); ++s)
      for (int d : original[s]) {
        const int from = target(static_cast<int>(s)), to = target(d);
        if (from != to && std::find(deps[from].begin(), deps[from].end(), to) == deps[from].end())
          deps[from].push_back(to);
      }
    return deps;
  };
  std::vector<int> stage_of_node(g.nodes.size(), -1);
  for (std::size_t s = 0; s < stages.size(); ++s)
    if (stages[s].node >= 0 && stages[s].kind == Stage::Kind::reduction)
      stage_of_node[stages[s].node] = static_cast<int>(s);
  for (std::size_t o = 0; o < stages.size(); ++o) {
    Stage& outer = stages[o];
    if (merged_into[o] >= 0 || !outer.kernel.inner.empty()) continue;
    const ReduceLayout lo = layout_of(g, outer);
    if (lo.outputs != 1) continue;
    for (const Read& r : outer.kernel.reads) {
      const int i = stage_of_node[r.node];
      if (i < 0 || i == static_cast<int>(o) || merged_into[i] >= 0) continue;
      const Stage& inner = stages[i];
      const ReduceLayout li = layout_of(g, inner);
      if (li.outputs == 0 || li.length > kNestedInnerLength || li.outputs > kNestedInnerOutputs) continue;
      if (!inner.kernel.epilogue.empty() || !inner.kernel.inner.empty()) continue;
      // The outer reduction runs over the inner results, reading them element for element and only that way.
      if (num_elements(outer.kernel.domain) != li.outputs) continue;
      const Shape identity = identity_map(outer.kernel.domain).strides;
      if (!std::all_of(outer.kernel.reads.begin(), outer.kernel.reads.end(),
                       [&](const Read& x) { return x.node != r.node || x.plain(identity); }))
        continue;
      if (depends_indirectly(current_deps(), static_cast<int>(o), i)) continue;  // merging would make a cycle
      Kernel merged = outer.kernel;
      merged.inner.push_back(inner.kernel);
      std::size_t push = merged.push.size() + inner.kernel.push.size();
      for (const Kernel& e : merged.epilogue) push += e.push.size();
      if (merged.bindings() > max_bindings || push > kMaxPushWords) continue;
      outer.kernel = std::move(merged);
      outer.members.insert(outer.members.begin(), inner.members.begin(), inner.members.end());
      merged_into[i] = static_cast<int>(o);
      for (std::size_t s = 0; s < stages.size(); ++s)
        if (merged_into[s] == i) merged_into[s] = static_cast<int>(o);
      break;
    }
  }
}

}  // namespace nxv::vulkan::fusion
