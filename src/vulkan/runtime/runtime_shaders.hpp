// Shaders made at run time (the fusion compiler's generated kernels), registered by name so that the runtime's
// pipeline cache creates and caches their pipelines exactly like those of the embedded shaders: same layout
// (push descriptors, bindings 0..n-1), same dispatch path, same barriers. PipelineCache::module() looks a name up
// here when no embedded shader has it.
#pragma once
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "vulkan/runtime/runtime.hpp"

namespace nxv::vulkan {

// Registers `spirv` under `name` (idempotent: a name already registered keeps its first words, which the caller
// guarantees are the same since names are content hashes). The words live until the process exits.
void register_runtime_shader(std::string_view name, std::vector<std::uint32_t> spirv);
// The words registered as `name`; empty if none.
std::span<const std::uint32_t> runtime_shader(std::string_view name);

// Runtime::dispatch for a number of bindings known only at run time (a generated kernel's reads and writes).
// nxv::Error beyond the runtime's binding limit.
void dispatch_bindings(Runtime& runtime, const Pipeline* pipeline, std::span<const Binding> bindings,
                       std::span<const std::byte> push, std::uint32_t groups_x, std::uint32_t groups_y,
                       std::uint32_t groups_z = 1);

}  // namespace nxv::vulkan
