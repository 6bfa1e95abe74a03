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
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "vulkan/fusion/plan.hpp"

namespace nxv::vulkan::fusion {

// The shader's GLSL; it includes "lib/common.glsl" and "lib/elementwise.glsl" (compiled with glsl_sources.hpp).
// A contraction stage's kernel (a dot or conv with an epilogue) is src/vulkan/kernels/dot.comp or conv.comp, embedded,
// with the epilogue inserted after the store of each output: the value is the one the eager kernel stores, then the
// region runs on it.
std::string generate_glsl(const Graph& graph, const Kernel& kernel);

// The GLSL function computing elementwise node `n` (unary, binary, their tests, clip, cast) on inputs of dtype `in`
// as the eager kernel does: its name; its definition is added to `helpers` (keyed by name) once. The per-instance
// kernels (instance_codegen.hpp) call the same functions.
std::string elementwise_helper(const Node& n, DType in, std::map<std::string, std::string>& helpers);

// A fori_loop run inside one kernel: the body's fused kernel (over the carries' shape) with a loop over the counter's
// range [first, last) (two s64 push words each, after the program's: kLoopPushWords) around its program, each carry
// held in a register of its storage width (the bits a store and reload would keep). A read of carry j (carry_of_read[r]
// = j) loads the carry's initial value before the loop and then takes its register; a read of the counter takes the
// loop index; carry j becomes instruction carry_value[j] after each iteration, and the kernel's outputs are stored from
// the registers after the last.
inline constexpr std::size_t kLoopPushWords = 4;
struct LoopKernel {
  std::int64_t lo = 0, hi = 0;     // the whole loop's range (the compiler's, to split into dispatches)
  std::vector<int> carry_of_read;  // per read: the carry it reads, or -1
  int counter_read = -1;           // the read of the counter, or -1
  std::vector<int> carry_value;    // per carry: the instruction computing its next value
  std::vector<int> output_carry;   // per kernel output: the carry it stores
};
std::string generate_loop_glsl(const Graph& body, const Kernel& kernel, const LoopKernel& loop);

}  // namespace nxv::vulkan::fusion
