// OpCode::cast: one shader variant per (source, destination) dtype pair (src/vulkan/kernels/cast.comp). A cast to the
// same dtype shares the input's buffer (tensors are immutable).
#include "vulkan/kernels/kernels.hpp"
#include "vulkan/kernels/layout.hpp"
#include "vulkan/runtime/storage.hpp"

namespace nxv::vulkan::kernels {

bool cast(const OpCall& /*call*/, Inputs in, const TensorType& out, BufferPtr& result) {
  const Tensor& x = in[0];
  if (!fits_u32(x.size()) || x.shape() != out.shape) return false;
  if (x.dtype() == out.dtype) {
    result = buffer_of(x);
    return true;
  }
  static PipelineCache cache;
  const auto key = static_cast<std::uint64_t>(x.dtype()) << 8 | static_cast<std::uint64_t>(out.dtype);
  const Pipeline* p =
      cache.get(key, [&] { return "cast_" + std::string(name(x.dtype())) + "_" + std::string(name(out.dtype)); }, {});
  result = allocate(out);
  const auto count = static_cast<std::uint32_t>(x.size());
  if (count == 0) return true;
  const Grid g = grid_for_items(count);
  runtime().dispatch(p, {{&buffer_of(x), false}, {&result, true}}, push_bytes(count), g.x, g.y);
  return true;
}

}  // namespace nxv::vulkan::kernels
