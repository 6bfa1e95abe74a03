// The Vulkan instance and the logical device the runtime runs on: device description and selection,
// the validation layer (NXV_VALIDATION=1), the compute queue, and the limits the rest of the runtime reads.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "nxv/vulkan.hpp"
#include "vulkan/runtime/runtime.hpp"
#include "vulkan/runtime/vk.hpp"

namespace nxv::vulkan {

// A Vulkan instance without surface extensions; with NXV_VALIDATION=1 also VK_LAYER_KHRONOS_validation
// (synchronization validation on) and a debug-utils messenger that prints and counts warnings and errors.
struct Instance {
  vk::raii::Context loader;
  vk::raii::Instance instance{nullptr};
  vk::raii::DebugUtilsMessengerEXT messenger{nullptr};
};
// nxv::Error when there is no Vulkan loader or driver.
std::unique_ptr<Instance> create_instance();

// What list_devices() reports about one physical device, including whether nx_vulkan can use it and why not.
DeviceDescription describe_device(const vk::raii::PhysicalDevice& device, int index);
// The device pick_device() chooses among `devices` (NXV_DEVICE, else discrete > integrated > virtual > cpu).
int pick_from(const std::vector<DeviceDescription>& devices, std::string* reason);

// The logical device on the picked physical device, with one compute queue.
class Context {
 public:
  Context();

  std::unique_ptr<Instance> instance;  // declared first: destroyed last
  vk::raii::PhysicalDevice physical{nullptr};
  vk::raii::Device device{nullptr};
  vk::raii::Queue queue{nullptr};
  std::uint32_t queue_family = 0;
  DeviceDescription description;
  DeviceFeatures features;
  vk::PhysicalDeviceLimits limits;
  vk::PhysicalDeviceMemoryProperties memory;
  std::uint32_t max_push_descriptors = 0;
};

}  // namespace nxv::vulkan
