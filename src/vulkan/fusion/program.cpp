// Kernel programs (program.hpp), and the pass that builds every region's.
#include "vulkan/fusion/program.hpp"

#include <algorithm>
#include <optional>

#include "vulkan/fusion/index_map.hpp"
#include "vulkan/fusion/passes.hpp"
#include "vulkan/kernels/kernels.hpp"

namespace nxv::vulkan::fusion {
namespace {

const Shape& shape_of(const Graph& g, NodeId id) { return g.nodes[id].type.shape; }

// Whether node axis k's coordinate is the domain coordinate itself (not a slice's start + step * it).
bool plain_axis(const IndexMap& m, int k) { return start_of(m, k) == 0 && step_of(m, k) == 1; }

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
    const auto key = std::make_pair(x, placement_key(m));
    if (auto it = memo_.find(key); it != memo_.end()) return it->second;
    const Node& n = g_.nodes[x];
    const bool member = region_ >= 0 && region_of_[x] == region_ && is_identity(m, kernel_.domain);
    const bool inline_op = !member && inlined(g_, n, m, kernel_.domain);
    Instruction ins;
    const bool is_op = n.kind == NodeKind::op;
    std::optional<std::uint64_t> bits;
    if (n.kind == NodeKind::constant && n.constant.size() == 1) {
      bits = 0;
      n.constant.copy_to(std::as_writable_bytes(std::span(&*bits, 1)).first(size_of(n.type.dtype)));
    } else if (is_op && n.call.code == OpCode::full) {
      bits = vulkan::kernels::element_bits(n.call.attrs_as<FullAttrs>().value, n.type.dtype);
    }
    if (bits) ins.push = push_slot(*bits, n.type.dtype);
    if (ins.push >= 0) {
      ins.kind = Instruction::Kind::constant;
      ins.node = x;
    } else if (is_op && n.call.code == OpCode::iota && m.coords && plain_axis(m, n.call.attrs_as<AxisAttrs>().axis)) {
      ins.kind = Instruction::Kind::iota;
      ins.node = x;
      const int d = m.axis[n.call.attrs_as<AxisAttrs>().axis];
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
      const Read r{x, m.strides, m.offset};
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

}  // namespace

Kernel region_program(const Graph& graph, const std::vector<int>& region_of, int region,
                      const std::vector<NodeId>& members) {
  return KernelBuilder(graph, region_of, region).build(members);
}

Kernel reduction_program(const Graph& graph, const std::vector<int>& region_of, int region,
                         const std::vector<NodeId>& members, NodeId reduce) {
  return KernelBuilder(graph, region_of, region).build_reduction(members, reduce);
}

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

void build_region_kernels(Planning& p) {
  p.region_kernels.assign(p.regions.size(), {});
  for (std::size_t r = 0; r < p.regions.size(); ++r) {
    RegionKernel& k = p.region_kernels[r];
    k.full = region_program(p.graph, p.region_of, static_cast<int>(r), p.regions[r]);
    k.member_value = member_values(p.graph, k.full, p.region_of, static_cast<int>(r));
  }
}

}  // namespace nxv::vulkan::fusion
