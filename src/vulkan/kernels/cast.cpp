// OpCode::cast: one shader variant per (source, destination) dtype pair (src/vulkan/kernels/cast.comp). A cast to the
// same dtype shares the input's buffer (tensors are immutable).
#include "vulkan/kernels/kernels.hpp"
#include "vulkan/kernels/layout.hpp"
#include "vulkan/runtime/storage.hpp"

namespace nxv::vulkan::kernels {

BufferPtr cast_buffer(const BufferPtr& src, DType from, DType to, std::uint32_t count) {
  static PipelineCache cache;
  const auto key = static_cast<std::uint64_t>(from) << 8 | static_cast<std::uint64_t>(to);
  const Pipeline* p =
      cache.get(key, [&] { return "cast_" + std::string(name(from)) + "_" + std::string(name(to)); }, {});
  BufferPtr result = allocate(TensorType{Shape{static_cast<std::int64_t>(count)}, to});
  if (count == 0) return result;
  const Grid g = grid_for_items(count);
  runtime().dispatch(p, {{&src, false}, {&result, true}}, push_bytes(count), g.x, g.y);
  return result;
}

bool cast(const OpCall& /*call*/, Inputs in, const TensorType& out, BufferPtr& result) {
  const Tensor& x = in[0];
  if (!fits_u32(x.size()) || x.shape() != out.shape) return false;
  if (x.dtype() == out.dtype) {
    result = buffer_of(x);
    return true;
  }
  result = cast_buffer(buffer_of(x), x.dtype(), out.dtype, static_cast<std::uint32_t>(x.size()));
  return true;
}

}  // namespace nxv::vulkan::kernels
