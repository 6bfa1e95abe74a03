// A plan's kernels compiled at once: each generated (codegen.hpp), compiled to SPIR-V through the shader cache
// (shader_cache.hpp), registered with the runtime and, where asked, made into its pipeline, on NXV_COMPILE_THREADS
// threads. Cold, most of a jitted graph's first call is this (the H200's host: ~145 ms of shaderc and ~55 ms of
// driver per kernel), and kernels are independent of each other.
#pragma once
#include <span>
#include <string>
#include <vector>

#include "vulkan/fusion/plan.hpp"
#include "vulkan/runtime/pipelines.hpp"

namespace nxv::vulkan::fusion {

struct KernelJob {
  const Kernel* kernel = nullptr;
  bool make_pipeline = true;  // false: the caller creates the pipeline (a contraction's depends on its operands)
};

struct CompiledKernel {
  std::string shader;                          // the runtime shader's name
  const vulkan::Pipeline* pipeline = nullptr;  // when make_pipeline
};

// One result per job, in order. Kernels whose GLSL is the same are compiled once. nxv::Error as compile_glsl and
// Runtime::pipeline throw it (the first failure, after every thread stopped).
std::vector<CompiledKernel> compile_kernels(const Graph& graph, std::span<const KernelJob> jobs);

}  // namespace nxv::vulkan::fusion
