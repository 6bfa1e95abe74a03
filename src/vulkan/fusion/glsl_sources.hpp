// The GLSL sources that generated kernels include (lib/common.glsl, lib/elementwise.glsl and what they include:
// the shared-source math library and elementwise helpers), embedded at build time by cmake/embed_text.cmake.
#pragma once
#include <optional>
#include <string_view>
#include <vector>

namespace nxv::vulkan::fusion {

// The text of the embedded file at `path` (relative to the repository root, e.g. "src/vulkan/kernels/lib/common.glsl").
std::optional<std::string_view> glsl_source(std::string_view path);
// Every embedded file's text, in a fixed order: the SPIR-V cache keys on them, since a generated shader's text
// names its includes but not what they say.
std::vector<std::string_view> embedded_glsl_sources();

}  // namespace nxv::vulkan::fusion
