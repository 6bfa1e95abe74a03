#include "vulkan/fusion/compile_kernels.hpp"

#include <map>

#include "core/parallel.hpp"
#include "core/settings.hpp"
#include "vulkan/fusion/codegen.hpp"
#include "vulkan/fusion/shader_cache.hpp"
#include "vulkan/runtime/capabilities.hpp"
#include "vulkan/runtime/runtime.hpp"
#include "vulkan/runtime/runtime_shaders.hpp"

namespace nxv::vulkan::fusion {

std::vector<CompiledKernel> compile_kernels(const Graph& graph, std::span<const KernelJob> jobs) {
  // Generating is cheap and sequential; equal sources (a plan repeats a region's shape) become one task.
  std::vector<std::string> sources;
  std::vector<bool> pipeline_of_source;
  std::vector<std::size_t> source_of_job(jobs.size());
  std::map<std::string, std::size_t> seen;
  for (std::size_t j = 0; j < jobs.size(); ++j) {
    std::string glsl = generate_glsl(graph, *jobs[j].kernel);
    const auto [it, fresh] = seen.try_emplace(std::move(glsl), sources.size());
    if (fresh) {
      sources.push_back(it->first);
      pipeline_of_source.push_back(false);
    }
    source_of_job[j] = it->second;
    if (jobs[j].make_pipeline) pipeline_of_source[it->second] = true;
  }
  std::vector<CompiledKernel> compiled(sources.size());
  const auto threads = static_cast<unsigned>(settings::count(settings::Id::COMPILE_THREADS));
  detail::parallel_for(
      sources.size(),
      [&](std::size_t i) {
        const ShaderCache::Entry entry = shader_cache().get(sources[i]);
        vulkan::register_runtime_shader(entry.name, *entry.spirv);
        // Also the kernels whose pipelines are made at run time (contractions): a missing feature declines the
        // whole graph now rather than fail a call.
        const vulkan::DeviceFeatures& features = vulkan::runtime().features();
        const std::string lacks = vulkan::missing_feature(vulkan::trimmed_for(*entry.spirv, features), features);
        if (!lacks.empty()) throw vulkan::DeviceLacks(entry.name, lacks);
        compiled[i].shader = entry.name;
        if (pipeline_of_source[i]) compiled[i].pipeline = vulkan::runtime().pipeline(entry.name);
      },
      threads);
  std::vector<CompiledKernel> out(jobs.size());
  for (std::size_t j = 0; j < jobs.size(); ++j) {
    out[j] = compiled[source_of_job[j]];
    if (!jobs[j].make_pipeline) out[j].pipeline = nullptr;
  }
  return out;
}

}  // namespace nxv::vulkan::fusion
