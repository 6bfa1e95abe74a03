// Runtime knobs and diagnostics that tests and tools reach without Vulkan headers: the validation message count,
// the recordings leaked at exit, the batch cap, and private runtimes with non-default options.
#pragma once
#include <cstdint>
#include <filesystem>
#include <memory>

#include "vulkan/runtime/runtime.hpp"

namespace nxv::vulkan {

// Warnings and errors reported by VK_LAYER_KHRONOS_validation so far (NXV_VALIDATION=1); each is also printed.
std::uint64_t validation_messages();
// Whether NXV_VALIDATION=1 asked for the validation layer.
bool validation_requested();

// Recordings destroyed after the default runtime shut down, their command pools leaked on purpose (the driver may be
// gone at exit): only those that outlived it in static objects. The shutdown test of capture_test.cpp reads it.
std::uint64_t leaked_recordings();

// Dispatches recorded before a batch is submitted (NXV_BATCH_MAX, read once at start-up, default 64; 0 submits
// and waits after every dispatch). Tests change it through set_batch_max; it applies to every runtime.
int batch_max();
void set_batch_max(int dispatches);

struct RuntimeOptions {
  // Copy through the staging ring and the readback buffer even where device memory is host-visible
  // (lavapipe), so that the discrete-GPU transfer path can be tested on a machine without one.
  bool force_staging = false;
  // Treat device allocations beyond this many bytes as out of device memory (0: no limit); tests the
  // release-the-cache-and-retry path, which lavapipe's malloc-backed heap never reaches.
  std::uint64_t simulated_memory_limit = 0;
};
// A runtime of its own on the picked device (a second VkDevice), for tests of non-default options.
std::unique_ptr<Runtime> make_runtime(const RuntimeOptions& options);
// Whether the runtime maps device memory (unified memory: transfers are memcpy) rather than copying through the
// staging ring and readback buffer (one more barrier before the first use of an upload, one more submit per
// download).
bool maps_device_memory(const Runtime& runtime);
// The memory statistics of one runtime (nxv::vulkan::memory_stats() reports the default one).
MemoryStats memory_stats(const Runtime& runtime);
void release_cached_memory(Runtime& runtime);

// The runtime's on-disk pipeline cache (src/vulkan/runtime/disk_cache.hpp: nxv::vulkan::cache_directory): the file
// (empty when caching is off), the bytes of VkPipelineCache data it started from (0: a cold start, or a missing,
// corrupt or foreign file), and the pipelines created since (the file is rewritten when the runtime is destroyed, if
// any were).
struct PipelineCacheInfo {
  std::filesystem::path file;
  std::size_t loaded_bytes = 0;
  std::uint64_t pipelines_created = 0;
};
PipelineCacheInfo pipeline_cache_info(const Runtime& runtime);

}  // namespace nxv::vulkan
