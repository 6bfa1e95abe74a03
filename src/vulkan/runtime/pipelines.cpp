// Shader modules and compute pipelines, created once and cached for the runtime's lifetime.
#include "vulkan/runtime/pipelines.hpp"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string>
#include <string_view>

#include "core/settings.hpp"
#include "nxv/error.hpp"
#include "vulkan/runtime/capabilities.hpp"
#include "vulkan/runtime/counters.hpp"
#include "vulkan/runtime/disk_cache.hpp"
#include "vulkan/runtime/runtime_shaders.hpp"
#include "vulkan/runtime/shader_registry.hpp"
#include "vulkan/runtime/spirv_patch.hpp"
#include "vulkan/runtime/spirv_specialize.hpp"

namespace nxv::vulkan {
namespace {

// Push constants beyond 128 bytes are not guaranteed (the spec's minimum maxPushConstantsSize).
constexpr std::uint32_t kMaxPushConstants = 128;

// What makes a VkPipelineCache blob valid for a device: the IDs and the UUID its header holds, and the driver
// version (a driver update may change the UUID's meaning without changing it).
std::vector<std::byte> pipeline_cache_key(const vk::PhysicalDeviceProperties& p) {
  std::vector<std::byte> key(12 + VK_UUID_SIZE);
  std::memcpy(key.data(), &p.vendorID, 4);
  std::memcpy(key.data() + 4, &p.deviceID, 4);
  std::memcpy(key.data() + 8, &p.driverVersion, 4);
  std::memcpy(key.data() + 12, p.pipelineCacheUUID.data(), VK_UUID_SIZE);
  return key;
}

// The spec's VkPipelineCacheHeaderVersionOne must match the device too: a blob we wrote for it always does, so a
// mismatch means the file is not what it claims to be.
bool header_matches(std::span<const std::byte> data, const vk::PhysicalDeviceProperties& p) {
  struct HeaderOne {
    std::uint32_t length, version, vendor, device;
    std::uint8_t uuid[VK_UUID_SIZE];
  } h;
  static_assert(sizeof(HeaderOne) == 32);
  if (data.size() < sizeof h) return false;
  std::memcpy(&h, data.data(), sizeof h);
  return h.length >= sizeof h && h.version == 1 && h.vendor == p.vendorID && h.device == p.deviceID &&
         std::memcmp(h.uuid, p.pipelineCacheUUID.data(), VK_UUID_SIZE) == 0;
}

}  // namespace

StoredPipelineCache load_pipeline_cache(const Context& context) {
  StoredPipelineCache stored;
  const auto dir = cache_directory();
  if (!dir) return stored;
  const vk::PhysicalDeviceProperties p = context.physical.getProperties();
  char name[64];
  std::snprintf(name, sizeof name, "pipelines-%08x-%08x-", p.vendorID, p.deviceID);
  std::string file = name;
  for (std::uint8_t b : p.pipelineCacheUUID) {
    std::snprintf(name, sizeof name, "%02x", b);
    file += name;
  }
  stored.file = *dir / (file + ".bin");
  const auto key = pipeline_cache_key(p);
  const auto check = [&](std::span<const std::byte> data) -> std::string {
    return header_matches(data, p) ? "" : "its VkPipelineCache header is not this device's";
  };
  if (auto data = read_cache_entry(stored.file, "PIPE", key, check)) stored.data = std::move(*data);
  return stored;
}

bool save_pipeline_cache(const PipelineCache& cache, const std::filesystem::path& file) {
  if (file.empty() || cache.created() == 0) return true;
  const auto data = cache.cache_data();
  const auto key = pipeline_cache_key(cache.context().physical.getProperties());
  return write_cache_entry(file, "PIPE", key, std::as_bytes(std::span(data)));
}

PipelineCache::PipelineCache(const Context& context, std::span<const std::byte> cache_data) : context_(context) {
  max_bindings_ = context.features.max_bindings;
  push_constant_bytes_ = std::min(kMaxPushConstants, context.limits.maxPushConstantsSize);
  std::vector<vk::DescriptorSetLayoutBinding> bindings(max_bindings_);
  for (std::uint32_t b = 0; b < max_bindings_; ++b)
    bindings[b] = vk::DescriptorSetLayoutBinding{.binding = b,
                                                 .descriptorType = vk::DescriptorType::eStorageBuffer,
                                                 .descriptorCount = 1,
                                                 .stageFlags = vk::ShaderStageFlagBits::eCompute};
  set_layout_ = vk::raii::DescriptorSetLayout(
      context.device,
      vk::DescriptorSetLayoutCreateInfo{.flags = context.features.push_descriptors
                                                     ? vk::DescriptorSetLayoutCreateFlagBits::ePushDescriptorKHR
                                                     : vk::DescriptorSetLayoutCreateFlags{},
                                        .bindingCount = max_bindings_,
                                        .pBindings = bindings.data()});
  const vk::PushConstantRange push{
      .stageFlags = vk::ShaderStageFlagBits::eCompute, .offset = 0, .size = push_constant_bytes_};
  const vk::DescriptorSetLayout set = *set_layout_;
  layout_ = vk::raii::PipelineLayout(
      context.device,
      vk::PipelineLayoutCreateInfo{
          .setLayoutCount = 1, .pSetLayouts = &set, .pushConstantRangeCount = 1, .pPushConstantRanges = &push});
  cache_ = vk::raii::PipelineCache(context.device, vk::PipelineCacheCreateInfo{.initialDataSize = cache_data.size(),
                                                                               .pInitialData = cache_data.data()});
}

namespace {

std::string pipeline_key(std::string_view shader, std::span<const std::int32_t> specialization) {
  std::string key(shader);
  key.push_back('\0');
  key.append(reinterpret_cast<const char*>(specialization.data()), specialization.size_bytes());
  return key;
}

}  // namespace

const Pipeline* PipelineCache::find(std::string_view shader, std::span<const std::int32_t> specialization) const {
  const auto it = pipelines_.find(pipeline_key(shader, specialization));
  return it == pipelines_.end() ? nullptr : it->second.get();
}

const PipelineCache::Module& PipelineCache::module(const std::string& shader) const {
  {
    const std::lock_guard lock(modules_mutex_);
    if (const auto it = modules_.find(shader); it != modules_.end()) return *it->second;
  }
  auto spirv = embedded_shader(shader);
  if (spirv.empty()) spirv = runtime_shader(shader);  // a fused kernel of src/vulkan/fusion
  if (spirv.empty())
    detail::fail("vulkan: no embedded shader named '", shader, "' (", embedded_shader_names().size(),
                 " are registered in src/vulkan/kernels/CMakeLists.txt)");
  auto m = std::make_unique<Module>();
  const std::vector<std::uint32_t> words = trimmed_for(spirv, context_.features);
  m->lacks = missing_feature(words, context_.features);
  const auto patched = for_device(words);
  m->bindings = count_bindings(patched);
  if (m->lacks.empty())
    m->module = vk::raii::ShaderModule(
        context_.device, vk::ShaderModuleCreateInfo{.codeSize = patched.size() * 4, .pCode = patched.data()});
  // Read for each pipeline's workgroup size and shared memory, and specialized where the module lacks a feature
  // (before the float controls go in: the optimiser skips modules that have them).
  m->words = words;
  // Two threads may have made the same module; the first one stored is kept (both are equal).
  const std::lock_guard lock(modules_mutex_);
  return *modules_.try_emplace(shader, std::move(m)).first->second;
}

std::vector<std::uint32_t> PipelineCache::for_device(std::span<const std::uint32_t> spirv) const {
  const auto& d = context_.description;
  // NXV_FLOAT_CONTROLS=0: the modules as compiled, for A/B measurements of what the modes cost.
  static const bool float_controls = settings::flag(settings::Id::FLOAT_CONTROLS);
  return float_controls ? with_float_controls(spirv, {d.denorm_preserve_f32, d.denorm_preserve_f64,
                                                      d.signed_zero_inf_nan_f32, d.signed_zero_inf_nan_f64})
                        : std::vector<std::uint32_t>(spirv.begin(), spirv.end());
}

std::unique_ptr<Pipeline> PipelineCache::create(std::string_view shader,
                                                std::span<const std::int32_t> specialization) const {
  auto p = std::make_unique<Pipeline>();
  p->shader = std::string(shader);
  const Module& m = module(p->shader);
  p->bindings = m.bindings;
  vk::raii::ShaderModule own{nullptr};  // this pipeline's specialized module, where the shared one needs too much
  const std::string key = pipeline_key(shader, specialization);
  {
    const std::lock_guard lock(modules_mutex_);
    if (const auto it = lacking_.find(key); it != lacking_.end()) throw DeviceLacks(shader, it->second);
  }
  std::string lacks = exceeded_limit(workgroup_needs(m.words, specialization), context_.features);
  if (lacks.empty() && !m.lacks.empty()) {
    const std::vector<std::uint32_t> words = specialized(m.words, specialization, context_.features.float64);
    lacks = words.empty() ? m.lacks : missing_feature(words, context_.features);
    if (lacks.empty()) {
      const auto patched = for_device(words);
      own = vk::raii::ShaderModule(context_.device,
                                   vk::ShaderModuleCreateInfo{.codeSize = patched.size() * 4, .pCode = patched.data()});
    }
  }
  if (!lacks.empty()) {
    const std::lock_guard lock(modules_mutex_);
    lacking_.emplace(key, lacks);
    throw DeviceLacks(shader, lacks);
  }
  if (p->bindings > max_bindings_)
    detail::fail("vulkan: shader '", shader, "' declares ", p->bindings,
                 " storage-buffer bindings; the runtime's layout has ", max_bindings_);
  // The kernel's constants, then kDeviceHasF64ConstantId (a module without it ignores the entry).
  std::vector<std::int32_t> values(specialization.begin(), specialization.end());
  values.push_back(context_.features.float64 ? 1 : 0);
  std::vector<vk::SpecializationMapEntry> entries(values.size());
  for (std::uint32_t i = 0; i < entries.size(); ++i)
    entries[i] = vk::SpecializationMapEntry{
        .constantID = i + 1 == entries.size() ? kDeviceHasF64ConstantId : i, .offset = 4 * i, .size = 4};
  const vk::SpecializationInfo constants{.mapEntryCount = static_cast<std::uint32_t>(entries.size()),
                                         .pMapEntries = entries.data(),
                                         .dataSize = values.size() * 4,
                                         .pData = values.data()};
  const vk::ComputePipelineCreateInfo info{.stage = {.stage = vk::ShaderStageFlagBits::eCompute,
                                                     .module = m.lacks.empty() ? *m.module : *own,
                                                     .pName = "main",
                                                     .pSpecializationInfo = &constants},
                                           .layout = *layout_};
  try {
    p->pipeline = vk::raii::Pipeline(context_.device, cache_, info);
  } catch (const vk::SystemError& e) {
    detail::fail("vulkan: cannot create the pipeline for shader '", shader, "': ", e.what());
  }
  p->layout = *layout_;
  return p;
}

const Pipeline* PipelineCache::insert(std::unique_ptr<Pipeline> pipeline,
                                      std::span<const std::int32_t> specialization) {
  auto [it, inserted] = pipelines_.try_emplace(pipeline_key(pipeline->shader, specialization), nullptr);
  if (inserted) {
    it->second = std::move(pipeline);
    count(counter_state().pipelines_created);
    ++created_;
  }
  return it->second.get();
}

}  // namespace nxv::vulkan
