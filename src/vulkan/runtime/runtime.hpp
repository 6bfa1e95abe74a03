// The Vulkan runtime as the kernels see it: buffers, pipelines, batched dispatch, counters.
// Deliberately free of Vulkan headers, so that kernel files compile fast; vk.hpp (vulkan_raii) is only
// included by the runtime's own .cpp files.
#pragma once
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <span>
#include <string>
#include <string_view>

#include "nxv/vulkan.hpp"

namespace nxv::vulkan {

class Runtime;

// A device-local storage buffer from the caching allocator. Destroying the last reference returns the memory
// to the cache, but only once every recorded dispatch that uses it has completed (the batch holds references).
class Buffer {
 public:
  virtual ~Buffer() = default;
  virtual std::size_t size() const = 0;  // bytes requested
};
using BufferPtr = std::shared_ptr<Buffer>;

// A compute pipeline for one (embedded shader, specialization constants) pair. Owned by the runtime's cache;
// the pointer stays valid for the runtime's lifetime, so kernels may keep it.
class Pipeline;

// Dispatches recorded once and executed again on later calls (command-buffer replay; see Runtime::begin_capture).
// Holds the buffers its commands use.
struct Recording;
using RecordingPtr = std::shared_ptr<Recording>;
struct RecordingStats {
  std::uint32_t dispatches = 0, barriers = 0;
  std::uint64_t buffers = 0, bytes = 0;                // the memory it owns
  std::uint64_t allocations = 0, requested_bytes = 0;  // what capture asked for, before reuse
};
RecordingStats stats(const Recording& recording);

// One storage-buffer binding of a dispatch, in binding order (binding 0, 1, 2, ...; set 0).
struct Binding {
  const BufferPtr* buffer;
  bool writes;  // the dispatch writes this buffer (used to place barriers)
};

// Storage-buffer bindings in the shared layout at most. Fused kernels are what need many: NUTS's U-turn checks fuse
// reductions that read 17 to 25 buffers, which at 16 ran eagerly over materialised [chains, depth, d] inputs.
// Devices guarantee 32 push descriptors; DeviceFeatures::max_bindings also caps it by the per-stage limit.
constexpr std::uint32_t kMaxBindings = 32;

struct DeviceFeatures {
  // Shader features beyond Vulkan 1.2's required ones (capabilities.hpp: kernels that need a missing one fall back).
  bool float64 = false, int64 = false, int16 = false, int8_arithmetic = false, float16 = false;
  bool storage8 = false, storage16 = false;  // 8- and 16-bit values in storage buffers
  std::uint32_t subgroup_size = 0;
  std::uint32_t max_workgroup_count_x = 65535;
  std::uint64_t max_storage_buffer_range = 0;
  // The largest buffer allocate() hands out: maxStorageBufferRange capped by maxMemoryAllocationSize, in whole
  // words (so that a descriptor's range stays within the limit). No tensor of the backend is larger.
  std::uint64_t max_buffer_bytes = 0;
  std::uint32_t max_push_constants = 128;
  std::uint32_t max_shared_memory = 16384;  // maxComputeSharedMemorySize (16 KiB is Vulkan's minimum)
  // maxComputeWorkGroupInvocations and maxComputeWorkGroupSize (Vulkan's minimum: 128, and 128 x 128 x 64): a kernel
  // whose workgroup is larger falls back like one that needs a missing feature (PipelineCache::create).
  std::uint32_t max_workgroup_invocations = 128;
  std::uint32_t max_workgroup_size[3] = {128, 128, 64};
  // Storage buffers one dispatch may bind: the shared layout's size, kMaxBindings capped by the device's push
  // descriptors and per-stage storage buffers. The fusion compiler plans kernels within it.
  std::uint32_t max_bindings = 16;
  // Bindings are pushed (VK_KHR_push_descriptor); else they go through descriptor sets (descriptors.hpp).
  bool push_descriptors = true;
  // VK_NV_cooperative_matrix is enabled with the 16x16x16 f16 -> f32 shape (DeviceDescription::cooperative_matrix_f16).
  bool tensor_cores_f16 = false;
  // A CPU device (llvmpipe, i.e. lavapipe) ends an invocation's loops after 65535 iterations in all (gallivm's
  // LP_MAX_TGSI_LOOP_ITERATIONS, shared by nested loops): kernels whose loops could run longer refuse to run there.
  bool loop_trips_capped = false;
};

class Runtime {
 public:
  virtual ~Runtime() = default;
  virtual const DeviceFeatures& features() const = 0;

  // Device memory of at least `bytes` (0 allowed), from the cache when possible. Out of memory: the cache is
  // released and the allocation retried once, then an nxv::Error names the size and the memory in use.
  virtual BufferPtr allocate(std::size_t bytes) = 0;
  // Copies host bytes into a buffer that no pending work uses yet (a fresh allocation): recorded into the
  // current batch (through a staging ring) without forcing a submit.
  virtual void upload(const BufferPtr& dst, std::span<const std::byte> src) = 0;
  // Flushes pending work that writes `src`, then copies `dst.size()` bytes from its start to the host.
  virtual void download(const BufferPtr& src, std::span<std::byte> dst) = 0;

  // The pipeline for an embedded shader (src/vulkan/kernels/CMakeLists.txt name) with these int32 specialization
  // constants (constant_id 0, 1, 2, ...). Created once and cached; call it once per kernel variant and keep
  // the pointer (the lookup hashes the name). Thread-safe: threads creating pipelines compile them at once.
  virtual const Pipeline* pipeline(std::string_view shader, std::span<const std::int32_t> specialization = {}) = 0;
  // Records one dispatch into the pending batch, with the barriers its bindings need against earlier pending
  // dispatches (read-after-write, write-after-read, write-after-write). `push` is the push-constant block.
  // Submits when NXV_BATCH_MAX dispatches are pending (NXV_BATCH_MAX=0: every dispatch is submitted and waited).
  virtual void dispatch(const Pipeline* pipeline, std::initializer_list<Binding> bindings,
                        std::span<const std::byte> push, std::uint32_t groups_x, std::uint32_t groups_y = 1,
                        std::uint32_t groups_z = 1) = 0;
  // Submits the pending batch and waits for it.
  virtual void flush() = 0;

  // Capture (the idea of CUDA graphs): until end_capture, this thread's dispatches are recorded into a
  // reusable command buffer instead of the pending batch, and its allocations come from the recording's own
  // memory, where a buffer that nobody but the recording holds any more is handed out again: intermediates that
  // die share memory by liveness, ordered by the usual hazard barriers. Anything that cannot be replayed (an
  // upload, a download, a flush, work from another thread) spoils the capture: what it recorded runs in order
  // and end_capture returns nullptr. One capture at a time: false (and no capture) while another one runs.
  virtual bool begin_capture() = 0;
  // Whether a capture runs (on any thread): a recording cannot be replayed into it, nor another one begun.
  virtual bool capturing() = 0;
  // Ends the capture and executes its recording once in the pending batch; the recording, or nullptr if spoiled.
  virtual RecordingPtr end_capture() = 0;
  // Executes a recording again in the pending batch, after the work recorded before and before the work after.
  virtual void replay(const RecordingPtr& recording) = 0;
};

// The runtime of the default device, created on first use; nxv::Error if there is no usable Vulkan device.
Runtime& runtime();

template <class Push>
std::span<const std::byte> push_bytes(const Push& p) {
  return std::as_bytes(std::span<const Push>(&p, 1));
}

}  // namespace nxv::vulkan
