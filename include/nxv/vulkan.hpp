// The Vulkan backend: device discovery and selection, batching control, counters and memory statistics, and its
// fusion compiler for jit.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include <memory>

#include "nxv/backend.hpp"

namespace nxv {
class Compiler;     // include/nxv/defn.hpp
class MapCompiler;  // jit_map's (src/trace/compiler.hpp)
}  // namespace nxv

namespace nxv::vulkan {

struct DeviceDescription {
  int index = 0;
  std::string name, type;  // type: "discrete", "integrated", "virtual", "cpu", "other"
  std::string driver_name, driver_info;
  std::uint32_t api_version = 0, driver_version = 0, vendor_id = 0, device_id = 0;
  std::vector<std::uint64_t> heap_sizes;  // bytes
  std::vector<bool> heap_device_local;
  std::uint32_t subgroup_size = 0;
  bool float64 = false, int64 = false, float16 = false, int8 = false, storage8 = false, int16 = false,
       storage16 = false, push_descriptors = false;
  std::uint32_t max_workgroup_invocations = 0, max_workgroup_count_x = 0, max_push_constants = 0;
  std::uint32_t max_workgroup_size[3] = {0, 0, 0};  // maxComputeWorkGroupSize: invocations along x, y, z
  std::uint32_t max_shared_memory = 0;
  // Float controls: whether shaders may ask to keep f32/f64 denormals (NVIDIA flushes f32 denormals otherwise)
  // and the sign of zero, infinities and NaNs; nx_vulkan asks for every one the device offers.
  bool denorm_preserve_f32 = false, denorm_preserve_f64 = false;
  bool signed_zero_inf_nan_f32 = false, signed_zero_inf_nan_f64 = false;
  std::uint64_t max_storage_buffer_range = 0, max_allocation_size = 0;
  // Tensor cores through VK_NV_cooperative_matrix: 16x16x16 products of f16 matrices accumulated in f32 by a
  // subgroup of 32 (with the Vulkan memory model and shaderFloat16 the shaders need). f16 dots in Precision::fast
  // then run on them (src/vulkan/kernels/dot.hpp).
  bool cooperative_matrix_f16 = false;
  std::string masked;           // the features NXV_DEVICE_MASK hides (reported above as absent), comma-separated
  bool usable = false;          // has what nx_vulkan requires
  std::string unusable_reason;  // why not, when !usable
};

// Every Vulkan physical device, in the loader's order. Empty when there is no Vulkan loader or device.
std::vector<DeviceDescription> list_devices();
// The index list_devices() would pick, and the reason: NXV_DEVICE (an index or a name substring) if set,
// else the first usable discrete GPU, then integrated, virtual, CPU. nxv::Error when nothing is usable.
int pick_device(std::string* reason = nullptr);

// The Vulkan backend on the picked device (created on first use; nxv::Error if there is no usable device).
Backend& backend();
// Whether a usable Vulkan device exists (never throws).
bool available();

// Submits all pending dispatches and waits for them.
void flush();

struct Counters {
  std::uint64_t dispatches = 0, submits = 0, fence_waits = 0, barriers = 0;
  std::uint64_t bytes_uploaded = 0, bytes_downloaded = 0, pipelines_created = 0;
  std::uint64_t replays = 0;  // pre-recorded command buffers executed again (a compiled call's replay)
};
Counters counters();

struct MemoryStats {
  std::uint64_t bytes_in_use = 0;        // held by live buffers
  std::uint64_t bytes_cached = 0;        // freed buffers kept for reuse
  std::uint64_t device_allocations = 0;  // vkAllocateMemory calls so far
};
MemoryStats memory_stats();
// Frees the cached (unused) device memory.
void release_cached_memory();

// GPU time per shader, from timestamps around every dispatch; recorded only when NXV_PROFILE=1 (which also prints
// the table at exit). Sorted by time, longest first; empty when not profiling or the device has no timestamps.
struct KernelProfile {
  std::string shader;  // the shader's name (src/vulkan/kernels/*.cmake), e.g. "conv_f32"
  std::uint64_t dispatches = 0;
  double gpu_ms = 0;
};
std::vector<KernelProfile> kernel_profile();
void reset_kernel_profile();

// ---- the fusion compiler ---------------------------------------------------------------------------------
// The compiler nxv::jit uses for tensors on this backend (docs/fusion-compiler.md has the design):
//
//   auto step = nxv::jit(nxv::value_and_grad(loss));                       // the fusion compiler, replay automatic
//   auto same = nxv::jit(loss, {.compiler = nxv::vulkan::compiler({.replay = nxv::vulkan::Replay::never})});
//
// It fuses elementwise regions, reductions with their producers and consumers, and dot/conv epilogues into
// generated kernels (compiled at run time, cached in memory and under NXV_CACHE_DIR), runs a call's stages in one
// batch, and can replay the first call's command buffer. Fused results are bit-identical to eager execution on the
// same device. Signatures not entirely on the Vulkan backend run on the evaluator (nxv::evaluator()).
// NXV_FUSION, NXV_REPLAY and NXV_DEBUG steer it (README, "Environment variables").

// Whether a compiled executable replays its first call's recording on later calls.
enum class Replay {
  // Where it pays: when the recording holds at least 1.5 dispatches per input and output buffer that a replay
  // copies (below that the copies cost what not recording saves; bench/RESULTS.md has the measurements).
  automatic,
  always,
  never,
};

struct CompilerOptions {
  Replay replay = Replay::automatic;
};

std::shared_ptr<Compiler> compiler(CompilerOptions options = {});

// The per-instance compiler of jit_map (src/trace/jit_map.hpp): a one-instance graph as a kernel that runs each
// instance in one invocation (mcmc::sample's chain shaders; src/vulkan/fusion/instance_codegen.hpp).
std::shared_ptr<MapCompiler> instance_compiler();

}  // namespace nxv::vulkan
