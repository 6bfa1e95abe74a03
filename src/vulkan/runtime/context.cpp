// Instance creation (with the validation layer on request) and the logical device on the picked GPU.
#include "vulkan/runtime/context.hpp"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "core/settings.hpp"
#include "nxv/error.hpp"
#include "vulkan/runtime/diagnostics.hpp"

namespace nxv::vulkan {
namespace {

std::atomic<std::uint64_t> g_validation_messages{0};

VKAPI_ATTR VkBool32 VKAPI_CALL on_validation_message(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                                     VkDebugUtilsMessageTypeFlagsEXT,
                                                     const VkDebugUtilsMessengerCallbackDataEXT* data, void*) {
  g_validation_messages.fetch_add(1, std::memory_order_relaxed);
  const char* level = severity >= VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT ? "error" : "warning";
  std::fprintf(stderr, "nxv vulkan validation %s: %s\n", level, data->pMessage ? data->pMessage : "");
  return VK_FALSE;  // the spec asks callbacks to return false: the call that triggered the message proceeds
}

bool has_layer(const vk::raii::Context& loader, const char* name) {
  for (const auto& layer : loader.enumerateInstanceLayerProperties())
    if (std::strcmp(layer.layerName, name) == 0) return true;
  return false;
}

bool has_extension(const std::vector<vk::ExtensionProperties>& extensions, const char* name) {
  for (const auto& e : extensions)
    if (std::strcmp(e.extensionName, name) == 0) return true;
  return false;
}

const char* const kValidationLayer = "VK_LAYER_KHRONOS_validation";

}  // namespace

std::uint64_t validation_messages() { return g_validation_messages.load(std::memory_order_relaxed); }

bool validation_requested() {
  static const bool requested = settings::flag(settings::Id::VALIDATION);
  return requested;
}

std::unique_ptr<Instance> create_instance() {
  std::unique_ptr<Instance> result;
  try {
    result = std::make_unique<Instance>();  // dlopens libvulkan.so.1 for vkGetInstanceProcAddr
  } catch (const std::exception& e) {
    detail::fail("vulkan: cannot load the Vulkan loader (libvulkan.so.1): ", e.what());
  }
  vk::ApplicationInfo app{
      .pApplicationName = "nx_vulkan", .pEngineName = "nx_vulkan", .apiVersion = VK_API_VERSION_1_2};
  std::vector<const char*> layers, extensions;
  bool sync_validation = false;
  const bool validate = validation_requested() && has_layer(result->loader, kValidationLayer);
  if (validation_requested() && !validate)
    std::fprintf(stderr, "nxv: NXV_VALIDATION=1 but %s is not installed (package vulkan-validationlayers)\n",
                 kValidationLayer);
  // Synchronization validation checks the runtime's barrier placement, not just API usage.
  const vk::ValidationFeatureEnableEXT sync = vk::ValidationFeatureEnableEXT::eSynchronizationValidation;
  vk::ValidationFeaturesEXT features{.enabledValidationFeatureCount = 1, .pEnabledValidationFeatures = &sync};
  vk::DebugUtilsMessengerCreateInfoEXT messenger_info{
      .messageSeverity =
          vk::DebugUtilsMessageSeverityFlagBitsEXT::eWarning | vk::DebugUtilsMessageSeverityFlagBitsEXT::eError,
      .messageType = vk::DebugUtilsMessageTypeFlagBitsEXT::eGeneral |
                     vk::DebugUtilsMessageTypeFlagBitsEXT::eValidation |
                     vk::DebugUtilsMessageTypeFlagBitsEXT::ePerformance,
      .pfnUserCallback = &on_validation_message};
  if (validate) {
    layers.push_back(kValidationLayer);
    extensions.push_back(VK_EXT_DEBUG_UTILS_EXTENSION_NAME);
    const auto layer_extensions = result->loader.enumerateInstanceExtensionProperties(std::string(kValidationLayer));
    if (has_extension(layer_extensions, VK_EXT_VALIDATION_FEATURES_EXTENSION_NAME)) {
      extensions.push_back(VK_EXT_VALIDATION_FEATURES_EXTENSION_NAME);
      sync_validation = true;
    }
  }
  vk::InstanceCreateInfo info{.pApplicationInfo = &app,
                              .enabledLayerCount = static_cast<std::uint32_t>(layers.size()),
                              .ppEnabledLayerNames = layers.data(),
                              .enabledExtensionCount = static_cast<std::uint32_t>(extensions.size()),
                              .ppEnabledExtensionNames = extensions.data()};
  // The messenger in the pNext chain also reports what vkCreateInstance itself finds.
  if (validate) info.pNext = &messenger_info;
  if (sync_validation) {
    features.pNext = &messenger_info;
    info.pNext = &features;
  }
  try {
    result->instance = vk::raii::Instance(result->loader, info);
    if (validate) result->messenger = vk::raii::DebugUtilsMessengerEXT(result->instance, messenger_info);
  } catch (const vk::SystemError& e) {
    detail::fail("vulkan: cannot create a Vulkan 1.2 instance (", e.what(),
                 "); is a Vulkan driver installed (e.g. mesa-vulkan-drivers)?");
  }
  return result;
}

Context::Context() : instance(create_instance()) {
  vk::raii::PhysicalDevices devices(instance->instance);
  std::vector<DeviceDescription> descriptions;
  for (std::size_t i = 0; i < devices.size(); ++i)
    descriptions.push_back(describe_device(devices[i], static_cast<int>(i)));
  const int index = pick_from(descriptions, nullptr);
  physical = std::move(devices[static_cast<std::size_t>(index)]);
  description = descriptions[static_cast<std::size_t>(index)];

  const auto families = physical.getQueueFamilyProperties();
  while (!(families[queue_family].queueFlags & vk::QueueFlagBits::eCompute)) ++queue_family;  // usable: exists

  const auto available = physical.getFeatures2<vk::PhysicalDeviceFeatures2, vk::PhysicalDeviceVulkan11Features,
                                               vk::PhysicalDeviceVulkan12Features>();
  const auto& has11 = available.get<vk::PhysicalDeviceVulkan11Features>();
  const auto& has12 = available.get<vk::PhysicalDeviceVulkan12Features>();
  vk::StructureChain<vk::DeviceCreateInfo, vk::PhysicalDeviceFeatures2, vk::PhysicalDeviceVulkan11Features,
                     vk::PhysicalDeviceVulkan12Features, vk::PhysicalDeviceCooperativeMatrixFeaturesNV>
      chain;
  auto& want10 = chain.get<vk::PhysicalDeviceFeatures2>().features;
  // Each optional shader feature the device has, as described (NXV_DEVICE_MASK may hide some: they stay off, so
  // that the validation layer reports a kernel that would use one). Kernels that need a missing one fall back.
  const DeviceDescription& d = description;
  want10.shaderFloat64 = d.float64;
  want10.shaderInt64 = d.int64;
  want10.shaderInt16 = d.int16;
  auto& want11 = chain.get<vk::PhysicalDeviceVulkan11Features>();
  want11.storageBuffer16BitAccess = d.storage16;
  want11.uniformAndStorageBuffer16BitAccess = d.storage16 && has11.uniformAndStorageBuffer16BitAccess;
  auto& want12 = chain.get<vk::PhysicalDeviceVulkan12Features>();
  want12.shaderInt8 = d.int8;
  want12.storageBuffer8BitAccess = d.storage8;
  want12.uniformAndStorageBuffer8BitAccess = d.storage8 && has12.uniformAndStorageBuffer8BitAccess;
  want12.shaderFloat16 = d.float16;
  // Tensor cores (describe_device checked the shape, f16, the memory model and 32-wide subgroups).
  const bool tensor_cores = description.cooperative_matrix_f16;
  want12.vulkanMemoryModel = tensor_cores;
  chain.get<vk::PhysicalDeviceCooperativeMatrixFeaturesNV>().cooperativeMatrix = tensor_cores;
  if (!tensor_cores) chain.unlink<vk::PhysicalDeviceCooperativeMatrixFeaturesNV>();

  const float priority = 1.0f;
  vk::DeviceQueueCreateInfo queue_info{
      .queueFamilyIndex = queue_family, .queueCount = 1, .pQueuePriorities = &priority};
  // Where the device has push descriptors (and NXV_DEVICE_MASK does not hide them), every binding is pushed with
  // vkCmdPushDescriptorSetKHR; elsewhere descriptor sets come from arenas recycled per batch (descriptors.hpp).
  const bool push_descriptors = description.push_descriptors;
  std::vector<const char*> extensions;
  if (push_descriptors) extensions.push_back(VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME);
  if (tensor_cores) extensions.push_back(VK_NV_COOPERATIVE_MATRIX_EXTENSION_NAME);
  auto& info = chain.get<vk::DeviceCreateInfo>();
  info.queueCreateInfoCount = 1;
  info.pQueueCreateInfos = &queue_info;
  info.enabledExtensionCount = static_cast<std::uint32_t>(extensions.size());
  info.ppEnabledExtensionNames = extensions.data();
  try {
    device = vk::raii::Device(physical, info);
  } catch (const vk::SystemError& e) {
    detail::fail("vulkan: cannot create a device on ", description.name, ": ", e.what());
  }
  queue = vk::raii::Queue(device, queue_family, 0);

  limits = physical.getProperties().limits;
  // The range, shared memory and workgroup size as described (NXV_DEVICE_MASK may have lowered them): the buffer limits
  // below, and the allocator's, derive from these limits.
  limits.maxStorageBufferRange = static_cast<std::uint32_t>(description.max_storage_buffer_range);
  limits.maxComputeSharedMemorySize = description.max_shared_memory;
  limits.maxComputeWorkGroupInvocations = description.max_workgroup_invocations;
  for (int i = 0; i < 3; ++i) limits.maxComputeWorkGroupSize[i] = description.max_workgroup_size[i];
  if (push_descriptors)  // (the extension's properties may be asked for only where the device has it)
    max_push_descriptors =
        physical.getProperties2<vk::PhysicalDeviceProperties2, vk::PhysicalDevicePushDescriptorPropertiesKHR>()
            .get<vk::PhysicalDevicePushDescriptorPropertiesKHR>()
            .maxPushDescriptors;
  memory = physical.getMemoryProperties();
  features.float64 = d.float64;
  features.int64 = d.int64;
  features.int16 = d.int16;
  features.int8_arithmetic = d.int8;
  features.float16 = d.float16;
  features.storage8 = d.storage8;
  features.storage16 = d.storage16;
  features.subgroup_size = description.subgroup_size;
  features.max_workgroup_count_x = limits.maxComputeWorkGroupCount[0];
  features.max_storage_buffer_range = limits.maxStorageBufferRange;
  features.max_buffer_bytes = limits.maxStorageBufferRange;
  if (description.max_allocation_size != 0)
    features.max_buffer_bytes = std::min<std::uint64_t>(features.max_buffer_bytes, description.max_allocation_size);
  features.max_buffer_bytes = features.max_buffer_bytes / 4 * 4;
  features.max_push_constants = std::min<std::uint32_t>(limits.maxPushConstantsSize, 128);
  features.max_shared_memory = limits.maxComputeSharedMemorySize;
  features.max_workgroup_invocations = limits.maxComputeWorkGroupInvocations;
  for (int i = 0; i < 3; ++i) features.max_workgroup_size[i] = limits.maxComputeWorkGroupSize[i];
  features.push_descriptors = push_descriptors;
  features.max_bindings = std::min({kMaxBindings, push_descriptors ? max_push_descriptors : kMaxBindings,
                                    limits.maxPerStageDescriptorStorageBuffers, limits.maxDescriptorSetStorageBuffers});
  features.tensor_cores_f16 = tensor_cores;
  features.loop_trips_capped = physical.getProperties().deviceType == vk::PhysicalDeviceType::eCpu;
}

}  // namespace nxv::vulkan
