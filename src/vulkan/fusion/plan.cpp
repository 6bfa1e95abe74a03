// Kernel programs and stage order (design: docs/fusion-compiler.md); regions: grouping.cpp, views: index_map.cpp.
#include "vulkan/fusion/plan.hpp"

#include <algorithm>
#include <functional>
#include <map>
#include <optional>
#include <sstream>

#include "vulkan/fusion/epilogue.hpp"
#include "vulkan/fusion/grouping.hpp"
#include "vulkan/fusion/index_map.hpp"
#include "vulkan/fusion/nested.hpp"
#include "vulkan/fusion/op_table.hpp"
#include "nxv/error.hpp"
#include "vulkan/kernels/kernels.hpp"

namespace nxv::vulkan::fusion {

std::vector<NodeId> eager_inputs(const Node& n) {
  if (n.kind == NodeKind::stop_gradient) return {n.inputs[0]};
  if (n.kind == NodeKind::custom_vjp) return {n.inputs.back()};
  return n.inputs;
}

namespace {

bool fits_u32(std::int64_t n) { return n >= 0 && n <= 0xffffffffLL; }

const Shape& shape_of(const Graph& g, NodeId id) { return g.nodes[id].type.shape; }


// ---- kernel programs ------------------------------------------------------------------------------------------
class KernelBuilder {
 public:
  KernelBuilder(const Graph& g, const std::vector<int>& region_of, int region)
      : g_(g), region_of_(region_of), region_(region) {}

  Kernel build(const std::vector<NodeId>& members) {
    kernel_.domain = shape_of(g_, members[0]);
    identity_ = identity_map(kernel_.domain);
    for (NodeId m : members) value(m, identity_);
    return std::move(kernel_);
  }

  // A reduction kernel of `reduce` over its input's shape: the members of the builder's region (when it has one),
  // then the reduction's input element.
  Kernel build_reduction(const std::vector<NodeId>& members, NodeId reduce) {
    kernel_.domain = shape_of(g_, g_.nodes[reduce].inputs[0]);
    identity_ = identity_map(kernel_.domain);
    for (NodeId m : members) value(m, identity_);
    kernel_.reduce = reduce;
    kernel_.reduce_value = value(g_.nodes[reduce].inputs[0], identity_);
    return std::move(kernel_);
  }

 private:
  int value(NodeId start, const IndexMap& start_map) {
    auto [x, m] = resolve(g_, start, start_map, kernel_.domain);
    const auto key = std::make_pair(x, std::vector<std::int64_t>(m.strides.begin(), m.strides.end()));
    if (auto it = memo_.find(key); it != memo_.end()) return it->second;
    const Node& n = g_.nodes[x];
    const bool member = region_ >= 0 && region_of_[x] == region_ && m.strides == identity_.strides;
    const bool inline_op = !member && inlined(g_, n, m, kernel_.domain);
    Instruction ins;
    const bool is_op = n.kind == NodeKind::op;
    std::optional<std::uint64_t> bits;
    if (n.kind == NodeKind::constant && n.constant.size() == 1) {
      bits = 0;
      n.constant.copy_to(std::as_writable_bytes(std::span(&*bits, 1)).first(size_of(n.type.dtype)));
    } else if (is_op && n.call.code == OpCode::full) {
      bits = vulkan::kernels::element_bits(n.call.attrs.scalar, n.type.dtype);
    }
    if (bits) ins.push = push_slot(*bits, n.type.dtype);
    if (ins.push >= 0) {
      ins.kind = Instruction::Kind::constant;
      ins.node = x;
    } else if (is_op && n.call.code == OpCode::iota && m.coords) {
      ins.kind = Instruction::Kind::iota;
      ins.node = x;
      const int d = m.axis[n.call.attrs.axis];
      if (d >= 0) {
        ins.inner = contiguous_strides(kernel_.domain)[d];
        ins.dim = kernel_.domain[d];
      }
    } else if (member || inline_op) {
      ins.kind = Instruction::Kind::op;
      ins.node = x;
      for (NodeId in : n.inputs)
        ins.args.push_back(value(in, numpy_input_map(m, shape_of(g_, in), n.type.shape, kernel_.domain)));
    } else {
      ins.kind = Instruction::Kind::read;
      ins.node = x;
      const Read r{x, m.strides};
      auto it = std::find(kernel_.reads.begin(), kernel_.reads.end(), r);
      ins.read = static_cast<int>(it - kernel_.reads.begin());
      if (it == kernel_.reads.end()) kernel_.reads.push_back(r);
    }
    kernel_.program.push_back(std::move(ins));
    const int index = static_cast<int>(kernel_.program.size()) - 1;
    memo_.emplace(key, index);
    return index;
  }

