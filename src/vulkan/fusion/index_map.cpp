// Index maps and view folding (index_map.hpp).
#include "vulkan/fusion/index_map.hpp"

#include <algorithm>
#include <optional>
#include <set>

#include "vulkan/fusion/plan.hpp"

namespace nxv::vulkan::fusion {
namespace {

const Shape& shape_of(const Graph& g, NodeId id) { return g.nodes[id].type.shape; }

// The coordinate map onto a node of shape `node_shape` whose axis k has coordinate start[k] + step[k] * c[axis[k]]
// (empty start and step: 0 and 1): its strides and offset follow from the node's row-major layout.
IndexMap coordinate_map(const Shape& node_shape, std::vector<int> axis, const Shape& domain,
                        std::vector<std::int64_t> start = {}, std::vector<std::int64_t> step = {}) {
  IndexMap m;
  m.axis = std::move(axis);
  if (std::any_of(start.begin(), start.end(), [](std::int64_t v) { return v != 0; })) m.start = std::move(start);
  if (std::any_of(step.begin(), step.end(), [](std::int64_t v) { return v != 1; })) m.step = std::move(step);
  m.strides = Shape::filled(domain.size(), 0);
  const Shape rs = contiguous_strides(node_shape);
  for (int k = 0; k < node_shape.size(); ++k) {
    m.offset += start_of(m, k) * rs[k];
    if (m.axis[k] >= 0 && node_shape[k] > 1) m.strides[m.axis[k]] += step_of(m, k) * rs[k];
  }
  for (int d = 0; d < domain.size(); ++d)
    if (domain[d] == 1) m.strides[d] = 0;
  return m;
}

// The start and step of input axis `k` taking output axis `from`'s (-1: coordinate 0).
void take_axis(const IndexMap& m, int from, std::vector<int>& axis, std::vector<std::int64_t>& start,
               std::vector<std::int64_t>& step, int k) {
  if (from < 0) return;
  axis[k] = m.axis[from];
  start[k] = start_of(m, from);
  step[k] = step_of(m, from);
}

// The coordinate form of an offset-only map onto a node of shape `s`, when every axis of size > 1 corresponds to
// one domain axis of the same size and stride (reshapes that add or drop unit axes, or keep the shape).
void recover_coordinates(IndexMap& m, const Shape& s, const Shape& domain) {
  if (m.offset != 0) return;  // coordinates start at 0
  const Shape rs = contiguous_strides(s);
  std::vector<int> axis(s.size(), -1);
  std::vector<bool> used(domain.size(), false);
  for (int k = 0; k < s.size(); ++k) {
    if (s[k] == 1) continue;
    for (int d = 0; d < domain.size(); ++d)
      if (!used[d] && m.strides[d] == rs[k] && domain[d] == s[k]) {
        axis[k] = d;
        used[d] = true;
        break;
      }
    if (axis[k] < 0) {
      m.coords = false;
      return;
    }
  }
  for (int d = 0; d < domain.size(); ++d)
    if (m.strides[d] != 0 && !used[d]) {
      m.coords = false;
      return;
    }
  m.coords = true;
  m.axis = std::move(axis);
  m.start.clear();
  m.step.clear();
}

// The map onto slice `n`'s input of shape `in` of map `m` onto the slice (coordinate form): input coordinate
// starts[k] + strides[k] * (the slice's coordinate) along each axis k; nullopt for a slice it does not fold (a
// stride below 1, an input too large for 32-bit offsets).
std::optional<IndexMap> through_slice(const Node& n, const IndexMap& m, const Shape& in, const Shape& domain) {
  const SliceAttrs& a = n.call.attrs_as<SliceAttrs>();
  if (num_elements(in) > 0xffffffffLL) return std::nullopt;
  std::vector<std::int64_t> start(in.size()), step(in.size());
  for (int k = 0; k < in.size(); ++k) {
    const std::int64_t stride = a.strides.empty() ? 1 : a.strides[k];
    if (stride < 1) return std::nullopt;
    start[k] = a.starts[k] + stride * start_of(m, k);
    step[k] = stride * step_of(m, k);
  }
  return coordinate_map(in, m.axis, domain, std::move(start), std::move(step));
}

// Where slice `n` of an input of shape `in` starts, when its elements are one contiguous run of the input's in
// row-major order (unit strides; every axis after the first it cuts taken whole, every one before it of length 1),
// so that an element offset into the slice is that much further into the input; nullopt otherwise.
std::optional<std::int64_t> contiguous_block_start(const Node& n, const Shape& in) {
  const SliceAttrs& a = n.call.attrs_as<SliceAttrs>();
  const Shape& out = n.type.shape;
  if (num_elements(in) > 0xffffffffLL) return std::nullopt;
  int cut = -1;  // the first axis the slice does not take whole
  for (int k = 0; k < in.size(); ++k) {
    if (!a.strides.empty() && a.strides[k] != 1 && out[k] > 1) return std::nullopt;
    if (cut < 0 && out[k] != in[k]) cut = k;
  }
  for (int k = 0; k < in.size(); ++k) {
    if (cut >= 0 && k < cut && out[k] != 1) return std::nullopt;
    if (cut >= 0 && k > cut && out[k] != in[k]) return std::nullopt;
  }
  const Shape rs = contiguous_strides(in);
  std::int64_t start = 0;
  for (int k = 0; k < in.size(); ++k) start += a.starts[k] * rs[k];
  return start;
}

}  // namespace

std::int64_t start_of(const IndexMap& m, int k) { return m.start.empty() ? 0 : m.start[k]; }
std::int64_t step_of(const IndexMap& m, int k) { return m.step.empty() ? 1 : m.step[k]; }

std::vector<std::int64_t> placement_key(const IndexMap& m) {
  std::vector<std::int64_t> key(m.strides.begin(), m.strides.end());
  key.push_back(m.offset);
  return key;
}

bool is_identity(const IndexMap& m, const Shape& domain) {
  return m.offset == 0 && m.strides == identity_map(domain).strides;
}

IndexMap identity_map(const Shape& domain) {
  std::vector<int> axis(domain.size());
  for (int d = 0; d < domain.size(); ++d) axis[d] = domain[d] > 1 ? d : -1;
  return coordinate_map(domain, std::move(axis), domain);
}

IndexMap numpy_input_map(const IndexMap& m, const Shape& in, const Shape& out, const Shape& domain) {
  if (in == out) return m;
  std::vector<int> axis(in.size(), -1);
  std::vector<std::int64_t> start(in.size(), 0), step(in.size(), 1);
  const int shift = out.size() - in.size();
  for (int k = 0; k < in.size(); ++k)
    if (in[k] != 1) take_axis(m, k + shift, axis, start, step, k);
  return coordinate_map(in, std::move(axis), domain, std::move(start), std::move(step));
}

std::pair<NodeId, IndexMap> resolve(const Graph& g, NodeId x, IndexMap m, const Shape& domain) {
  for (;;) {
    const Node& n = g.nodes[x];
    if (n.kind == NodeKind::stop_gradient) {
      x = n.inputs[0];
      continue;
    }
    if (n.kind == NodeKind::custom_vjp) {
      x = n.inputs.back();
      continue;
    }
    if (n.kind != NodeKind::op) break;
    const Shape& in = shape_of(g, n.inputs.empty() ? x : n.inputs[0]);
    if (n.call.code == OpCode::reshape) {
      m.coords = false;
      recover_coordinates(m, in, domain);
      x = n.inputs[0];
      continue;
    }
    if (n.call.code == OpCode::slice && !m.coords) {  // offset form: only a slice that is one contiguous block
      const std::optional<std::int64_t> base = contiguous_block_start(n, in);
      if (!base) break;
      m.offset += *base;
      x = n.inputs[0];
      continue;
    }
    if (!m.coords) break;
    if (n.call.code == OpCode::transpose) {
      const Axes& permutation = n.call.attrs_as<TransposeAttrs>().permutation;
      std::vector<int> axis(in.size(), -1);
      std::vector<std::int64_t> start(in.size(), 0), step(in.size(), 1);
      for (int j = 0; j < permutation.size(); ++j) take_axis(m, j, axis, start, step, permutation[j]);
      m = coordinate_map(in, std::move(axis), domain, std::move(start), std::move(step));
      x = n.inputs[0];
      continue;
    }
    if (n.call.code == OpCode::slice) {
      std::optional<IndexMap> through = through_slice(n, m, in, domain);
      if (!through) break;
      m = std::move(*through);
      x = n.inputs[0];
      continue;
    }
    if (n.call.code == OpCode::broadcast) {
      const Axes& axes = n.call.attrs_as<BroadcastAttrs>().axes;
      std::vector<int> axis(in.size(), -1);
      std::vector<std::int64_t> start(in.size(), 0), step(in.size(), 1);
      for (int i = 0; i < in.size(); ++i)
        if (in[i] != 1) take_axis(m, axes[i], axis, start, step, i);
      m = coordinate_map(in, std::move(axis), domain, std::move(start), std::move(step));
      x = n.inputs[0];
      continue;
    }
    break;
  }
  return {x, std::move(m)};
}

namespace {

// The fusible ops that recomputing node `x` per element would run: x and what it reads through views and other
// smaller fusible values, each counted once, up to `limit` (the count stops there). An estimate, but a function of
// the graph alone, so that the grouping and the kernel builder decide alike.
int recompute_cost(const Graph& g, NodeId x, const Shape& domain, int limit) {
  std::set<NodeId> seen;
  std::vector<NodeId> stack{x};
  int ops = 0;
  while (!stack.empty() && ops <= limit) {
    const NodeId id = stack.back();
    stack.pop_back();
    if (!seen.insert(id).second) continue;
    const Node& n = g.nodes[id];
    if (n.kind != NodeKind::op) continue;
    const bool view = n.call.code == OpCode::reshape || n.call.code == OpCode::broadcast ||
                      n.call.code == OpCode::transpose || n.call.code == OpCode::slice;
    if (!view && !(fusible(g, n) && n.type.shape != domain)) continue;
    if (!view) ++ops;
    for (NodeId in : n.inputs) stack.push_back(in);
  }
  return ops;
}

}  // namespace

bool inlined(const Graph& g, const Node& n, const IndexMap& m, const Shape& domain) {
  // Not through a slice's start or step: a kernel that recomputes part of another region's values could come to
  // depend on that region's other outputs (a cycle the grouping does not see); it reads the written values.
  if (!(m.coords && m.start.empty() && m.step.empty() && n.type.shape != domain && fusible(g, n))) return false;
  // Recomputing is cheap while the chain is short or the value is broadcast over few elements. A long chain
  // broadcast far (a NUTS chain's random direction and step, ~50 ops with 64-bit hashing, into each of its 10^4
  // observations' likelihood terms) is read from its own region's buffer: written once per value, not once per
  // element. The training steps' broadcast scalars (a few ops each) stay inlined.
  constexpr int kCheapOps = 16;
  constexpr std::int64_t kNearBroadcast = 32;  // domain elements per element of the value
  const std::int64_t expansion = num_elements(domain) / std::max<std::int64_t>(1, num_elements(n.type.shape));
  if (expansion <= kNearBroadcast) return true;
  const NodeId id = static_cast<NodeId>(&n - g.nodes.data());
  return recompute_cost(g, id, domain, kCheapOps) <= kCheapOps;
}

}  // namespace nxv::vulkan::fusion
