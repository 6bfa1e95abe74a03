// What the kernel families share: shader variant names, dispatch grids, axis collapsing and broadcast strides,
// and a pipeline cache keyed by integers.
#pragma once
#include <cstdint>
#include <mutex>
#include <span>
#include <string>
#include <unordered_map>

#include "nxv/tensor.hpp"
#include "vulkan/runtime/runtime.hpp"

namespace nxv::vulkan::kernels {

inline constexpr std::uint32_t kGroupSize = 128;  // local_size_x of the 1-D kernels (lib/common.glsl: why 128)

// The shader variant suffix of a dtype: "u8" for pred and u8 (one byte, computed in uint), else its name.
const char* variant_name(DType t);
// A dtype's types in GLSL, as kernels.cmake's nxv_type_defines gives them to each variant: <prefix>_STORE (the
// buffer element type), <prefix>_T (the compute type) and <prefix>_IS_<kind>. Both read shared/dtypes.def.
struct GlslType {
  const char* store;
  const char* compute;
  const char* kind;  // FLOAT, INT or UINT
};
const GlslType& glsl_type(DType t);
// Whether every element index of `n` elements fits the shaders' uint32 arithmetic.
inline bool fits_u32(std::int64_t n) { return n >= 0 && n <= 0xffffffffLL; }
// A buffer for a tensor of this type.
BufferPtr allocate(const TensorType& type);

// Workgroups spread over x and y: maxComputeWorkGroupCount[0] may be 65535. The shaders compute the linear
// group x + y * numX and skip the excess of the last row.
struct Grid {
  std::uint32_t x = 0, y = 0;
};
Grid grid_for_groups(std::uint64_t groups);
inline Grid grid_for_items(std::uint64_t items) { return grid_for_groups((items + kGroupSize - 1) / kGroupSize); }

// Row-major strides of `shape` (Shape's own contiguous_strides, re-exported for brevity).
Shape row_major(const Shape& shape);
// The strides, along each axis of `out`, of an input of shape `in` broadcast to it by NumPy's rules
// (right-aligned; 0 along axes where the input has size 1 or no axis).
Shape broadcast_strides(const Shape& in, const Shape& out);
// Drops size-1 axes of `shape` and merges axis d into d+1 wherever every operand's strides allow
// (stride[d] == stride[d+1] * shape[d+1]), so the shaders divide as few times as possible. A rank-0 result
// means a single element.
void collapse(Shape& shape, std::span<Shape> strides);

// How an elementwise input is addressed (lib/broadcast.glsl).
enum class Access : std::int32_t { contiguous = 0, scalar = 1, strided = 2 };
Access access_of(const Shape& collapsed_shape, const Shape& collapsed_strides);

// Whether an embedded shader's workgroup (with its default constants) fits the device's limits: a family with a
// variant written for more than Vulkan's minimum (128 invocations, 16 KiB of shared memory) takes another where it
// does not (dot.cpp's register-blocked variants). Cached per shader.
bool fits_device(const std::string& shader);

// Pipelines of one kernel family, keyed by an integer the family packs from dtype, function and layout, so that
// a dispatch costs one integer lookup rather than the runtime's name lookup.
class PipelineCache {
 public:
  template <class NameFn>
  const Pipeline* get(std::uint64_t key, NameFn&& name, std::span<const std::int32_t> specialization) {
    std::lock_guard lock(mutex_);
    auto it = pipelines_.find(key);
    if (it != pipelines_.end()) return it->second;
    const std::string shader = name();
    return pipelines_[key] = runtime().pipeline(shader, specialization);
  }

 private:
  std::mutex mutex_;
  std::unordered_map<std::uint64_t, const Pipeline*> pipelines_;
};

}  // namespace nxv::vulkan::kernels
