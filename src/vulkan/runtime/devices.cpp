// Device discovery and selection: what each physical device offers, whether nx_vulkan can use it, and which one
// it picks (NXV_DEVICE, else discrete > integrated > virtual > cpu).
#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <cstring>
#include <sstream>

#include "core/settings.hpp"
#include "nxv/error.hpp"
#include "vulkan/runtime/context.hpp"
#include "vulkan/runtime/device_mask.hpp"

namespace nxv::vulkan {
namespace {

const char* type_name(vk::PhysicalDeviceType type) {
  switch (type) {
    case vk::PhysicalDeviceType::eDiscreteGpu:
      return "discrete";
    case vk::PhysicalDeviceType::eIntegratedGpu:
      return "integrated";
    case vk::PhysicalDeviceType::eVirtualGpu:
      return "virtual";
    case vk::PhysicalDeviceType::eCpu:
      return "cpu";
    default:
      return "other";
  }
}

std::string version_string(std::uint32_t v) {
  std::ostringstream s;
  s << VK_API_VERSION_MAJOR(v) << '.' << VK_API_VERSION_MINOR(v) << '.' << VK_API_VERSION_PATCH(v);
  return s.str();
}

// Whether VK_NV_cooperative_matrix offers the shape dot_tensor.comp is written for: A and B 16x16 f16, C and D
// 16x16 f32, one subgroup.
bool has_f16_tensor_shape(const vk::raii::PhysicalDevice& device) {
  if (device.getDispatcher()->vkGetPhysicalDeviceCooperativeMatrixPropertiesNV == nullptr) return false;
  try {
    for (const auto& p : device.getCooperativeMatrixPropertiesNV())
      if (p.MSize == 16 && p.NSize == 16 && p.KSize == 16 && p.AType == vk::ComponentTypeNV::eFloat16 &&
          p.BType == vk::ComponentTypeNV::eFloat16 && p.CType == vk::ComponentTypeNV::eFloat32 &&
          p.DType == vk::ComponentTypeNV::eFloat32 && p.scope == vk::ScopeNV::eSubgroup)
        return true;
  } catch (const std::exception&) {  // the loader lacks the query: no tensor cores, not an unusable device
  }
  return false;
}

// Fills what only Vulkan 1.2 devices can report (the 1.1/1.2 property and feature structs); `nv_cooperative_matrix`:
// whether the device lists VK_NV_cooperative_matrix.
void describe_vulkan12(const vk::raii::PhysicalDevice& device, bool nv_cooperative_matrix, DeviceDescription& d) {
  const auto props = device.getProperties2<vk::PhysicalDeviceProperties2, vk::PhysicalDeviceVulkan11Properties,
                                           vk::PhysicalDeviceVulkan12Properties>();
  const auto& p11 = props.get<vk::PhysicalDeviceVulkan11Properties>();
  const auto& p12 = props.get<vk::PhysicalDeviceVulkan12Properties>();
  d.subgroup_size = p11.subgroupSize;
  d.denorm_preserve_f32 = p12.shaderDenormPreserveFloat32;
  d.denorm_preserve_f64 = p12.shaderDenormPreserveFloat64;
  d.signed_zero_inf_nan_f32 = p12.shaderSignedZeroInfNanPreserveFloat32;
  d.signed_zero_inf_nan_f64 = p12.shaderSignedZeroInfNanPreserveFloat64;
  d.max_allocation_size = p11.maxMemoryAllocationSize;
  d.driver_name = p12.driverName.data();
  d.driver_info = p12.driverInfo.data();
  const auto feats = device.getFeatures2<vk::PhysicalDeviceFeatures2, vk::PhysicalDeviceVulkan11Features,
                                         vk::PhysicalDeviceVulkan12Features>();
  const auto& f10 = feats.get<vk::PhysicalDeviceFeatures2>().features;
  d.int16 = f10.shaderInt16;
  d.storage16 = feats.get<vk::PhysicalDeviceVulkan11Features>().storageBuffer16BitAccess;
  const auto& f12 = feats.get<vk::PhysicalDeviceVulkan12Features>();
  d.float64 = f10.shaderFloat64;
  d.int64 = f10.shaderInt64;
  d.float16 = f12.shaderFloat16;
  d.int8 = f12.shaderInt8;
  d.storage8 = f12.storageBuffer8BitAccess;
  d.cooperative_matrix_f16 = nv_cooperative_matrix && f12.vulkanMemoryModel && d.float16 && d.storage16 &&
                             d.subgroup_size == 32 && has_f16_tensor_shape(device);
}

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
  return s;
}

std::string device_list(const std::vector<DeviceDescription>& devices) {
  std::ostringstream s;
  for (const auto& d : devices) {
    s << "\n  " << d.index << ": " << d.name << " (" << d.type << ")";
    if (!d.usable) s << " - not usable: " << d.unusable_reason;
  }
  return s.str();
}

// NXV_DEVICE: an index into list_devices(), or a case-insensitive substring of a device name.
int pick_named(const std::vector<DeviceDescription>& devices, const std::string& wanted, std::string* reason) {
  int index = -1;
  const bool numeric = std::all_of(wanted.begin(), wanted.end(), [](unsigned char c) { return std::isdigit(c); });
  if (numeric) {
    index = std::atoi(wanted.c_str());
    if (index >= static_cast<int>(devices.size()))
      detail::fail("vulkan: NXV_DEVICE=", wanted, " but there are ", devices.size(),
                   " Vulkan devices:", device_list(devices));
  } else {
    for (const auto& d : devices)
      if (lower(d.name).find(lower(wanted)) != std::string::npos) {
        index = d.index;
        break;
      }
    if (index < 0) detail::fail("vulkan: NXV_DEVICE=", wanted, " matches no device name:", device_list(devices));
  }
  const auto& d = devices[static_cast<std::size_t>(index)];
  if (!d.usable)
    detail::fail("vulkan: NXV_DEVICE=", wanted, " selects device ", index, " (", d.name,
                 ") which is not usable: ", d.unusable_reason);
  if (reason) *reason = "NXV_DEVICE=" + wanted + " selects device " + std::to_string(index) + " (" + d.name + ")";
  return index;
}

}  // namespace

