// The variants of the Vulkan dot kernel and how one is picked per problem (src/vulkan/kernels/dot.cpp).
#pragma once
#include <cstdint>
#include <optional>
#include <string_view>

#include "nxv/dtype.hpp"

namespace nxv::vulkan::kernels {

// tiled: shaders/dot.comp, 64 x 64 tiles of 4 x 4 scalar blocks, every dtype.
// mid, big: shaders/dot_blocked.comp (f32 and f64 only; integers always run `tiled`): vector loads, register
// double buffering, 64 x 64 tiles (mid) or 128 x 128 (big f32) / 128 x 64 (big f64).
// Every variant computes the reference backend's accumulation order; lavapipe gives the same bits for all, the
// H200 does not for mid and big (dot.cpp).
enum class DotKernel { tiled, mid, big };

const char* dot_kernel_name(DotKernel kernel);
// "tiled", "mid" or "big"; nullopt for anything else.
std::optional<DotKernel> parse_dot_kernel(std::string_view name);

// The variant that dot runs for this problem when nothing forces one: `tiled` (mid and big are faster on the H200
// but not yet bit-identical to the reference there; see dot.cpp).
DotKernel choose_dot_kernel(DType dtype, std::int64_t batches, std::int64_t m, std::int64_t n, std::int64_t k);

// The variant every float dot runs regardless of size: the one set here (tests), else NXV_DOT_KERNEL (a
// benchmarking knob: tiled | mid | big | auto; anything else is an nxv::Error at the first dot), else nullopt.
std::optional<DotKernel> forced_dot_kernel();
// Forces a variant (nullopt: back to NXV_DOT_KERNEL / the size rule). Not for concurrent use with dot.
void force_dot_kernel(std::optional<DotKernel> kernel);

}  // namespace nxv::vulkan::kernels
