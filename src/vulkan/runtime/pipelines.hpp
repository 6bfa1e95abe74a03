// Compute pipelines: one shader module per embedded shader, one pipeline per (shader, specialization constants),
// all sharing one pipeline layout: a set of storage buffers (binding 0..max_bindings-1; a push-descriptor set where
// the device has them) and one push-constant range.
#pragma once
#include <cstdint>
#include <filesystem>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "vulkan/runtime/context.hpp"

namespace nxv::vulkan {

class Pipeline {
 public:
  std::string shader;
  vk::raii::Pipeline pipeline{nullptr};
  vk::PipelineLayout layout;
  std::uint32_t bindings = 0;  // storage buffers the shader declares (its highest binding + 1)
};

class PipelineCache {
 public:
  // `cache_data`: a VkPipelineCache blob from an earlier run (empty: start cold); the on-disk cache passes it in.
  PipelineCache(const Context& context, std::span<const std::byte> cache_data = {});

  // The pipeline of (shader, constants) in three parts, so that the driver's compile (create) runs outside the
  // runtime's lock and several threads compile at once: find and insert are not thread-safe (the runtime calls
  // them under its lock); create is (the device and the VkPipelineCache are internally synchronized). insert keeps
  // the first pipeline made for a key and returns it. create throws nxv::Error for an unknown shader name or a
  // shader that uses more bindings than the layout has, and DeviceLacks (capabilities.hpp) for one that needs a
  // feature the device lacks or a larger workgroup or more shared memory than it allows.
  const Pipeline* find(std::string_view shader, std::span<const std::int32_t> specialization) const;
  std::unique_ptr<Pipeline> create(std::string_view shader, std::span<const std::int32_t> specialization) const;
  const Pipeline* insert(std::unique_ptr<Pipeline> pipeline, std::span<const std::int32_t> specialization);
  std::uint32_t max_bindings() const { return max_bindings_; }
  vk::DescriptorSetLayout set_layout() const { return *set_layout_; }
  const Context& context() const { return context_; }
  std::uint32_t push_constant_bytes() const { return push_constant_bytes_; }
  // The VkPipelineCache contents, for the on-disk cache.
  std::vector<std::uint8_t> cache_data() const { return cache_.getData(); }
  // Pipelines created since construction (nonzero: the on-disk cache is worth rewriting).
  std::uint64_t created() const { return created_; }

 private:
  const Context& context_;
  std::uint32_t max_bindings_, push_constant_bytes_;
  std::uint64_t created_ = 0;
  vk::raii::DescriptorSetLayout set_layout_{nullptr};
  vk::raii::PipelineLayout layout_{nullptr};
  vk::raii::PipelineCache cache_{nullptr};
  std::unordered_map<std::string, std::unique_ptr<Pipeline>> pipelines_;  // key: shader name, '\0', constants

  // One module per shader, made on its first pipeline and kept: a shader's specializations (a kernel at several
  // sizes) share it, so its SPIR-V is patched and counted once. Under its own lock because create runs unlocked.
  // Where the device lacks a feature the whole module needs, there is no module object: each pipeline then makes
  // its own from the words specialized to its constants (spirv_specialize.hpp), if those no longer need it.
  struct Module {
    vk::raii::ShaderModule module{nullptr};
    std::uint32_t bindings = 0;
    std::string lacks;                 // that feature (capabilities.hpp)
    std::vector<std::uint32_t> words;  // the module's words (before for_device)
  };
  const Module& module(const std::string& shader) const;
  // The words with the float controls the device offers (spirv_patch.hpp), unless NXV_FLOAT_CONTROLS=0.
  std::vector<std::uint32_t> for_device(std::span<const std::uint32_t> spirv) const;
  mutable std::mutex modules_mutex_;
  mutable std::unordered_map<std::string, std::unique_ptr<Module>> modules_;
  // (shader, constants) whose specialized module still needs a feature the device lacks, or whose workgroup exceeds
  // its limits, and what it lacks.
  mutable std::unordered_map<std::string, std::string> lacking_;
};

// The on-disk pipeline cache of the context's device (cache_directory(), one file per device and driver
// version, named after the device's pipelineCacheUUID): the data to start a PipelineCache with — empty when there
// is no usable file — and the file the data came from or should go to (empty when caching is off).
struct StoredPipelineCache {
  std::filesystem::path file;
  std::vector<std::byte> data;
};
StoredPipelineCache load_pipeline_cache(const Context& context);
// Writes the cache's data to `file` when it created pipelines; false when it could not (read-only directory).
bool save_pipeline_cache(const PipelineCache& cache, const std::filesystem::path& file);

}  // namespace nxv::vulkan
