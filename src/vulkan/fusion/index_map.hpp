// Index maps: how a value of the traced graph is addressed from the coordinates of a fused kernel's domain, and
// how views (reshape, broadcast, transpose, slice, and NumPy broadcasting of elementwise inputs) transform that
// address, so that a kernel reads through them instead of materialising them.
#pragma once
#include <cstdint>
#include <utility>
#include <vector>

#include "trace/graph.hpp"

namespace nxv::vulkan::fusion {

// Where a node's element lies for a domain coordinate c: its element offset offset + sum(c[d] * strides[d]), and,
// when each of the node's axes k follows one domain axis (or none), that correspondence (`coords`): the node
// coordinate is start[k] + step[k] * c[axis[k]] (start[k] alone for axis -1), which the coordinate-level views
// (broadcast, transpose, slice, NumPy broadcasting) need. Slices make start and step other than 0 and 1; a reshape
// keeps only the offset form.
struct IndexMap {
  bool coords = true;
  std::vector<int> axis;            // per node axis: the domain axis giving its coordinate, -1 for none
  std::vector<std::int64_t> start;  // per node axis (empty: all 0)
  std::vector<std::int64_t> step;   // per node axis (empty: all 1)
  Shape strides;                    // per domain axis; 0 along domain axes of size 1 (canonical, so maps compare)
  std::int64_t offset = 0;          // the element at domain coordinate 0
};

// Whether `m` reads each element of a value of the domain's shape at its own position.
bool is_identity(const IndexMap& m, const Shape& domain);
// Node axis k's coordinate is start_of(m, k) + step_of(m, k) * its domain coordinate.
std::int64_t start_of(const IndexMap& m, int k);
std::int64_t step_of(const IndexMap& m, int k);
// Where `m` reads, as a key: two maps onto one node with equal keys read the same elements (strides, then offset).
std::vector<std::int64_t> placement_key(const IndexMap& m);

// Each element of a value of the domain's shape at its own position.
IndexMap identity_map(const Shape& domain);
// The map of an input of shape `in` broadcast by NumPy's rules to a value of shape `out` read through `m`.
IndexMap numpy_input_map(const IndexMap& m, const Shape& in, const Shape& out, const Shape& domain);
// Follows views and markers from `x` towards the value they present, carrying the map along; stops at the first
// node that is not a foldable view (or a coordinate-level view of an offset-only map).
std::pair<NodeId, IndexMap> resolve(const Graph& g, NodeId x, IndexMap m, const Shape& domain);

// Whether a fusible value of another shape than the domain, broadcast into it, is recomputed per domain element
// rather than read from its own region's buffer (which would cost that region a dispatch and a round trip
// through memory; recomputing costs arithmetic only, the cheap resource).
bool inlined(const Graph& g, const Node& n, const IndexMap& m, const Shape& domain);

}  // namespace nxv::vulkan::fusion
