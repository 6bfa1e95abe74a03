// What the runtime reads from compiled SPIR-V and the rewrites that depend on the device, applied when a shader
// module is created. Both walk the instructions with every read bounded: words that run past the end (whatever
// their counts say) are refused with nxv::Error, never read.
#pragma once
#include <cstdint>
#include <span>
#include <vector>

namespace nxv::vulkan {

// The number of storage-buffer bindings a SPIR-V module declares in set 0 (its highest Binding decoration + 1).
// nxv::Error for words that are not a well-formed instruction stream.
std::uint32_t count_bindings(std::span<const std::uint32_t> spirv);

// The capabilities a SPIR-V module declares (its OpCapability operands, in order). nxv::Error as count_bindings.
std::vector<std::uint32_t> capabilities(std::span<const std::uint32_t> spirv);

// What one workgroup of a module's kernel takes, with its specialization constants set (`specialization[i]` is the
// value of SpecId i; ids past the end keep their defaults): its size along x, y and z (the LocalSize or LocalSizeId
// execution mode, or the WorkgroupSize built-in where one is declared) and the bytes of its Workgroup variables
// (shared memory, each type at its natural size: scalars and vectors packed, arrays and structs without padding).
struct WorkgroupNeeds {
  std::uint32_t size[3] = {1, 1, 1};
  std::uint64_t shared_bytes = 0;
  std::uint64_t invocations() const { return std::uint64_t{size[0]} * size[1] * size[2]; }
};
WorkgroupNeeds workgroup_needs(std::span<const std::uint32_t> spirv, std::span<const std::int32_t> specialization);

// The module less the capabilities for 8/16/64-bit types (Float64, Int64, Int16, Int8, Float16 and the 8/16-bit
// storage ones) that it declares no such type for: glslc keeps OpCapability Float64 in a module whose double code
// its optimiser removed, and a device without the feature must not be given a module that declares it.
std::vector<std::uint32_t> without_unused_width_capabilities(std::span<const std::uint32_t> spirv);

// The float-control execution modes (SPV_KHR_float_controls) a module should carry, per float width.
struct FloatControls {
  bool denorm_preserve_f32 = false, denorm_preserve_f64 = false;
  bool signed_zero_inf_nan_f32 = false, signed_zero_inf_nan_f64 = false;
  bool any() const {
    return denorm_preserve_f32 || denorm_preserve_f64 || signed_zero_inf_nan_f32 || signed_zero_inf_nan_f64;
  }
};

// The module with the asked-for execution modes DenormPreserve and SignedZeroInfNanPreserve on every entry point.
// Why: without them a driver may flush denormals (NVIDIA does for f32: x * y, x != 0 and f32 -> f64 differed from
// the reference on denormal inputs on an H200) and ignore the sign of zero (floor(0.5) gave -0 there). Why at run
// time: a device that does not report a mode (lavapipe lacks DenormPreserve for f32) must not get a module that
// asks for it, so one embedded module is patched per device. Unchanged (and unread) when nothing is asked for.
std::vector<std::uint32_t> with_float_controls(std::span<const std::uint32_t> spirv, const FloatControls& controls);

}  // namespace nxv::vulkan
