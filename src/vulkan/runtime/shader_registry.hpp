// The SPIR-V of every shader in shaders/, compiled by glslc at build time and embedded (cmake/NxvShaders.cmake).
#pragma once
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

namespace nxv::vulkan {
// The SPIR-V words of the shader registered as `name` in src/vulkan/kernels/CMakeLists.txt; empty if there is none.
// Looked up once per pipeline, never on the dispatch path.
std::span<const std::uint32_t> embedded_shader(std::string_view name);
std::vector<std::string_view> embedded_shader_names();
}  // namespace nxv::vulkan
