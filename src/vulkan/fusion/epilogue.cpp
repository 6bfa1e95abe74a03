// Pass merge_epilogues (passes.hpp): a region over a reduction's (dot's, conv's) results joins that stage as its
// epilogue, run by the lane that stores each result (docs/fusion-compiler.md, "Epilogues", "Contraction stages").
#include "vulkan/fusion/epilogue.hpp"

#include <algorithm>
#include <utility>

#include "vulkan/fusion/index_map.hpp"
#include "vulkan/fusion/passes.hpp"
#include "vulkan/kernels/conv.hpp"
#include "vulkan/kernels/dot.hpp"

namespace nxv::vulkan::fusion {
namespace {

// Whether an eager stage is a dot (conv) that a generated copy of the tiled dot (unsplit conv) kernel can compute
// with an epilogue.
bool contraction_host(const Graph& g, const Stage& s) {
  if (s.kind != Stage::Kind::eager) return false;
  const Node& n = g.nodes[s.node];
  // (An eager op without operands, such as an iota inside a loop body, has no inputs to look at.)
  if (n.kind != NodeKind::op || (n.call.code != OpCode::dot && n.call.code != OpCode::conv)) return false;
  const TensorType& a = g.nodes[n.inputs[0]].type;
  if (n.call.code == OpCode::dot) return vulkan::kernels::runs_tiled_dot(n.call, a, g.nodes[n.inputs[1]].type, n.type);
  if (n.call.code == OpCode::conv)
    return vulkan::kernels::runs_unsplit_conv(n.call, a, g.nodes[n.inputs[1]].type, n.type);
  return false;
}

// The reduce (or dot) node a stage computes, when it could take an epilogue: a reduction stage without one, an
// eager reduce the generated kernel computes, of one chunk per (non-empty) output, or a contraction host.
NodeId epilogue_host(const Graph& g, const Stage& s) {
  if (contraction_host(g, s)) return s.node;
  NodeId node = -1;
  if (s.kind == Stage::Kind::reduction && s.kernel.epilogue.empty()) node = s.node;
  if (s.kind == Stage::Kind::eager && reducible(g, g.nodes[s.node])) node = s.node;
  if (node < 0) return -1;
  const Node& n = g.nodes[node];
  const std::int64_t outputs = num_elements(n.type.shape);
  if (outputs == 0) return -1;
  const ReduceLayout l = reduce_layout(g.nodes[n.inputs[0]].type.shape, n.call.attrs_as<ReduceAttrs>().axes, outputs);
  return l.chunks == 1 ? node : -1;
}

// A contraction stage's kernel, before its epilogue: the dot and its operands.
Kernel contraction_kernel(const Graph& g, NodeId dot, bool transposed) {
  Kernel k;
  k.domain = g.nodes[dot].type.shape;
  for (NodeId operand : g.nodes[dot].inputs) k.reads.push_back(Read{operand, {}});
  k.reduce = dot;
  k.transposed = transposed;
  return k;
}

// Whether a region of `domain` reads the 2-D result `shape` of a dot transposed at every read (`reads`: its reads
// of that result).
bool reads_transposed(const Shape& shape, const Shape& domain, const std::vector<Read>& reads, NodeId result) {
  if (shape.size() != 2 || domain.size() != 2 || domain[0] != shape[1] || domain[1] != shape[0]) return false;
  const Shape transposed{1, shape[1]};
  return std::all_of(reads.begin(), reads.end(),
                     [&](const Read& x) { return x.node != result || x.plain(transposed); });
}

// Whether any stage but `except`, or the graph's outputs, read `node`.
bool read_elsewhere(const Graph& g, const std::vector<Stage>& stages, NodeId node, std::size_t except) {
  if (std::find(g.outputs.begin(), g.outputs.end(), node) != g.outputs.end()) return true;
  for (std::size_t s = 0; s < stages.size(); ++s) {
    if (s == except) continue;
    const Stage& st = stages[s];
    if (st.kind == Stage::Kind::eager) {
      const std::vector<NodeId> in = eager_inputs(g.nodes[st.node]);
      if (std::find(in.begin(), in.end(), node) != in.end()) return true;
      continue;
    }
    for (const Kernel* k : {&st.kernel, st.kernel.epilogue.empty() ? nullptr : &st.kernel.epilogue[0]})
      if (k != nullptr)
        for (const Read& r : k->reads)
          if (r.node == node) return true;
  }
  return false;
}

// The transposed dot as its own call: operands swapped, so its result is [N, M] for the original [M, N].
bool transposed_dot_runs_tiled(const Graph& g, NodeId dot) {
  const Node& n = g.nodes[dot];
  if (!n.call.attrs_as<DotAttrs>().batch_a.empty()) return false;
  const TransposedDot t = transposed_dot(n);
  return vulkan::kernels::runs_tiled_dot(t.call, g.nodes[n.inputs[1]].type, g.nodes[n.inputs[0]].type, t.type);
}

// A reduction stage computing an eager reduce from its materialised input.
Kernel reading_kernel(const Graph& g, NodeId reduce) {
  const NodeId input = g.nodes[reduce].inputs[0];
  Kernel k;
  k.domain = g.nodes[input].type.shape;
  k.reads.push_back(Read{input, identity_map(k.domain).strides});
  Instruction read;
  read.kind = Instruction::Kind::read;
  read.node = input;
  read.read = 0;
  k.program.push_back(read);
  k.reduce = reduce;
  k.reduce_value = 0;
  return k;
}

}  // namespace

TransposedDot transposed_dot(const Node& dot) {
  DotAttrs swapped = dot.call.attrs_as<DotAttrs>();
  std::swap(swapped.contract_a, swapped.contract_b);
  return {OpCall{OpCode::dot, swapped}, {{dot.type.shape[1], dot.type.shape[0]}, dot.type.dtype}};
}

// A region stage merges into the first stage it reads that can host it; the merged stage is left in place and
// marked (merged_into), and an eager reduce that receives an epilogue becomes a reduction stage reading its input.
void merge_epilogues(Planning& p) {
  const Graph& g = p.graph;
  std::vector<Stage>& stages = p.stages;
  std::vector<int>& merged_into = p.merged_into;
  const std::uint32_t max_bindings = p.max_bindings;
  std::vector<std::vector<int>> deps = p.deps;  // kept up to date with the merges made so far
  std::vector<int> stage_of_node(g.nodes.size(), -1);
  for (std::size_t s = 0; s < stages.size(); ++s)
    if (stages[s].node >= 0) stage_of_node[stages[s].node] = static_cast<int>(s);
  std::vector<char> taken(stages.size(), 0);  // hosts that received an epilogue
  for (std::size_t c = 0; c < stages.size(); ++c) {
    const Stage& region = stages[c];
    if (region.kind != Stage::Kind::fused) continue;
    const Kernel& k = region.kernel;
    // The host: a reduction whose result the region reads element for element, and only that way.
    for (const Read& r : k.reads) {
      const int host = stage_of_node[r.node];
      if (host < 0 || taken[host] || merged_into[host] >= 0 || epilogue_host(g, stages[host]) != r.node) continue;
      const NodeId reduce = r.node;
      if (num_elements(g.nodes[reduce].type.shape) != num_elements(k.domain)) continue;
      const Shape identity = identity_map(k.domain).strides;
      const bool contraction = contraction_host(g, stages[host]);
      bool transposed = false;
      if (!std::all_of(k.reads.begin(), k.reads.end(),
                       [&](const Read& x) { return x.node != reduce || x.plain(identity); })) {
        transposed = contraction && g.nodes[reduce].call.code == OpCode::dot &&
                     reads_transposed(g.nodes[reduce].type.shape, k.domain, k.reads, reduce) &&
                     !read_elsewhere(g, stages, reduce, c) && transposed_dot_runs_tiled(g, reduce);
        if (!transposed) continue;
      }
      if (depends_indirectly(deps, static_cast<int>(c), host)) continue;  // merging would make a cycle
      Kernel merged = contraction                                   ? contraction_kernel(g, reduce, transposed)
                      : stages[host].kind == Stage::Kind::reduction ? stages[host].kernel
                                                                    : reading_kernel(g, reduce);
      merged.epilogue.push_back(k);
      const std::size_t host_push = !contraction                               ? merged.push.size()
                                    : g.nodes[reduce].call.code == OpCode::dot ? kDotPushWords
                                                                               : vulkan::kernels::kConvPushWords;
      if (merged.bindings() > max_bindings || host_push + k.push.size() > kMaxPushWords) continue;
      Stage& h = stages[host];
      if (h.kind == Stage::Kind::eager) h.members = {reduce};
      h.kind = contraction ? Stage::Kind::contraction : Stage::Kind::reduction;
      h.kernel = std::move(merged);
      h.members.insert(h.members.end(), region.members.begin(), region.members.end());
      taken[host] = 1;
      merged_into[c] = host;
      // The merged stage depends on what either did; stages that depended on the region depend on it.
      for (int d : deps[c])
        if (d != host && std::find(deps[host].begin(), deps[host].end(), d) == deps[host].end())
          deps[host].push_back(d);
      deps[c].clear();
      for (std::size_t s = 0; s < stages.size(); ++s)
        for (int& d : deps[s])
          if (d == static_cast<int>(c)) d = host;
      break;
    }
  }
}

}  // namespace nxv::vulkan::fusion
