// Elementwise kernels: unary, unary_test, binary, binary_test (src/vulkan/kernels/unary.comp, binary.comp) and select,
// clip (src/vulkan/kernels/select.comp). Inputs broadcast to the output through per-axis strides, after collapsing
// axes; each input is classified contiguous / single element / strided, a specialization constant of the pipeline.
#include <array>
#include <map>
#include <mutex>
#include <string>
#include <tuple>
#include <vector>

#include "ops/elementwise_class.hpp"
#include "vulkan/kernels/kernels.hpp"
#include "vulkan/kernels/layout.hpp"
#include "vulkan/runtime/capabilities.hpp"
#include "vulkan/runtime/storage.hpp"

namespace nxv::vulkan::kernels {
namespace {

// Inputs broadcast to an output shape, collapsed, with their access kinds.
template <int N>
struct Broadcast {
  Shape shape;
  std::array<Shape, N> strides;
  std::array<Access, N> access;
};

template <int N>
Broadcast<N> broadcast_layout(const std::array<Shape, N>& inputs, const Shape& out) {
  Broadcast<N> b;
  b.shape = out;
  for (int i = 0; i < N; ++i) b.strides[i] = broadcast_strides(inputs[i], out);
  collapse(b.shape, b.strides);
  for (int i = 0; i < N; ++i) b.access[i] = access_of(b.shape, b.strides[i]);
  return b;
}

template <std::size_t R>
void copy_axes(std::uint32_t (&dst)[R], const Shape& src) {
  for (int d = 0; d < src.size(); ++d) dst[d] = static_cast<std::uint32_t>(src[d]);
}

// `fn`: the elementwise function id (0 for select and clip).
std::uint64_t pipeline_key(const OpCall& call, std::int32_t fn, DType dtype, std::span<const Access> access) {
  std::uint64_t key = static_cast<std::uint64_t>(call.code) | static_cast<std::uint64_t>(dtype) << 8 |
                      static_cast<std::uint64_t>(static_cast<std::uint32_t>(fn)) << 16;
  for (std::size_t i = 0; i < access.size(); ++i) key |= static_cast<std::uint64_t>(access[i]) << (48 + 4 * i);
  return key;
}

PipelineCache& pipelines() {
  static PipelineCache cache;
  return cache;
}

bool unary(const OpCall& call, const Tensor& x, const TensorType& out, BufferPtr& result) {
  const bool test = call.code == OpCode::unary_test;
  const UnaryFn fn = call.attrs_as<UnaryAttrs>().fn;
  if (!kernel_defines(class_of(fn), test, x.dtype()) || x.shape() != out.shape) return false;
  const std::int32_t spec[] = {static_cast<std::int32_t>(fn)};
  const Pipeline* p = pipelines().get(
      pipeline_key(call, spec[0], x.dtype(), {}),
      [&] { return std::string(test ? "unary_test_" : "unary_") + variant_name(x.dtype()); }, spec);
  result = allocate(out);
  const auto count = static_cast<std::uint32_t>(x.size());
  if (count == 0) return true;
  const Grid g = grid_for_items((std::uint64_t{count} + 3) / 4);  // four elements per invocation (unary.comp)
  runtime().dispatch(p, {{&buffer_of(x), false}, {&result, true}}, push_bytes(count), g.x, g.y);
  return true;
}

struct BinaryPush {
  std::uint32_t count, rank, shape[8], stride_a[8], stride_b[8];
};

bool binary(const OpCall& call, const Tensor& a, const Tensor& b, const TensorType& out, BufferPtr& result) {
  const bool test = call.code == OpCode::binary_test;
  const BinaryFn fn = call.attrs_as<BinaryAttrs>().fn;
  if (!kernel_defines(class_of(fn), test, a.dtype()) || a.dtype() != b.dtype()) return false;
  const Broadcast<2> layout = broadcast_layout<2>({a.shape(), b.shape()}, out.shape);
  const std::int32_t spec[] = {static_cast<std::int32_t>(fn), static_cast<std::int32_t>(layout.access[0]),
                               static_cast<std::int32_t>(layout.access[1])};
  const Pipeline* p = pipelines().get(
      pipeline_key(call, spec[0], a.dtype(), layout.access),
      [&] { return std::string(test ? "binary_test_" : "binary_") + variant_name(a.dtype()); }, spec);
  result = allocate(out);
  BinaryPush push{};
  push.count = static_cast<std::uint32_t>(num_elements(out.shape));
  if (push.count == 0) return true;
  push.rank = static_cast<std::uint32_t>(layout.shape.size());
  copy_axes(push.shape, layout.shape);
  copy_axes(push.stride_a, layout.strides[0]);
  copy_axes(push.stride_b, layout.strides[1]);
  // Without a strided input binary.comp computes four elements per invocation.
  const bool vectorised = layout.access[0] != Access::strided && layout.access[1] != Access::strided;
  const Grid g = grid_for_items(vectorised ? (std::uint64_t{push.count} + 3) / 4 : push.count);
  runtime().dispatch(p, {{&buffer_of(a), false}, {&buffer_of(b), false}, {&result, true}}, push_bytes(push), g.x, g.y);
  return true;
}

struct TernaryPush {
  std::uint32_t count, rank, shape[7], stride[3][7];
};
constexpr int kTernaryMaxRank = 7;  // 30 words of push constants (select.comp)

// select (pred, on_true, on_false) and clip (x, low, high).
bool ternary(const OpCall& call, Inputs in, const TensorType& out, BufferPtr& result) {
  const bool is_select = call.code == OpCode::select;
  if (is_select ? size_of(in[0].dtype()) != 1 : in[0].dtype() != out.dtype) return false;
  if (in[1].dtype() != out.dtype || in[2].dtype() != out.dtype) return false;
  std::array<BufferPtr, 3> buffers{buffer_of(in[0]), buffer_of(in[1]), buffer_of(in[2])};
  std::array<Shape, 3> shapes{in[0].shape(), in[1].shape(), in[2].shape()};
  Broadcast<3> layout = broadcast_layout<3>(shapes, out.shape);
  if (layout.shape.size() > kTernaryMaxRank) {
    // Rare (broadcast axes alternating at rank 8): materialise the strided inputs, then all are contiguous.
    for (int i = 0; i < 3; ++i) {
      if (layout.access[i] != Access::strided) continue;
      buffers[i] = materialize(buffers[i], in[i].dtype(), out.shape, broadcast_strides(shapes[i], out.shape));
      shapes[i] = out.shape;
    }
    layout = broadcast_layout<3>(shapes, out.shape);
  }
  const std::int32_t spec[] = {static_cast<std::int32_t>(layout.access[0]), static_cast<std::int32_t>(layout.access[1]),
                               static_cast<std::int32_t>(layout.access[2])};
  const Pipeline* p = pipelines().get(
      pipeline_key(call, 0, out.dtype, layout.access),
      [&] { return std::string(is_select ? "select_" : "clip_") + variant_name(out.dtype); }, spec);
  result = allocate(out);
  TernaryPush push{};
  push.count = static_cast<std::uint32_t>(num_elements(out.shape));
  if (push.count == 0) return true;
  push.rank = static_cast<std::uint32_t>(layout.shape.size());
  copy_axes(push.shape, layout.shape);
  for (int i = 0; i < 3; ++i) copy_axes(push.stride[i], layout.strides[i]);
  const Grid g = grid_for_items(push.count);
  runtime().dispatch(p, {{&buffers[0], false}, {&buffers[1], false}, {&buffers[2], false}, {&result, true}},
                     push_bytes(push), g.x, g.y);
  return true;
}

}  // namespace

bool elementwise_native(OpCode code, std::int32_t fn, DType dtype) {
  const DeviceFeatures& f = runtime().features();
  if (f.float64 && f.int64 && f.int16 && f.int8_arithmetic && f.storage8 && f.storage16) return true;
  static std::mutex mutex;
  static std::map<std::tuple<OpCode, std::int32_t, DType>, bool> known;
  const std::lock_guard lock(mutex);
  const auto [it, fresh] = known.try_emplace({code, fn, dtype}, true);
  if (!fresh) return it->second;
  const bool unary = code == OpCode::unary || code == OpCode::unary_test;
  const bool test = code == OpCode::unary_test || code == OpCode::binary_test;
  const std::string shader = std::string(unary ? "unary_" : "binary_") + (test ? "test_" : "") + variant_name(dtype);
  // The contiguous layout: the others differ in their index arithmetic only, not in the features they need.
  const std::int32_t contiguous = static_cast<std::int32_t>(Access::contiguous);
  const std::vector<std::int32_t> spec =
      unary ? std::vector<std::int32_t>{fn} : std::vector<std::int32_t>{fn, contiguous, contiguous};
  try {
    runtime().pipeline(shader, spec);
  } catch (const DeviceLacks&) {
    it->second = false;
  }
  return it->second;
}

bool elementwise(const OpCall& call, Inputs in, const TensorType& out, BufferPtr& result) {
  if (!fits_u32(num_elements(out.shape))) return false;
  switch (call.code) {
    case OpCode::unary:
    case OpCode::unary_test:
      return unary(call, in[0], out, result);
    case OpCode::binary:
    case OpCode::binary_test:
      return binary(call, in[0], in[1], out, result);
    case OpCode::select:
    case OpCode::clip:
      return ternary(call, in, out, result);
    default:
      return false;
  }
}

}  // namespace nxv::vulkan::kernels