  // The push-constant word of a constant (shared by equal constants); -1 when the block is full.
  int push_slot(std::uint64_t bits, DType t) {
    const std::size_t words = size_of(t) == 8 ? 2 : 1;
    std::vector<std::uint32_t> value{static_cast<std::uint32_t>(bits)};
    if (words == 2) value.push_back(static_cast<std::uint32_t>(bits >> 32));
    auto& push = kernel_.push;
    for (std::size_t at = 0; at + words <= push.size(); ++at)
      if (std::equal(value.begin(), value.end(), push.begin() + static_cast<std::ptrdiff_t>(at)))
        return static_cast<int>(at);
    if (push.size() + words > kMaxPushWords) return -1;
    push.insert(push.end(), value.begin(), value.end());
    return static_cast<int>(push.size() - words);
  }

  const Graph& g_;
  const std::vector<int>& region_of_;
  int region_;
  Kernel kernel_;
  IndexMap identity_;
  std::map<std::pair<NodeId, std::vector<std::int64_t>>, int> memo_;
};

// Keeps the instructions that the outputs (and a reduction's input) need and the reads they use, renumbered.
Kernel prune(const Kernel& k, const std::vector<NodeId>& outputs, const std::map<NodeId, int>& member_value) {
  std::vector<bool> keep(k.program.size(), false);
  for (NodeId o : outputs) keep[member_value.at(o)] = true;
  if (k.reduce_value >= 0) keep[k.reduce_value] = true;
  for (std::size_t i = k.program.size(); i-- > 0;)
    if (keep[i])
      for (int a : k.program[i].args) keep[a] = true;
  Kernel out;
  out.domain = k.domain;
  out.push = k.push;
  std::vector<int> new_index(k.program.size(), -1), new_read(k.reads.size(), -1);
  for (std::size_t i = 0; i < k.program.size(); ++i) {
    if (!keep[i]) continue;
    Instruction ins = k.program[i];
    for (int& a : ins.args) a = new_index[a];
    if (ins.kind == Instruction::Kind::read) {
      if (new_read[ins.read] < 0) {
        new_read[ins.read] = static_cast<int>(out.reads.size());
        out.reads.push_back(k.reads[ins.read]);
      }
      ins.read = new_read[ins.read];
    }
    new_index[i] = static_cast<int>(out.program.size());
    out.program.push_back(std::move(ins));
  }
  for (NodeId o : outputs) out.outputs.emplace_back(o, new_index[member_value.at(o)]);
  out.reduce = k.reduce;
  if (k.reduce_value >= 0) out.reduce_value = new_index[k.reduce_value];
  return out;
}

// The region members a kernel computes at its own domain element (those it can write as outputs).
std::map<NodeId, int> member_values(const Graph& g, const Kernel& k, const std::vector<int>& region_of, int r) {
  std::map<NodeId, int> values;
  for (std::size_t i = 0; i < k.program.size(); ++i) {
    const Instruction& ins = k.program[i];
    if (r >= 0 && ins.kind == Instruction::Kind::op && region_of[ins.node] == r && !values.count(ins.node) &&
        g.nodes[ins.node].type.shape == k.domain)
      values[ins.node] = static_cast<int>(i);
  }
  return values;
}

// A candidate reduction stage: the region it computes the members of (-1: none) and its kernel before pruning.
struct Reduction {
  int region = -1;
  Kernel full;
  std::map<NodeId, int> member_value;
};

std::map<NodeId, Reduction> plan_reductions(const Graph& g, const std::vector<std::vector<NodeId>>& regions,
                                            const std::vector<int>& region_of, const std::vector<bool>& allowed) {
  std::map<NodeId, Reduction> out;
  for (std::size_t i = 0; i < g.nodes.size(); ++i) {
    if (!allowed[i] || !reducible(g, g.nodes[i])) continue;
    const NodeId input = g.nodes[i].inputs[0];
    const Shape& domain = shape_of(g, input);
    const IndexMap identity = identity_map(domain);
    const auto [x, m] = resolve(g, input, identity, domain);
    int region = region_of[x];
    if (region >= 0 && !(shape_of(g, regions[region][0]) == domain && m.strides == identity.strides)) region = -1;
    Reduction red;
    red.region = region;
    red.full = KernelBuilder(g, region_of, region)
                   .build_reduction(region >= 0 ? regions[region] : std::vector<NodeId>{}, static_cast<NodeId>(i));
    // Only a computed input pays: a reduction of a materialised value keeps the eager (vectorised) kernel.
    if (red.full.program[red.full.reduce_value].kind != Instruction::Kind::op) continue;
    red.member_value = member_values(g, red.full, region_of, region);
    out.emplace(static_cast<NodeId>(i), std::move(red));
  }
  return out;
}

struct Attempt {
  std::vector<Stage> stages;
  int oversized_region = -1;      // a region whose kernel needs more bindings than allowed
  NodeId oversized_reduction = -1;  // a reduction stage that does
};

Attempt schedule(const Graph& g, const std::vector<std::vector<NodeId>>& regions, const std::vector<int>& region_of,
                 const std::vector<bool>& reductions_allowed, bool epilogues, std::uint32_t max_bindings) {
  std::vector<Kernel> full(regions.size());
  std::vector<std::map<NodeId, int>> member_value(regions.size());
  for (std::size_t r = 0; r < regions.size(); ++r) {
    full[r] = KernelBuilder(g, region_of, static_cast<int>(r)).build(regions[r]);
    member_value[r] = member_values(g, full[r], region_of, static_cast<int>(r));
  }
  std::map<NodeId, Reduction> reductions = plan_reductions(g, regions, region_of, reductions_allowed);
  // The reduction that absorbs each region: the first one computing its members.
  std::vector<NodeId> absorber(regions.size(), -1);
  for (const auto& [node, red] : reductions)
    if (red.region >= 0 && absorber[red.region] < 0) absorber[red.region] = node;

  // Which values must exist as tensors: graph outputs, inputs of eager stages, reads of active kernels.
  std::vector<bool> needed(g.nodes.size(), false);
  std::vector<std::vector<NodeId>> outputs(regions.size());
  std::vector<Kernel> kernels(regions.size());
  std::map<NodeId, Kernel> reduction_kernels;  // the needed reduction stages'
  std::vector<NodeId> work(g.outputs.begin(), g.outputs.end());
  auto absorbed = [&](std::size_t r) { return absorber[r] >= 0 && needed[absorber[r]]; };
  for (bool changed = true; changed;) {
    while (!work.empty()) {
      const NodeId x = work.back();
      work.pop_back();
      if (needed[x]) continue;
      needed[x] = true;
      if (region_of[x] >= 0) {
        outputs[region_of[x]].push_back(x);
      } else if (!reductions.count(x)) {
        for (NodeId in : eager_inputs(g.nodes[x])) work.push_back(in);
      }
    }
    changed = false;
    auto need_reads = [&](const Kernel& k) {
      for (const Read& read : k.reads)
        if (!needed[read.node]) {
          work.push_back(read.node);
          changed = true;
        }
    };
    for (std::size_t r = 0; r < regions.size(); ++r) {
      if (outputs[r].empty() || absorbed(r)) continue;
      std::sort(outputs[r].begin(), outputs[r].end());
      kernels[r] = prune(full[r], outputs[r], member_value[r]);
      need_reads(kernels[r]);
    }
    for (const auto& [node, red] : reductions) {
      if (!needed[node]) continue;
      std::vector<NodeId> written;
      if (red.region >= 0 && absorber[red.region] == node) {
        written = outputs[red.region];
        std::sort(written.begin(), written.end());
      }
      reduction_kernels[node] = prune(red.full, written, red.member_value);
      need_reads(reduction_kernels[node]);
    }
  }
  Attempt a;
  for (std::size_t r = 0; r < regions.size(); ++r)
    if (!outputs[r].empty() && !absorbed(r) && kernels[r].bindings() > max_bindings && regions[r].size() > 1) {
      a.oversized_region = static_cast<int>(r);
      return a;
    }
  for (const auto& [node, k] : reduction_kernels)
    if (k.bindings() > max_bindings) {
      a.oversized_reduction = node;
      return a;
    }

  // Stages, then their order: a depth-first topological sort over stage dependencies, visiting stages in the
  // order of their first node so the result stays close to the traced order.
  std::vector<int> stage_of(g.nodes.size(), -1);
  std::vector<Stage> stages;
  std::vector<NodeId> first_node;
  for (std::size_t i = 0; i < g.nodes.size(); ++i) {
    if (!needed[i]) continue;
    const Node& n = g.nodes[i];
    const NodeId reduction = region_of[i] >= 0 && absorbed(region_of[i]) ? absorber[region_of[i]]
                             : reduction_kernels.count(static_cast<NodeId>(i)) ? static_cast<NodeId>(i)
                                                                               : -1;
    if (reduction >= 0) {
      if (stage_of[reduction] < 0) {
        const int r = reductions.at(reduction).region;
        const bool absorbs = r >= 0 && absorber[r] == reduction;
        std::vector<NodeId> members = absorbs ? regions[r] : std::vector<NodeId>{};
        members.push_back(reduction);
        stages.push_back(Stage{Stage::Kind::reduction, reduction, reduction_kernels.at(reduction), members});
        first_node.push_back(static_cast<NodeId>(i));
        for (NodeId m : members) stage_of[m] = static_cast<int>(stages.size()) - 1;
      }
    } else if (region_of[i] >= 0) {
      const int r = region_of[i];
      if (stage_of[regions[r][0]] < 0) {
        Stage s{Stage::Kind::fused, -1, kernels[r], regions[r]};
        stages.push_back(std::move(s));
        first_node.push_back(static_cast<NodeId>(i));
        for (NodeId m : regions[r]) stage_of[m] = static_cast<int>(stages.size()) - 1;
      }
    } else if (n.kind != NodeKind::parameter && n.kind != NodeKind::constant) {
      stages.push_back(Stage{Stage::Kind::eager, static_cast<NodeId>(i), {}, {}});
      first_node.push_back(static_cast<NodeId>(i));
      stage_of[i] = static_cast<int>(stages.size()) - 1;
    }
  }
  std::vector<std::vector<int>> deps(stages.size());
  for (std::size_t s = 0; s < stages.size(); ++s) {
    std::vector<NodeId> inputs;
    if (stages[s].kind == Stage::Kind::eager)
      inputs = eager_inputs(g.nodes[stages[s].node]);
    else
      for (const Read& r : stages[s].kernel.reads) inputs.push_back(r.node);
    for (NodeId x : inputs)
      if (stage_of[x] >= 0 && stage_of[x] != static_cast<int>(s)) deps[s].push_back(stage_of[x]);
  }
  // Regions over a reduction's results join it as its epilogue; their stages are dropped, and stages that
  // depended on them depend on the reduction.
  std::vector<int> merged_into =
      epilogues ? merge_epilogues(g, stages, deps, max_bindings) : std::vector<int>(stages.size(), -1);
  if (epilogues) merge_nested_reductions(g, stages, deps, merged_into, max_bindings);
  // A host runs after everything its epilogue reads.
  for (std::size_t s = 0; s < stages.size(); ++s)
    if (merged_into[s] >= 0) deps[merged_into[s]].insert(deps[merged_into[s]].end(), deps[s].begin(), deps[s].end());
  for (std::size_t s = 0; s < stages.size(); ++s) {
    std::vector<int> redirected;
    for (int d : deps[s]) {
      const int to = merged_into[d] >= 0 ? merged_into[d] : d;
      if (to != static_cast<int>(s) && std::find(redirected.begin(), redirected.end(), to) == redirected.end())
        redirected.push_back(to);
    }
    deps[s] = std::move(redirected);
  }
  std::vector<int> state(stages.size(), 0), order, path;
  std::function<void(int)> visit = [&](int s) {
    if (state[s] == 2) return;
    if (state[s] == 1) {
      std::ostringstream cycle;
      for (int p : path) {
        cycle << " -> stage of %" << first_node[p];
        for (NodeId m : stages[p].members) cycle << " %" << m;
      }
      detail::fail("fusion compiler: the stage plan has a cycle (a bug in region grouping):", cycle.str(),
                   " -> stage of %", first_node[s]);
    }
    state[s] = 1;
    path.push_back(s);
    for (int d : deps[s]) visit(d);
    path.pop_back();
    state[s] = 2;
    order.push_back(s);
  };
  for (std::size_t s = 0; s < stages.size(); ++s)
    if (merged_into[s] < 0) visit(static_cast<int>(s));
  for (int s : order) a.stages.push_back(std::move(stages[s]));
  return a;
}

}  // namespace

bool fusible(const Graph& graph, const Node& n) {
  if (n.kind != NodeKind::op || !fits_u32(num_elements(n.type.shape))) return false;
  auto in = [&](int k) -> const TensorType& { return graph.nodes[n.inputs[k]].type; };
  switch (n.call.code) {
    case OpCode::unary:
    case OpCode::unary_test: {
      const ElementwiseEntry* e = unary_entry(n.call.attrs.fn);
      return e && in(0).shape == n.type.shape &&
             kernel_defines(e->cls, n.call.code == OpCode::unary_test, in(0).dtype);
    }
    case OpCode::binary:
    case OpCode::binary_test: {
      const ElementwiseEntry* e = binary_entry(n.call.attrs.fn);
      return e && in(0).dtype == in(1).dtype &&
             kernel_defines(e->cls, n.call.code == OpCode::binary_test, in(0).dtype);
    }
    case OpCode::select:
      return size_of(in(0).dtype) == 1 && in(1).dtype == n.type.dtype && in(2).dtype == n.type.dtype;
    case OpCode::clip:
      return in(0).dtype == n.type.dtype && in(1).dtype == n.type.dtype && in(2).dtype == n.type.dtype;
    case OpCode::cast: return in(0).shape == n.type.shape;
    default: return false;
  }
}

std::size_t Kernel::bindings() const {
  std::size_t n = reads.size() + outputs.size() + (reduce >= 0 ? 1 : 0);
  for (const Kernel& i : inner)  // its reads and outputs, and its result; the outer kernel's reads of it bind nothing
    n += i.bindings() - static_cast<std::size_t>(std::count_if(
                             reads.begin(), reads.end(), [&](const Read& r) { return r.node == i.reduce; }));
  for (const Kernel& e : epilogue)
    n += e.outputs.size() + static_cast<std::size_t>(std::count_if(
                                e.reads.begin(), e.reads.end(), [&](const Read& r) { return r.node != reduce; }));
  return n;
}

int Plan::fused_stages() const {
  return static_cast<int>(std::count_if(stages.begin(), stages.end(),
                                        [](const Stage& s) { return s.kind == Stage::Kind::fused; }));
}
int Plan::reduction_stages() const {
  return static_cast<int>(std::count_if(stages.begin(), stages.end(),
                                        [](const Stage& s) { return s.kind == Stage::Kind::reduction; }));
}
int Plan::contraction_stages() const {
  return static_cast<int>(std::count_if(stages.begin(), stages.end(),
                                        [](const Stage& s) { return s.kind == Stage::Kind::contraction; }));
}
int Plan::eager_stages() const {
  return static_cast<int>(stages.size()) - fused_stages() - reduction_stages() - contraction_stages();
}

Plan plan_stages(const Graph& graph, bool fuse, std::uint32_t max_bindings, bool fuse_reductions) {
  const std::vector<bool> live = live_nodes(graph);
  std::vector<int> region_of(graph.nodes.size(), -1);
  std::vector<std::vector<NodeId>> regions;
  if (fuse) {
    Regions grouped = group_regions(graph, live);
    regions = std::move(grouped.members);
    region_of = std::move(grouped.region_of);
  }
  std::vector<bool> reductions_allowed(graph.nodes.size(), fuse && fuse_reductions);
  for (;;) {
    Attempt a = schedule(graph, regions, region_of, reductions_allowed, fuse && fuse_reductions, max_bindings);
    if (a.oversized_reduction >= 0) {  // too many buffers: that reduction stays eager
      reductions_allowed[a.oversized_reduction] = false;
      continue;
    }
    if (a.oversized_region < 0) return Plan{std::move(a.stages)};
    // Too many buffers for one kernel: split the region in topological order; the later half only reads the
    // earlier one, so the stage graph stays acyclic.
    std::vector<NodeId>& members = regions[a.oversized_region];
    std::vector<NodeId> tail(members.begin() + static_cast<std::ptrdiff_t>(members.size() / 2), members.end());
    members.resize(members.size() / 2);
    for (NodeId m : tail) region_of[m] = static_cast<int>(regions.size());
    regions.push_back(std::move(tail));
  }
}

std::string to_string(const Plan& plan, const Graph& graph) {
  std::ostringstream s;
  int dispatches = 0;
  for (std::size_t i = 0; i < plan.stages.size(); ++i) {
    const Stage& st = plan.stages[i];
    s << "  stage " << i << ": ";
    if (st.kind == Stage::Kind::eager) {
      const Node& n = graph.nodes[st.node];
      s << "eager %" << st.node << " = "
        << (n.kind == NodeKind::op ? format_call(n.call) : std::string(n.kind == NodeKind::stop_gradient
                                                                            ? "stop_gradient"
                                                                            : "custom_vjp"))
        << " : " << to_string(n.type) << "\n";
      continue;
    }
    const Kernel& k = st.kernel;
    int ops = 0;
    for (const Instruction& ins : k.program) ops += ins.kind == Instruction::Kind::op;
    if (st.kind == Stage::Kind::reduction) {
      const Node& n = graph.nodes[st.node];
      const std::int64_t outputs = num_elements(n.type.shape);
      if (outputs > 0) dispatches += reduce_layout(k.domain, n.call.attrs.axes, outputs).chunks > 1 ? 2 : 1;
      s << "reduction %" << st.node << " = " << format_call(n.call) << " : " << to_string(n.type) << " over ";
    } else if (st.kind == Stage::Kind::contraction) {
      const Node& n = graph.nodes[st.node];
      ++dispatches;
      s << "contraction %" << st.node << " = " << format_call(n.call) << " : " << to_string(n.type)
        << (k.transposed ? " (computed transposed)" : "") << " over ";
    } else {
      if (num_elements(k.domain) > 0) ++dispatches;
      s << "fused ";
    }
    s << to_string(k.domain) << ", " << ops << " ops (";
    for (std::size_t m = 0; m < st.members.size(); ++m)
      s << (m ? " " : "") << "%" << st.members[m] << "=" << format_call(graph.nodes[st.members[m]].call);
    s << "), reads";
    for (const Read& r : k.reads) s << " %" << r.node << to_string(r.strides);
    s << ", writes";
    for (const auto& [node, value] : k.outputs) s << " %" << node;
    for (const Kernel& i : k.inner)
      s << "; inner " << format_call(graph.nodes[i.reduce].call) << " %" << i.reduce << " over " << to_string(i.domain);
    for (const Kernel& e : k.epilogue) {
      s << "; epilogue " << to_string(e.domain) << " (";
      for (std::size_t m = 0; m < e.program.size(); ++m)
        if (e.program[m].kind == Instruction::Kind::op) s << " %" << e.program[m].node;
      s << " ), reads";
      for (const Read& r : e.reads) s << " %" << r.node << to_string(r.strides);
      s << ", writes";
      for (const auto& [node, value] : e.outputs) s << " %" << node;
    }
    s << "\n";
  }
  s << "  " << plan.stages.size() << " stages: " << plan.fused_stages() << " fused, " << plan.reduction_stages()
    << " reductions, " << plan.contraction_stages() << " contractions (" << dispatches << " dispatches), "
    << plan.eager_stages() << " eager\n";
  return s.str();
}

}  // namespace nxv::vulkan::fusion