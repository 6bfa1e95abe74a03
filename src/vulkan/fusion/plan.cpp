// plan_stages: the planner's passes in order (passes.hpp), and the plan's helpers and printout.
#include "vulkan/fusion/plan.hpp"

#include <algorithm>
#include <sstream>

#include "vulkan/fusion/op_table.hpp"
#include "vulkan/fusion/passes.hpp"
#include "vulkan/kernels/kernels.hpp"

namespace nxv::vulkan::fusion {

std::vector<NodeId> eager_inputs(const Node& n) {
  if (n.kind == NodeKind::stop_gradient) return {n.inputs[0]};
  if (n.kind == NodeKind::custom_vjp) return {n.inputs.back()};
  return n.inputs;
}

namespace {

bool fits_u32(std::int64_t n) { return n >= 0 && n <= 0xffffffffLL; }

std::string eager_name(const Node& n) {
  switch (n.kind) {
    case NodeKind::op:
      return format_call(n.call);
    case NodeKind::control:
      return std::string(control_name(n.control->kind));
    case NodeKind::result:
      return "result(" + std::to_string(n.result) + ")";
    case NodeKind::stop_gradient:
      return "stop_gradient";
    default:
      return "custom_vjp";
  }
}

// "%7[9, 1]", or "%7[9, 1]+10" for a read from element 10.
std::string to_string(const Read& r) {
  return "%" + std::to_string(r.node) + to_string(r.strides) + (r.offset ? "+" + std::to_string(r.offset) : "");
}

}  // namespace

bool fusible(const Graph& graph, const Node& n) {
  if (n.kind != NodeKind::op || !fits_u32(num_elements(n.type.shape))) return false;
  auto in = [&](int k) -> const TensorType& { return graph.nodes[n.inputs[k]].type; };
  switch (n.call.code) {
    case OpCode::unary:
    case OpCode::unary_test: {
      const UnaryFn fn = n.call.attrs_as<UnaryAttrs>().fn;
      const ElementwiseEntry* e = unary_entry(fn);
      return e && in(0).shape == n.type.shape &&
             kernel_defines(e->cls, n.call.code == OpCode::unary_test, in(0).dtype) &&
             vulkan::kernels::elementwise_native(n.call.code, static_cast<std::int32_t>(fn), in(0).dtype);
    }
    case OpCode::binary:
    case OpCode::binary_test: {
      const BinaryFn fn = n.call.attrs_as<BinaryAttrs>().fn;
      const ElementwiseEntry* e = binary_entry(fn);
      return e && in(0).dtype == in(1).dtype &&
             kernel_defines(e->cls, n.call.code == OpCode::binary_test, in(0).dtype) &&
             vulkan::kernels::elementwise_native(n.call.code, static_cast<std::int32_t>(fn), in(0).dtype);
    }
    case OpCode::select:
      return size_of(in(0).dtype) == 1 && in(1).dtype == n.type.dtype && in(2).dtype == n.type.dtype;
    case OpCode::clip:
      return in(0).dtype == n.type.dtype && in(1).dtype == n.type.dtype && in(2).dtype == n.type.dtype;
    case OpCode::cast:
      return in(0).shape == n.type.shape;
    default:
      return false;
  }
}

std::size_t Kernel::bindings() const {
  std::size_t n = reads.size() + outputs.size() + (reduce >= 0 ? 1 : 0);
  for (const Kernel& i : inner)  // its reads and outputs, and its result; the outer kernel's reads of it bind nothing
    n += i.bindings() - static_cast<std::size_t>(std::count_if(reads.begin(), reads.end(),
                                                               [&](const Read& r) { return r.node == i.reduce; }));
  for (const Kernel& e : epilogue)
    n += e.outputs.size() + static_cast<std::size_t>(std::count_if(e.reads.begin(), e.reads.end(),
                                                                   [&](const Read& r) { return r.node != reduce; }));
  return n;
}

int Plan::fused_stages() const {
  return static_cast<int>(
      std::count_if(stages.begin(), stages.end(), [](const Stage& s) { return s.kind == Stage::Kind::fused; }));
}
int Plan::reduction_stages() const {
  return static_cast<int>(
      std::count_if(stages.begin(), stages.end(), [](const Stage& s) { return s.kind == Stage::Kind::reduction; }));
}
int Plan::contraction_stages() const {
  return static_cast<int>(
      std::count_if(stages.begin(), stages.end(), [](const Stage& s) { return s.kind == Stage::Kind::contraction; }));
}
int Plan::eager_stages() const {
  return static_cast<int>(stages.size()) - fused_stages() - reduction_stages() - contraction_stages();
}

Planning::Planning(const Graph& graph, std::uint32_t max_bindings, bool fuse_reductions)
    : graph(graph),
      max_bindings(max_bindings),
      fuse_reductions(fuse_reductions),
      region_of(graph.nodes.size(), -1),
      reduction_allowed(graph.nodes.size(), fuse_reductions) {}

Plan plan_stages(const Graph& graph, bool fuse, std::uint32_t max_bindings, bool fuse_reductions) {
  Planning p(graph, max_bindings, fuse && fuse_reductions);
  if (fuse) group_elementwise_regions(p);
  do {
    build_region_kernels(p);
    plan_reduction_stages(p);
    find_needed_values(p);
  } while (split_oversized_region(p) || keep_oversized_reduction_eager(p) || read_materialised_reduction_inputs(p));
  form_stages(p);
  if (p.fuse_reductions) {
    merge_epilogues(p);
    merge_nested_reductions(p);
  }
  order_stages(p);
  schedule_by_level(p);
  return Plan{std::move(p.stages)};
}

std::string to_string(const Plan& plan, const Graph& graph) {
  std::ostringstream s;
  int dispatches = 0;
  for (std::size_t i = 0; i < plan.stages.size(); ++i) {
    const Stage& st = plan.stages[i];
    s << "  stage " << i << ": ";
    if (st.kind == Stage::Kind::eager) {
      const Node& n = graph.nodes[st.node];
      s << "eager %" << st.node << " = " << eager_name(n) << " : " << to_string(n.type) << "\n";
      continue;
    }
    const Kernel& k = st.kernel;
    int ops = 0;
    for (const Instruction& ins : k.program) ops += ins.kind == Instruction::Kind::op;
    if (st.kind == Stage::Kind::reduction) {
      const Node& n = graph.nodes[st.node];
      const std::int64_t outputs = num_elements(n.type.shape);
      if (outputs > 0)
        dispatches += reduce_layout(k.domain, n.call.attrs_as<ReduceAttrs>().axes, outputs).chunks > 1 ? 2 : 1;
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
    for (const Read& r : k.reads) s << " " << to_string(r);
    s << ", writes";
    for (const auto& [node, value] : k.outputs) s << " %" << node;
    for (const Kernel& i : k.inner)
      s << "; inner " << format_call(graph.nodes[i.reduce].call) << " %" << i.reduce << " over " << to_string(i.domain);
    for (const Kernel& e : k.epilogue) {
      s << "; epilogue " << to_string(e.domain) << " (";
      for (std::size_t m = 0; m < e.program.size(); ++m)
        if (e.program[m].kind == Instruction::Kind::op) s << " %" << e.program[m].node;
      s << " ), reads";
      for (const Read& r : e.reads) s << " " << to_string(r);
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