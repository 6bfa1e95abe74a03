#include "vulkan/kernels/layout.hpp"

#include <algorithm>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "vulkan/runtime/capabilities.hpp"
#include "vulkan/runtime/shader_registry.hpp"
#include "vulkan/runtime/spirv_patch.hpp"

namespace nxv::vulkan::kernels {

namespace {
struct ShaderTypes {
  GlslType glsl;
  const char* variant;
};
constexpr ShaderTypes k_shader_types[] = {
#define NXV_DTYPE(name, bytes, kind, bits, value, storage, compute, glsl_store, glsl_compute, glsl_kind, variant) \
  {{#glsl_store, #glsl_compute, #glsl_kind}, #variant},
#include "shared/dtypes.def"
};
}  // namespace

const char* variant_name(DType t) { return k_shader_types[static_cast<int>(t)].variant; }
const GlslType& glsl_type(DType t) { return k_shader_types[static_cast<int>(t)].glsl; }

BufferPtr allocate(const TensorType& type) { return runtime().allocate(byte_size(type)); }

bool fits_device(const std::string& shader) {
  static std::mutex mutex;
  static std::unordered_map<std::string, bool> fits;
  const std::lock_guard lock(mutex);
  const auto it = fits.find(shader);
  if (it != fits.end()) return it->second;
  return fits[shader] = exceeded_limit(workgroup_needs(embedded_shader(shader), {}), runtime().features()).empty();
}

Grid grid_for_groups(std::uint64_t groups) {
  const std::uint64_t max_x = std::max<std::uint32_t>(1, runtime().features().max_workgroup_count_x);
  Grid g;
  g.x = static_cast<std::uint32_t>(std::min(groups, max_x));
  g.y = g.x == 0 ? 0 : static_cast<std::uint32_t>((groups + g.x - 1) / g.x);
  return g;
}

Shape row_major(const Shape& shape) { return contiguous_strides(shape); }

Shape broadcast_strides(const Shape& in, const Shape& out) {
  const Shape in_strides = contiguous_strides(in);
  Shape s = Shape::filled(out.size(), 0);
  const int shift = out.size() - in.size();
  for (int d = 0; d < in.size(); ++d)
    if (in[d] != 1) s[d + shift] = in_strides[d];
  return s;
}

void collapse(Shape& shape, std::span<Shape> strides) {
  Shape new_shape;
  std::vector<Shape> new_strides(strides.size());
  for (int d = 0; d < shape.size(); ++d) {
    if (shape[d] == 1) continue;
    bool merge = !new_shape.empty();
    for (std::size_t o = 0; merge && o < strides.size(); ++o) merge = new_strides[o].back() == strides[o][d] * shape[d];
    if (merge) {
      new_shape.back() *= shape[d];
      for (std::size_t o = 0; o < strides.size(); ++o) new_strides[o].back() = strides[o][d];
    } else {
      new_shape.push_back(shape[d]);
      for (std::size_t o = 0; o < strides.size(); ++o) new_strides[o].push_back(strides[o][d]);
    }
  }
  shape = new_shape;
  for (std::size_t o = 0; o < strides.size(); ++o) strides[o] = new_strides[o];
}

Access access_of(const Shape& shape, const Shape& strides) {
  if (std::all_of(strides.begin(), strides.end(), [](std::int64_t s) { return s == 0; })) return Access::scalar;
  if (strides == contiguous_strides(shape)) return Access::contiguous;
  return Access::strided;
}

}  // namespace nxv::vulkan::kernels
