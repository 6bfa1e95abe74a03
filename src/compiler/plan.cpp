// Kernel programs and stage order (design in plan.hpp); region grouping is grouping.cpp, view folding index_map.cpp.
#include "compiler/plan.hpp"

#include <algorithm>
#include <functional>
#include <map>
#include <optional>
#include <sstream>

#include "compiler/grouping.hpp"
#include "compiler/index_map.hpp"
#include "compiler/op_table.hpp"
#include "nxv/error.hpp"
#include "vulkan/kernels/kernels.hpp"

namespace nxv::compiler {
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

 private:
  int value(NodeId start, const IndexMap& start_map) {
    auto [x, m] = resolve(g_, start, start_map, kernel_.domain);
    const auto key = std::make_pair(x, std::vector<std::int64_t>(m.strides.begin(), m.strides.end()));
    if (auto it = memo_.find(key); it != memo_.end()) return it->second;
    const Node& n = g_.nodes[x];
    const bool member = region_of_[x] == region_ && m.strides == identity_.strides;
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

// Keeps the instructions that the outputs need and the reads they use, renumbered.
Kernel prune(const Kernel& k, const std::vector<NodeId>& outputs, const std::map<NodeId, int>& member_value) {
  std::vector<bool> keep(k.program.size(), false);
  for (NodeId o : outputs) keep[member_value.at(o)] = true;
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
  return out;
}

std::vector<bool> live_nodes(const Graph& g) {
  std::vector<bool> live(g.nodes.size(), false);
  for (NodeId o : g.outputs) live[o] = true;
  for (std::size_t i = g.nodes.size(); i-- > 0;)
    if (live[i])
      for (NodeId in : g.nodes[i].inputs) live[in] = true;
  return live;
}

// The inputs an eager stage of `n` evaluates from (markers are aliases of one input).
std::vector<NodeId> eager_inputs(const Node& n) {
  if (n.kind == NodeKind::stop_gradient) return {n.inputs[0]};
  if (n.kind == NodeKind::custom_vjp) return {n.inputs.back()};
  return n.inputs;
}

struct Attempt {
  std::vector<Stage> stages;
  int oversized_region = -1;  // a region whose kernel needs more bindings than allowed
};

Attempt schedule(const Graph& g, const std::vector<std::vector<NodeId>>& regions, const std::vector<int>& region_of,
                 std::uint32_t max_bindings) {
  std::vector<Kernel> full(regions.size());
  std::vector<std::map<NodeId, int>> member_value(regions.size());
  for (std::size_t r = 0; r < regions.size(); ++r) {
    full[r] = KernelBuilder(g, region_of, static_cast<int>(r)).build(regions[r]);
    for (std::size_t i = 0; i < full[r].program.size(); ++i) {
      const Instruction& ins = full[r].program[i];
      if (ins.kind == Instruction::Kind::op && region_of[ins.node] == static_cast<int>(r) &&
          !member_value[r].count(ins.node) && g.nodes[ins.node].type.shape == full[r].domain)
        member_value[r][ins.node] = static_cast<int>(i);
    }
  }
  // Which values must exist as tensors: graph outputs, inputs of eager stages, reads of active kernels.
  std::vector<bool> needed(g.nodes.size(), false);
  std::vector<std::vector<NodeId>> outputs(regions.size());
  std::vector<Kernel> kernels(regions.size());
  std::vector<NodeId> work(g.outputs.begin(), g.outputs.end());
  for (bool changed = true; changed;) {
    while (!work.empty()) {
      const NodeId x = work.back();
      work.pop_back();
      if (needed[x]) continue;
      needed[x] = true;
      if (region_of[x] >= 0) {
        outputs[region_of[x]].push_back(x);
      } else {
        for (NodeId in : eager_inputs(g.nodes[x])) work.push_back(in);
      }
    }
    changed = false;
    for (std::size_t r = 0; r < regions.size(); ++r) {
      if (outputs[r].empty()) continue;
      std::sort(outputs[r].begin(), outputs[r].end());
      kernels[r] = prune(full[r], outputs[r], member_value[r]);
      for (const Read& read : kernels[r].reads)
        if (!needed[read.node]) {
          work.push_back(read.node);
          changed = true;
        }
    }
  }
  Attempt a;
  for (std::size_t r = 0; r < regions.size(); ++r)
    if (!outputs[r].empty() && kernels[r].bindings() > max_bindings && regions[r].size() > 1) {
      a.oversized_region = static_cast<int>(r);
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
    if (region_of[i] >= 0) {
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
  for (std::size_t s = 0; s < stages.size(); ++s) visit(static_cast<int>(s));
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

int Plan::fused_stages() const {
  return static_cast<int>(std::count_if(stages.begin(), stages.end(),
                                        [](const Stage& s) { return s.kind == Stage::Kind::fused; }));
}
int Plan::eager_stages() const { return static_cast<int>(stages.size()) - fused_stages(); }

Plan plan_stages(const Graph& graph, bool fuse, std::uint32_t max_bindings) {
  const std::vector<bool> live = live_nodes(graph);
  std::vector<int> region_of(graph.nodes.size(), -1);
  std::vector<std::vector<NodeId>> regions;
  if (fuse) {
    Regions grouped = group_regions(graph, live);
    regions = std::move(grouped.members);
    region_of = std::move(grouped.region_of);
  }
  for (;;) {
    Attempt a = schedule(graph, regions, region_of, max_bindings);
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
    if (num_elements(k.domain) > 0) ++dispatches;
    s << "fused " << to_string(k.domain) << ", " << ops << " ops (";
    for (std::size_t m = 0; m < st.members.size(); ++m)
      s << (m ? " " : "") << "%" << st.members[m] << "=" << format_call(graph.nodes[st.members[m]].call);
    s << "), reads";
    for (const Read& r : k.reads) s << " %" << r.node << to_string(r.strides);
    s << ", writes";
    for (const auto& [node, value] : k.outputs) s << " %" << node;
    s << "\n";
  }
  s << "  " << plan.stages.size() << " stages: " << plan.fused_stages() << " fused (" << dispatches
    << " dispatches), " << plan.eager_stages() << " eager\n";
  return s.str();
}

}  // namespace nxv::compiler