// The GLSL sources that generated kernels include (lib/common.glsl, lib/elementwise.glsl and what they include:
// the shared-source math library and elementwise helpers), embedded at build time by cmake/embed_text.cmake.
#pragma once
#include <optional>
#include <string_view>

namespace nxv::vulkan::fusion {

// The text of the embedded file at `path` (relative to the repository root, e.g. "src/vulkan/kernels/lib/common.glsl").
std::optional<std::string_view> glsl_source(std::string_view path);

}  // namespace nxv::vulkan::fusion
