// The indexing ops: take and take_along_axis (src/vulkan/kernels/take.comp), gather (gather.comp), put_slice
// (put_slice.comp) as byte moves, and indexed_add / indexed_put (scatter.comp) without atomics: the updates'
// target rows are sorted stably (sort.cpp's sort_lines), then each element of the result folds its own updates in
// increasing update index -- the order reference/indexing_ops.cpp defines, so float sums match bit for bit.
#include "vulkan/kernels/kernels.hpp"
#include "vulkan/kernels/layout.hpp"
#include "vulkan/runtime/storage.hpp"

namespace nxv::vulkan::kernels {
namespace {

struct TakePush {
  std::uint32_t total, n, count, inner;
};
struct GatherPush {
  std::uint32_t total, window, k, dims[8];
};
struct PutSlicePush {
  std::uint32_t total, rank, shape[8], starts[8], slice_shape[8];
};
struct KeysPush {
  std::uint32_t n, k, dims[8];
};
struct ApplyPush {
  std::uint32_t total, window, n;
};

std::uint32_t u32(std::int64_t v) { return static_cast<std::uint32_t>(v); }

std::int64_t elements(const Shape& s, int first, int last) {
  std::int64_t n = 1;
  for (int d = first; d < last; ++d) n *= s[d];
  return n;
}

enum class Move : std::uint8_t { take, gather, put_slice };

// A byte-move kernel's pipeline: <family>_<element bytes>[_<index dtype>], with one specialization constant.
const Pipeline* move_pipeline(Move family, std::size_t bytes, const Tensor* indices, std::int32_t spec0 = 0) {
  static const char* const names[] = {"take", "gather", "put_slice"};
  static PipelineCache cache;
  const auto index = indices ? static_cast<std::uint64_t>(indices->dtype()) + 1 : 0;
  const std::uint64_t key =
      static_cast<std::uint64_t>(family) | bytes << 8 | index << 16 | static_cast<std::uint64_t>(spec0) << 24;
  const std::int32_t spec[] = {spec0};
  return cache.get(
      key,
      [&] {
        std::string name = std::string(names[static_cast<int>(family)]) + "_" + std::to_string(bytes);
        return indices ? name + "_" + variant_name(indices->dtype()) : name;
      },
      spec);
}

void dispatch_items(const Pipeline* p, std::initializer_list<Binding> bindings, std::span<const std::byte> push,
                    std::uint64_t items) {
  const Grid g = grid_for_items(items);
  runtime().dispatch(p, bindings, push, g.x, g.y);
}

void run_take(const OpCall& call, const Tensor& x, const Tensor& indices, const TensorType& out, BufferPtr& result) {
  const int axis = static_cast<int>(call.attrs_as<AxisAttrs>().axis);
  const bool along = call.code == OpCode::take_along_axis;
  TakePush push{u32(num_elements(out.shape)), u32(x.shape()[axis]), 0, u32(elements(x.shape(), axis + 1, x.rank()))};
  push.count = u32(along ? indices.shape()[axis] : indices.size());
  result = allocate(out);
  if (push.total == 0) return;
  const Pipeline* p = move_pipeline(Move::take, size_of(x.dtype()), &indices, along ? 1 : 0);
  dispatch_items(p, {{&buffer_of(x), false}, {&buffer_of(indices), false}, {&result, true}}, push_bytes(push),
                 push.total);
}

void run_gather(const Tensor& x, const Tensor& indices, const TensorType& out, BufferPtr& result) {
  const int k = static_cast<int>(indices.shape().back());
  GatherPush push{u32(num_elements(out.shape)), u32(elements(x.shape(), k, x.rank())), u32(k), {}};
  for (int d = 0; d < k; ++d) push.dims[d] = u32(x.shape()[d]);
  result = allocate(out);
  if (push.total == 0) return;
  const Pipeline* p = move_pipeline(Move::gather, size_of(x.dtype()), &indices);
  dispatch_items(p, {{&buffer_of(x), false}, {&buffer_of(indices), false}, {&result, true}}, push_bytes(push),
                 push.total);
}

void run_put_slice(const OpCall& call, const Tensor& x, const Tensor& slice, const TensorType& out, BufferPtr& result) {
  const Shape& starts = call.attrs_as<PutSliceAttrs>().starts;
  PutSlicePush push{u32(x.size()), u32(x.rank()), {}, {}, {}};
  for (int d = 0; d < x.rank(); ++d) {
    push.shape[d] = u32(x.shape()[d]);
    push.starts[d] = u32(starts[d]);
    push.slice_shape[d] = u32(slice.shape()[d]);
  }
  result = allocate(out);
  if (push.total == 0) return;
  dispatch_items(move_pipeline(Move::put_slice, size_of(x.dtype()), nullptr),
                 {{&buffer_of(x), false}, {&buffer_of(slice), false}, {&result, true}}, push_bytes(push), push.total);
}

// indices [n, k] and updates [n, window...] into x viewed as [rows, window].
void run_indexed(const OpCall& call, const Tensor& x, const Tensor& indices, const Tensor& updates,
                 const TensorType& out, BufferPtr& result) {
  const std::int64_t n = indices.shape()[0];
  const int k = static_cast<int>(indices.shape()[1]);
  if (n == 0 || x.size() == 0) {
    result = materialize(buffer_of(x), out.dtype, x.shape(), row_major(x.shape()));
    return;
  }
  KeysPush keys_push{u32(n), u32(k), {}};
  for (int d = 0; d < k; ++d) keys_push.dims[d] = u32(x.shape()[d]);
  static PipelineCache cache;
  const Pipeline* keys_pipeline =
      cache.get(static_cast<std::uint64_t>(indices.dtype()) | 1u << 16,
                [&] { return std::string("scatter_keys_") + variant_name(indices.dtype()); }, {});
  BufferPtr keys = allocate({{n}, DType::s64});
  dispatch_items(keys_pipeline, {{&buffer_of(indices), false}, {&keys, true}}, push_bytes(keys_push), u32(n));
  const SortedLines sorted = sort_lines(keys, DType::s64, 1, n, /*descending=*/false);

  const std::int32_t fn = call.code == OpCode::indexed_add ? 0 : 1;
  const std::int32_t spec[] = {fn};
  const Pipeline* apply = cache.get(
      static_cast<std::uint64_t>(out.dtype) | static_cast<std::uint64_t>(fn) << 8,
      [&] { return std::string("scatter_") + variant_name(out.dtype); }, spec);
  const ApplyPush push{u32(x.size()), u32(elements(x.shape(), k, x.rank())), u32(n)};
  result = allocate(out);
  dispatch_items(apply,
                 {{&buffer_of(x), false},
                  {&buffer_of(updates), false},
                  {&sorted.values, false},
                  {&sorted.positions, false},
                  {&result, true}},
                 push_bytes(push), push.total);
}

}  // namespace

bool indexing(const OpCall& call, Inputs in, const TensorType& out, BufferPtr& result) {
  for (const Tensor& t : in)
    if (!fits_u32(2 * t.size())) return false;
  if (!fits_u32(num_elements(out.shape)) || in[0].dtype() != out.dtype) return false;
  switch (call.code) {
    case OpCode::take:
    case OpCode::take_along_axis:
      run_take(call, in[0], in[1], out, result);
      return true;
    case OpCode::gather:
      run_gather(in[0], in[1], out, result);
      return true;
    case OpCode::put_slice:
      run_put_slice(call, in[0], in[1], out, result);
      return true;
    case OpCode::indexed_add:
    case OpCode::indexed_put:
      run_indexed(call, in[0], in[1], in[2], out, result);
      return true;
    default:
      return false;
  }
}

}  // namespace nxv::vulkan::kernels
