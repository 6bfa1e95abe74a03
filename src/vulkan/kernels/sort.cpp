// OpCode::sort, OpCode::argsort (src/vulkan/kernels/sort.comp) and OpCode::cumulative
// (src/vulkan/kernels/cumulative.comp).
//
// Sorting works on contiguous lines: an axis other than the last is moved last by a strided copy and moved back
// after. Each line is cut into tiles of up to 1024 elements, sorted in shared memory, then merged pairwise in
// log2(n / 1024) passes. The order is total (value, then input position), so the result equals the reference's
// std::stable_sort bit for bit.
#include <algorithm>
#include <bit>

#include "vulkan/kernels/kernels.hpp"
#include "vulkan/kernels/layout.hpp"
#include "vulkan/runtime/storage.hpp"

namespace nxv::vulkan::kernels {
namespace {

constexpr std::int64_t kMaxTile = 1024;  // sort.comp's shared arrays

struct TilePush {
  std::uint32_t lines, n, tiles, tile;
};
struct MergePush {
  std::uint32_t total, n, width;
};
struct CumulativePush {
  std::uint32_t lines, n, inner;
};

const Pipeline* sort_pipeline(bool tile, DType dtype, bool descending) {
  static PipelineCache cache;
  const std::int32_t spec[] = {descending ? 1 : 0};
  const std::uint64_t key = static_cast<std::uint64_t>(dtype) | (tile ? 1u : 0u) << 8 | (descending ? 1u : 0u) << 9;
  return cache.get(
      key, [&] { return std::string(tile ? "sort_tile_" : "sort_merge_") + variant_name(dtype); }, spec);
}

// The permutation moving `axis` last, and the strides that read a row-major tensor of the permuted shape back
// in the original axis order.
struct AxisLast {
  Shape shape, strides_in, strides_back;
};
AxisLast axis_last(const Shape& shape, int axis) {
  const Shape row = row_major(shape);
  AxisLast a;
  for (int d = 0; d < shape.size(); ++d)
    if (d != axis) {
      a.shape.push_back(shape[d]);
      a.strides_in.push_back(row[d]);
    }
  a.shape.push_back(shape[axis]);
  a.strides_in.push_back(row[axis]);
  const Shape permuted_row = row_major(a.shape);
  for (int d = 0, p = 0; d < shape.size(); ++d)
    a.strides_back.push_back(permuted_row[d == axis ? shape.size() - 1 : p++]);
  return a;
}

bool run_sort(const OpCall& call, const Tensor& x, const TensorType& out, BufferPtr& result) {
  const SortAttrs& attrs = call.attrs_as<SortAttrs>();
  const int axis = static_cast<int>(attrs.axis);
  const bool last = axis == x.rank() - 1;
  const std::int64_t n = x.shape()[axis];
  const std::int64_t lines = n == 0 ? 0 : x.size() / n;
  const DType dtype = x.dtype();
  const AxisLast moved = axis_last(x.shape(), axis);
  const BufferPtr src = last ? buffer_of(x) : materialize(buffer_of(x), dtype, moved.shape, moved.strides_in);
  const SortedLines sorted = sort_lines(src, dtype, lines, n, attrs.descending);
  const BufferPtr& wanted = call.code == OpCode::sort ? sorted.values : sorted.positions;
  result = last ? wanted : materialize(wanted, out.dtype, x.shape(), moved.strides_back);
  return true;
}

bool run_cumulative(const OpCall& call, const Tensor& x, const TensorType& out, BufferPtr& result) {
  const CumulativeAttrs& attrs = call.attrs_as<CumulativeAttrs>();
  const int axis = static_cast<int>(attrs.axis);
  CumulativePush push{};
  push.n = static_cast<std::uint32_t>(x.shape()[axis]);
  push.inner = 1;
  for (int d = axis + 1; d < x.rank(); ++d) push.inner *= static_cast<std::uint32_t>(x.shape()[d]);
  push.lines = push.n == 0 ? 0 : static_cast<std::uint32_t>(x.size() / push.n);
  result = allocate(out);
  if (push.lines == 0) return true;
  static PipelineCache cache;
  const std::int32_t spec[] = {static_cast<std::int32_t>(attrs.fn), attrs.reverse ? 1 : 0};
  const std::uint64_t key = static_cast<std::uint64_t>(x.dtype()) | static_cast<std::uint64_t>(attrs.fn) << 8 |
                            (attrs.reverse ? 1u : 0u) << 16;
  const Pipeline* p = cache.get(
      key, [&] { return std::string("cumulative_") + variant_name(x.dtype()); }, spec);
  const Grid g = grid_for_items(push.lines);
  runtime().dispatch(p, {{&buffer_of(x), false}, {&result, true}}, push_bytes(push), g.x, g.y);
  return true;
}

}  // namespace

SortedLines sort_lines(const BufferPtr& src, DType dtype, std::int64_t lines, std::int64_t n, bool descending) {
  const std::int64_t total = lines * n;
  SortedLines s{allocate({{total}, dtype}), allocate({{total}, DType::s64})};
  if (total == 0) return s;
  TilePush tile{};
  tile.lines = static_cast<std::uint32_t>(lines);
  tile.n = static_cast<std::uint32_t>(n);
  tile.tile =
      static_cast<std::uint32_t>(std::min<std::int64_t>(kMaxTile, std::bit_ceil(static_cast<std::uint64_t>(n))));
  tile.tiles = static_cast<std::uint32_t>((n + tile.tile - 1) / tile.tile);
  const Grid g = grid_for_groups(static_cast<std::uint64_t>(lines) * tile.tiles);
  runtime().dispatch(sort_pipeline(true, dtype, descending), {{&src, false}, {&s.values, true}, {&s.positions, true}},
                     push_bytes(tile), g.x, g.y);
  for (std::int64_t width = tile.tile; width < n; width *= 2) {
    SortedLines next{allocate({{total}, dtype}), allocate({{total}, DType::s64})};
    const MergePush merge{static_cast<std::uint32_t>(total), static_cast<std::uint32_t>(n),
                          static_cast<std::uint32_t>(width)};
    const Grid mg = grid_for_items(static_cast<std::uint64_t>(total));
    runtime().dispatch(sort_pipeline(false, dtype, descending),
                       {{&s.values, false}, {&s.positions, false}, {&next.values, true}, {&next.positions, true}},
                       push_bytes(merge), mg.x, mg.y);
    s = std::move(next);
  }
  return s;
}

bool sorting(const OpCall& call, Inputs in, const TensorType& out, BufferPtr& result) {
  const Tensor& x = in[0];
  // Positions and the merge's 2 * width stay within uint32.
  if (!fits_u32(2 * x.size())) return false;
  switch (call.code) {
    case OpCode::sort:
    case OpCode::argsort:
      return run_sort(call, x, out, result);
    case OpCode::cumulative:
      return out.dtype == x.dtype() && run_cumulative(call, x, out, result);
    default:
      return false;
  }
}

}  // namespace nxv::vulkan::kernels
