// Runtime knobs and diagnostics that tests and tools reach without Vulkan headers: the validation message count,
// the batch cap, and private runtimes with non-default options.
#pragma once
#include <cstdint>
#include <memory>

#include "vulkan/runtime.hpp"

namespace nxv::vulkan {

// Warnings and errors reported by VK_LAYER_KHRONOS_validation so far (NXV_VALIDATION=1); each is also printed.
std::uint64_t validation_messages();
// Whether NXV_VALIDATION=1 asked for the validation layer.
bool validation_requested();

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

}  // namespace nxv::vulkan