DeviceDescription describe_device(const vk::raii::PhysicalDevice& device, int index) {
  DeviceDescription d;
  d.index = index;
  const auto props = device.getProperties();
  d.name = props.deviceName.data();
  d.type = type_name(props.deviceType);
  d.api_version = props.apiVersion;
  d.driver_version = props.driverVersion;
  d.vendor_id = props.vendorID;
  d.device_id = props.deviceID;
  d.max_workgroup_invocations = props.limits.maxComputeWorkGroupInvocations;
  d.max_workgroup_count_x = props.limits.maxComputeWorkGroupCount[0];
  for (int i = 0; i < 3; ++i) d.max_workgroup_size[i] = props.limits.maxComputeWorkGroupSize[i];
  d.max_push_constants = props.limits.maxPushConstantsSize;
  d.max_shared_memory = props.limits.maxComputeSharedMemorySize;
  d.max_storage_buffer_range = props.limits.maxStorageBufferRange;
  const auto memory = device.getMemoryProperties();
  for (std::uint32_t h = 0; h < memory.memoryHeapCount; ++h) {
    d.heap_sizes.push_back(memory.memoryHeaps[h].size);
    d.heap_device_local.push_back(bool(memory.memoryHeaps[h].flags & vk::MemoryHeapFlagBits::eDeviceLocal));
  }
  bool nv_cooperative_matrix = false;  // narrowed to the shape and features dot_tensor.comp needs by describe_vulkan12
  for (const auto& e : device.enumerateDeviceExtensionProperties()) {
    if (std::strcmp(e.extensionName, VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME) == 0) d.push_descriptors = true;
    if (std::strcmp(e.extensionName, VK_NV_COOPERATIVE_MATRIX_EXTENSION_NAME) == 0) nv_cooperative_matrix = true;
  }
  bool compute_queue = false;
  for (const auto& family : device.getQueueFamilyProperties())
    if (family.queueFlags & vk::QueueFlagBits::eCompute) compute_queue = true;

  const bool vulkan12 = props.apiVersion >= VK_API_VERSION_1_2;
  if (vulkan12) describe_vulkan12(device, nv_cooperative_matrix, d);
  apply_device_mask(device_mask(), d);  // NXV_DEVICE_MASK: features reported (and so used) as absent, limits lower

  std::vector<std::string> missing;
  if (!vulkan12) missing.push_back("needs Vulkan 1.2, has " + version_string(props.apiVersion));
  // Nothing else: kernels that need an optional feature the device lacks run through the host fallback
  // (capabilities.hpp).
  if (!compute_queue) missing.push_back("no compute queue");
  d.usable = missing.empty();
  for (std::size_t i = 0; i < missing.size(); ++i) d.unusable_reason += (i ? ", " : "") + missing[i];
  return d;
}

int pick_from(const std::vector<DeviceDescription>& devices, std::string* reason) {
  if (devices.empty()) detail::fail("vulkan: no Vulkan device found (is a Vulkan driver installed?)");
  if (settings::is_set(settings::Id::DEVICE)) return pick_named(devices, settings::value(settings::Id::DEVICE), reason);
  for (const char* type : {"discrete", "integrated", "virtual", "cpu"})
    for (const auto& d : devices)
      if (d.usable && d.type == type) {
        if (reason)
          *reason = std::string("the first usable ") + type + " device (discrete > integrated > virtual > cpu)";
        return d.index;
      }
  detail::fail("vulkan: no usable Vulkan device (nx_vulkan needs Vulkan 1.2 and a compute queue):",
               device_list(devices));
}

std::vector<DeviceDescription> list_devices() {
  device_mask();  // a malformed NXV_DEVICE_MASK is the user's error to see, not "no device"
  try {
    const auto instance = create_instance();
    vk::raii::PhysicalDevices devices(instance->instance);
    std::vector<DeviceDescription> result;
    for (std::size_t i = 0; i < devices.size(); ++i) result.push_back(describe_device(devices[i], static_cast<int>(i)));
    return result;
  } catch (const std::exception&) {
    return {};  // no loader, no driver, or no device: documented as an empty list
  }
}

int pick_device(std::string* reason) { return pick_from(list_devices(), reason); }

}  // namespace nxv::vulkan
