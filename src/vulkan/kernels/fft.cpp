// OpCode::fft on Vulkan through VkFFT (Debian's libvkfft-dev, header-only; the build patches its glslang limits,
// see src/vulkan/kernels/CMakeLists.txt): rows of complex pairs [..., n, 2], transformed out of place into a new
// buffer, recorded into the runtime's pending batch.
//
// VkFFT plans are costly to make (it generates GLSL and compiles it with glslang: ~0.1 s, Bluestein lengths more),
// so they are cached by (n, rows, precision). A plan's descriptor sets name the buffers it last ran on, and VkFFT
// rewrites them when it is launched on others; so a plan is rebound only once its last launch has completed (the
// wait is the price of a new pair of buffers; a loop over the same shapes reuses the allocator's buffers). Its
// buffers must start at offset 0 of their VkBuffer (VkFFT's descriptors are whole blocks from 0): results get a
// block of their own, and an input carved out of a shared slab is copied into one first.
#include <map>
#include <memory>
#include <tuple>

#include "vulkan/kernels/kernels.hpp"
#include "vulkan/runtime/capabilities.hpp"
#include "vulkan/runtime/external.hpp"
#include "vulkan/runtime/storage.hpp"

#define VKFFT_BACKEND 0
#include <vkFFT.h>

