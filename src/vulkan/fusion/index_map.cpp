// Index maps and view folding (index_map.hpp).
#include "vulkan/fusion/index_map.hpp"

#include "vulkan/fusion/plan.hpp"

namespace nxv::vulkan::fusion {
namespace {

const Shape& shape_of(const Graph& g, NodeId id) { return g.nodes[id].type.shape; }

Shape offset_strides(const Shape& node_shape, const std::vector<int>& axis, const Shape& domain) {
  Shape s = Shape::filled(domain.size(), 0);
  const Shape rs = contiguous_strides(node_shape);
  for (int k = 0; k < node_shape.size(); ++k)
    if (axis[k] >= 0 && node_shape[k] > 1) s[axis[k]] += rs[k];
  for (int d = 0; d < domain.size(); ++d)
    if (domain[d] == 1) s[d] = 0;
  return s;
}

IndexMap coordinate_map(const Shape& node_shape, std::vector<int> axis, const Shape& domain) {
  IndexMap m;
  m.strides = offset_strides(node_shape, axis, domain);
  m.axis = std::move(axis);
  return m;
}

// The coordinate form of an offset-only map onto a node of shape `s`, when every axis of size > 1 corresponds to
// one domain axis of the same size and stride (reshapes that add or drop unit axes, or keep the shape).
void recover_coordinates(IndexMap& m, const Shape& s, const Shape& domain) {
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
}

}  // namespace

IndexMap identity_map(const Shape& domain) {
  std::vector<int> axis(domain.size());
  for (int d = 0; d < domain.size(); ++d) axis[d] = domain[d] > 1 ? d : -1;
  return coordinate_map(domain, std::move(axis), domain);
}

IndexMap numpy_input_map(const IndexMap& m, const Shape& in, const Shape& out, const Shape& domain) {
  if (in == out) return m;
  std::vector<int> axis(in.size(), -1);
  const int shift = out.size() - in.size();
  for (int k = 0; k < in.size(); ++k)
    if (in[k] != 1) axis[k] = m.axis[k + shift];
  return coordinate_map(in, std::move(axis), domain);
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
    if (!m.coords) break;
    if (n.call.code == OpCode::transpose) {
      const Axes& permutation = n.call.attrs_as<TransposeAttrs>().permutation;
      std::vector<int> axis(in.size(), -1);
      for (int j = 0; j < permutation.size(); ++j) axis[permutation[j]] = m.axis[j];
      m = coordinate_map(in, std::move(axis), domain);
      x = n.inputs[0];
      continue;
    }
    if (n.call.code == OpCode::broadcast) {
      const Axes& axes = n.call.attrs_as<BroadcastAttrs>().axes;
      std::vector<int> axis(in.size(), -1);
      for (int i = 0; i < in.size(); ++i)
        if (in[i] != 1) axis[i] = m.axis[axes[i]];
      m = coordinate_map(in, std::move(axis), domain);
      x = n.inputs[0];
      continue;
    }
    break;
  }
  return {x, std::move(m)};
}

bool inlined(const Graph& g, const Node& n, const IndexMap& m, const Shape& domain) {
  return m.coords && n.type.shape != domain && fusible(g, n);
}

}  // namespace nxv::vulkan::fusion
