// GLSL code generation: one compute shader per fused region (plan.hpp's Kernel).
//
// Exactness: every op is computed by a helper whose body is the eager shader's branch for that op, textually
// (`precise T r = <expression from shared/elementwise.def>; return r;`, select/clip/cast as select.comp and
// cast.comp), over the same included helper library, so a fused value has the bits the eager kernel would have
// stored: f32/f64/int values pass between ops in registers of their storage width, `precise` keeps the driver
// from contracting across the former store/load boundary, and pred/u8 values are truncated to a byte after each
// op exactly as the eager store would. Shapes and strides are compile-time constants of the shader (jit traces
// once per signature), so index arithmetic divides by constants and needs no push constants.
#pragma once
#include <string>

#include "vulkan/fusion/plan.hpp"

namespace nxv::vulkan::fusion {

// The shader's GLSL; it includes "lib/common.glsl" and "lib/elementwise.glsl" (compiled with glsl_sources.hpp).
// A contraction stage's kernel (a dot or conv with an epilogue) is src/vulkan/kernels/dot.comp or conv.comp, embedded,
// with the epilogue inserted after the store of each output: the value is the one the eager kernel stores, then the
// region runs on it.
std::string generate_glsl(const Graph& graph, const Kernel& kernel);

}  // namespace nxv::vulkan::fusion
