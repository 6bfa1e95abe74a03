// Looped stages (looped.hpp): detection over the body's stage plan, and the one dispatch.
#include "vulkan/fusion/looped.hpp"

#include <algorithm>

#include "vulkan/fusion/plan.hpp"
#include "vulkan/fusion/shader_cache.hpp"
#include "vulkan/kernels/kernels.hpp"
#include "vulkan/runtime/runtime_shaders.hpp"
#include "vulkan/runtime/storage.hpp"

namespace nxv::vulkan::fusion {
namespace {

// Whether `read` addresses element i of a tensor of `domain`'s shape (axes of size 1 aside).
bool reads_own_element(const Read& read, const Shape& domain) {
  if (read.offset != 0) return false;
  const Shape contiguous = vulkan::kernels::row_major(domain);
  for (int d = 0; d < domain.size(); ++d)
    if (domain[d] > 1 && read.strides[d] != contiguous[d]) return false;
  return true;
}

// Independent fused kernels of one domain (a body computing its carries separately) as one: their reads shared,
// their programs one after the other, their push words concatenated.
Kernel merged(const std::vector<const Kernel*>& parts) {
  Kernel m;
  m.domain = parts[0]->domain;
  for (const Kernel* k : parts) {
    std::vector<int> read_at;
    for (const Read& r : k->reads) {
      const auto found = std::find(m.reads.begin(), m.reads.end(), r);
      read_at.push_back(static_cast<int>(found - m.reads.begin()));
      if (found == m.reads.end()) m.reads.push_back(r);
    }
    const int base = static_cast<int>(m.program.size()), push = static_cast<int>(m.push.size());
    for (Instruction ins : k->program) {
      if (ins.kind == Instruction::Kind::read) ins.read = read_at[static_cast<std::size_t>(ins.read)];
      if (ins.kind == Instruction::Kind::constant) ins.push += push;
      for (int& a : ins.args) a += base;
      m.program.push_back(std::move(ins));
    }
    m.push.insert(m.push.end(), k->push.begin(), k->push.end());
    for (const auto& [node, value] : k->outputs) m.outputs.emplace_back(node, value + base);
  }
  return m;
}

}  // namespace

std::optional<LoopedStage> looped_stage(const ControlFlow& cf) {
  if (cf.kind != ControlFlow::Kind::fori_loop || cf.hi <= cf.lo || cf.operands == 0) return std::nullopt;
  const Graph& body = *cf.bodies[0];
  const std::uint32_t max_bindings = vulkan::runtime().features().max_bindings;
  const Plan plan = plan_stages(body, true, max_bindings, true);
  std::vector<const Kernel*> parts;
  for (const Stage& st : plan.stages) {
    if (st.kind != Stage::Kind::fused || st.kernel.domain != plan.stages[0].kernel.domain) return std::nullopt;
    parts.push_back(&st.kernel);
  }
  if (parts.empty()) return std::nullopt;
  LoopedStage ls{merged(parts), {cf.lo, cf.hi, {}, -1, {}, {}}, nullptr, {}};
  const Kernel& k = ls.kernel;
  if (k.bindings() > max_bindings || k.push.size() + kLoopPushWords > kMaxPushWords) return std::nullopt;
  const std::int64_t elements = num_elements(k.domain);
  if (elements <= 0 || elements > 0xffffffffLL) return std::nullopt;
  for (int j = 0; j < cf.operands; ++j)
    if (cf.results[static_cast<std::size_t>(j)].shape != k.domain) return std::nullopt;
  for (std::size_t r = 0; r < k.reads.size(); ++r) {
    const Node& n = body.nodes[k.reads[r].node];
    if (n.kind != NodeKind::parameter && n.kind != NodeKind::constant) return std::nullopt;  // another stage's value
    const int param = n.kind == NodeKind::parameter ? n.parameter : -1;
    if (k.reads[r].offset != 0) return std::nullopt;  // the looped kernel's reads start at element 0
    int carry = -1;
    if (param == 0) {
      if (std::any_of(k.reads[r].strides.begin(), k.reads[r].strides.end(), [](std::int64_t st) { return st != 0; }))
        return std::nullopt;
      ls.loop.counter_read = static_cast<int>(r);
    } else if (param >= 1 && param <= cf.operands) {
      if (!reads_own_element(k.reads[r], k.domain)) return std::nullopt;
      carry = param - 1;
    }
    ls.loop.carry_of_read.push_back(carry);
  }
  auto output_of = [&](NodeId node) {
    for (std::size_t o = 0; o < k.outputs.size(); ++o)
      if (k.outputs[o].first == node) return static_cast<int>(o);
    return -1;
  };
  for (NodeId out : body.outputs) {
    const int o = output_of(out);
    if (o < 0) return std::nullopt;  // a carry passed through unchanged or replaced by a constant
    ls.loop.carry_value.push_back(k.outputs[static_cast<std::size_t>(o)].second);
  }
  for (const auto& [node, value] : k.outputs) {
    const auto at = std::find(body.outputs.begin(), body.outputs.end(), node);
    if (at == body.outputs.end()) return std::nullopt;
    ls.loop.output_carry.push_back(static_cast<int>(at - body.outputs.begin()));
  }
  const ShaderCache::Entry entry = shader_cache().get(generate_loop_glsl(body, k, ls.loop));
  vulkan::register_runtime_shader(entry.name, *entry.spirv);
  ls.pipeline = vulkan::runtime().pipeline(entry.name);
  ls.grid = vulkan::kernels::grid_for_items(static_cast<std::uint64_t>(elements));
  return ls;
}

// The body's reads bound to the node's inputs (body parameter k is node input k - 1; the counter's read, which the
// kernel never loads, to the first carry's buffer) and constants, then a result per output; one dispatch per chunk of
// iterations, a carry's reads bound to the last chunk's results.
std::vector<Tensor> run_looped(const LoopedStage& ls, const Node& n, std::span<const Tensor> args, Backend& vk) {
  const Graph& body = *n.control->bodies[0];  // the placed copy: its constants are on the device
  std::vector<Tensor> carries(args.begin(), args.begin() + n.control->operands);
  std::vector<Tensor> results;
  for (std::int64_t first = ls.loop.lo; first < ls.loop.hi; first += kTripsPerDispatch) {
    const std::int64_t last = std::min(ls.loop.hi, first + kTripsPerDispatch);
    std::vector<vulkan::BufferPtr> buffers;
    std::vector<bool> written;
    for (std::size_t r = 0; r < ls.kernel.reads.size(); ++r) {
      const Node& read = body.nodes[ls.kernel.reads[r].node];
      const int carry = ls.loop.carry_of_read[r];
      const Tensor& t = read.kind == NodeKind::constant ? read.constant
                        : carry >= 0                    ? carries[static_cast<std::size_t>(carry)]
                                     : args[static_cast<std::size_t>(std::max(read.parameter, 1) - 1)];
      buffers.push_back(vulkan::buffer_of(t, "jit (vulkan compiler)"));
      written.push_back(false);
    }
    std::vector<Tensor> outputs;
    for (int carry : ls.loop.output_carry) {
      const TensorType& type = n.control->results[static_cast<std::size_t>(carry)];
      vulkan::BufferPtr b = vulkan::kernels::allocate(type);
      buffers.push_back(b);
      written.push_back(true);
      outputs.emplace_back(type, vk, std::make_shared<vulkan::VulkanStorage>(std::move(b)),
                           n.control->weak[static_cast<std::size_t>(carry)]);
    }
    std::vector<vulkan::Binding> bindings;
    for (std::size_t b = 0; b < buffers.size(); ++b) bindings.push_back({&buffers[b], written[b]});
    std::vector<std::uint32_t> push = ls.kernel.push;
    for (std::int64_t bound : {first, last}) {
      push.push_back(static_cast<std::uint32_t>(static_cast<std::uint64_t>(bound)));
      push.push_back(static_cast<std::uint32_t>(static_cast<std::uint64_t>(bound) >> 32));
    }
    vulkan::dispatch_bindings(vulkan::runtime(), ls.pipeline, bindings, std::as_bytes(std::span(push)), ls.grid.x,
                              ls.grid.y);
    results.clear();
    for (NodeId out : body.outputs)
      for (std::size_t o = 0; o < ls.kernel.outputs.size(); ++o)
        if (ls.kernel.outputs[o].first == out) {
          results.push_back(outputs[o]);
          break;
        }
    carries = results;
  }
  return results;
}

}  // namespace nxv::vulkan::fusion
