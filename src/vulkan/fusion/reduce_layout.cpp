// Reductions as the eager reduce kernel lays them out (plan.hpp: reducible, reduce_layout): shared by the
// planner, the code generator and the executable, so that a generated reduction has the eager kernel's order.
#include <algorithm>

#include "vulkan/fusion/plan.hpp"
#include "vulkan/kernels/kernels.hpp"

namespace nxv::vulkan::fusion {
namespace {

bool fits_u32(std::int64_t n) { return n >= 0 && n <= 0xffffffffLL; }

}  // namespace

// The same check as vulkan/kernels/reduce.cpp.
bool reducible(const Graph& graph, const Node& n) {
  if (n.kind != NodeKind::op || n.call.code != OpCode::reduce) return false;
  const TensorType& in = graph.nodes[n.inputs[0]].type;
  if (!fits_u32(num_elements(in.shape)) || in.shape.size() == 0) return false;
  const ReduceFn fn = n.call.attrs_as<ReduceAttrs>().fn;
  const bool logical = fn == ReduceFn::all || fn == ReduceFn::any;
  return n.type.dtype == (logical ? DType::pred : in.dtype) && vulkan::kernels::reduce_native(fn, in.dtype);
}

ReduceLayout reduce_layout(const Shape& shape, const Axes& axes, std::int64_t outputs) {
  ReduceLayout l;
  const Shape strides = contiguous_strides(shape);
  int previous = -1;  // the kind of the previous non-unit axis: 0 kept, 1 reduced
  for (int d = 0; d < shape.size(); ++d) {
    if (shape[d] == 1) continue;
    const int kind = axes.contains(d) ? 1 : 0;
    Shape& s = kind == 1 ? l.reduced_shape : l.kept_shape;
    Shape& st = kind == 1 ? l.reduced_strides : l.kept_strides;
    if (kind == previous) {
      s.back() *= shape[d];
      st.back() = strides[d];
    } else {
      s.push_back(shape[d]);
      st.push_back(strides[d]);
    }
    previous = kind;
  }
  l.outputs = outputs;
  l.length = outputs == 0 ? 0 : num_elements(shape) / outputs;
  l.chunks = std::max<std::int64_t>(1, (l.length + kReduceChunk - 1) / kReduceChunk);
  return l;
}

}  // namespace nxv::vulkan::fusion