namespace nxv::vulkan::kernels {

namespace {

// The allocator carves requests up to 128 KiB out of shared slabs (memory.hpp); one above gets a block at offset 0.
constexpr std::size_t kOwnBlockBytes = (128 << 10) + 4;
// Plans kept; the least recently used beyond it is deleted (after its last launch completes).
constexpr std::size_t kMaxPlans = 32;

struct Plan {
  VkFFTApplication app{};
  // VkFFT keeps pointers to what its configuration names: they live here, as long as the plan.
  VkPhysicalDevice physical = VK_NULL_HANDLE;
  VkDevice device = VK_NULL_HANDLE;
  VkQueue queue = VK_NULL_HANDLE;
  VkCommandPool pool = VK_NULL_HANDLE;
  VkFence fence = VK_NULL_HANDLE;
  std::uint64_t bytes = 0;
  VkBuffer input = VK_NULL_HANDLE, output = VK_NULL_HANDLE;  // the buffers its descriptors name
  std::uint64_t last_batch = 0;                              // the batch of its last launch (0: none)
  std::uint64_t last_use = 0;
};

// The pool and fence VkFFT submits its set-up work with (its own: the runtime's are in use), and the plans.
// Never destroyed: at exit the device may be gone before static destructors run (as the runtime's buffers).
struct FftState {
  vk::raii::CommandPool pool{nullptr};
  vk::raii::Fence fence{nullptr};
  std::map<std::tuple<std::int64_t, std::int64_t, bool>, std::unique_ptr<Plan>> plans;
  std::uint64_t uses = 0;
};

FftState& state() {
  static FftState* s = new FftState();
  return *s;
}

void evict_least_recent(FftState& s) {
  auto oldest = s.plans.begin();
  for (auto it = s.plans.begin(); it != s.plans.end(); ++it)
    if (it->second->last_use < oldest->second->last_use) oldest = it;
  if (oldest->second->last_batch) wait_for_batch(oldest->second->last_batch);
  deleteVkFFT(&oldest->second->app);
  s.plans.erase(oldest);
}

// The cached plan for rows of n complex numbers, or nullptr where VkFFT cannot make one (then the host fallback).
Plan* plan_for(std::int64_t n, std::int64_t rows, bool f64) {
  FftState& s = state();
  const auto key = std::make_tuple(n, rows, f64);
  if (auto it = s.plans.find(key); it != s.plans.end()) return it->second.get();
  if (s.plans.size() >= kMaxPlans) evict_least_recent(s);
  auto plan = std::make_unique<Plan>();
  bool made = false;
  with_device([&](const Context& context) {
    if (!*s.pool) {
      s.pool = vk::raii::CommandPool(
          context.device, vk::CommandPoolCreateInfo{.flags = vk::CommandPoolCreateFlagBits::eResetCommandBuffer,
                                                    .queueFamilyIndex = context.queue_family});
      s.fence = vk::raii::Fence(context.device, vk::FenceCreateInfo{});
    }
    Plan& p = *plan;
    p.physical = *context.physical;
    p.device = *context.device;
    p.queue = *context.queue;
    p.pool = *s.pool;
    p.fence = *s.fence;
    p.bytes = static_cast<std::uint64_t>(rows * n) * (f64 ? 16 : 8);
    VkFFTConfiguration config{};
    config.FFTdim = 1;
    config.size[0] = static_cast<std::uint64_t>(n);
    config.numberBatches = static_cast<std::uint64_t>(rows);
    config.doublePrecision = f64 ? 1 : 0;
    config.physicalDevice = &p.physical;
    config.device = &p.device;
    config.queue = &p.queue;
    config.commandPool = &p.pool;
    config.fence = &p.fence;
    // Out of place: the input is a tensor, never written; `buffer` (VkFFT's scratch) is the output.
    config.isInputFormatted = 1;
    config.isOutputFormatted = 1;
    config.bufferSize = &p.bytes;
    config.inputBufferSize = &p.bytes;
    config.outputBufferSize = &p.bytes;
    made = initializeVkFFT(&p.app, config) == VKFFT_SUCCESS;  // on failure VkFFT has freed what it made
  });
  if (!made) return nullptr;
  return s.plans.emplace(key, std::move(plan)).first->second.get();
}

}  // namespace

bool fft(const OpCall& call, Inputs in, const TensorType& out, BufferPtr& result) {
  const bool f64 = out.dtype == DType::f64;
  if (out.dtype != DType::f32 && !f64) return false;
  if (f64 && !runtime().features().float64) throw DeviceLacks("VkFFT (c128)", "shaderFloat64");
  const std::int64_t n = out.shape[out.shape.size() - 2];
  const std::int64_t values = num_elements(out.shape);
  const std::uint64_t bytes = static_cast<std::uint64_t>(values) * size_of(out.dtype);
  if (values == 0) {
    result = runtime().allocate(0);
    return true;
  }
  if (n < 2) return false;  // VkFFT refuses axes of length 1 (the front end sends none: the transform is the identity)
  Plan* plan = plan_for(n, values / (2 * n), f64);
  if (plan == nullptr) return false;

  BufferPtr output = runtime().allocate(std::max<std::size_t>(bytes, kOwnBlockBytes));
  BufferPtr input = buffer_of(in[0], "fft");
  const vk::DescriptorBufferInfo given = buffer_info(input);
  BufferPtr staged;  // the input copied to offset 0 of a block of its own, when it sits inside a slab
  if (given.offset != 0) staged = runtime().allocate(std::max<std::size_t>(bytes, kOwnBlockBytes));
  const VkBuffer input_handle = buffer_info(staged ? staged : input).buffer;
  const VkBuffer output_handle = buffer_info(output).buffer;
  if (plan->input != input_handle || plan->output != output_handle) {
    if (plan->last_batch) wait_for_batch(plan->last_batch);  // no pending launch may see the descriptors change
    plan->input = input_handle;
    plan->output = output_handle;
    // VkFFT compares these pointers with the launch's to decide whether to rewrite its descriptors: clearing them
    // makes it rewrite them (the pointers below are the plan's own members, the same at every launch).
    plan->app.configuration.buffer = nullptr;
    plan->app.configuration.inputBuffer = nullptr;
    plan->app.configuration.outputBuffer = nullptr;
  }
  const bool inverse = call.attrs_as<FftAttrs>().inverse;
  VkFFTResult status = VKFFT_SUCCESS;
  auto record = [&](vk::CommandBuffer commands) {
    if (staged) {
      commands.copyBuffer(given.buffer, input_handle, vk::BufferCopy{.srcOffset = given.offset, .size = bytes});
      const vk::MemoryBarrier copied{.srcAccessMask = vk::AccessFlagBits::eTransferWrite,
                                     .dstAccessMask = vk::AccessFlagBits::eShaderRead};
      commands.pipelineBarrier(vk::PipelineStageFlagBits::eTransfer, vk::PipelineStageFlagBits::eComputeShader, {},
                               copied, {}, {});
    }
    VkCommandBuffer raw = commands;
    VkFFTLaunchParams launch{};
    launch.commandBuffer = &raw;
    launch.inputBuffer = &plan->input;
    launch.outputBuffer = &plan->output;
    launch.buffer = &plan->output;
    status = VkFFTAppend(&plan->app, inverse ? 1 : -1, &launch);
  };
  plan->last_batch = staged ? record_external({{&input, false}, {&staged, true}, {&output, true}}, record)
                            : record_external({{&input, false}, {&output, true}}, record);
  plan->last_use = ++state().uses;
  if (status != VKFFT_SUCCESS) detail::fail("fft: VkFFT failed to record its transform (VkFFTResult ", status, ")");
  result = std::move(output);
  return true;
}

}  // namespace nxv::vulkan::kernels
