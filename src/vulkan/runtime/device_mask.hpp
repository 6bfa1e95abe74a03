// NXV_DEVICE_MASK: device features reported (and so used) as absent and limits reported lower than they are, so
// that the paths other devices take are tested on any machine.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>

#include "nxv/vulkan.hpp"

namespace nxv::vulkan {

struct DeviceMask {
  bool push_descriptors = false;    // `push-descriptors`: bind through descriptor sets (descriptors.hpp)
  bool float64 = false;             // `f64`: no shaderFloat64
  bool int64 = false;               // `int64`: no shaderInt64
  bool int16 = false;               // `int16`: no shaderInt16, no 16-bit storage-buffer access
  bool int8 = false;                // `int8`: no shaderInt8, no 8-bit storage-buffer access
  bool float16 = false;             // `f16`: no shaderFloat16 (nor tensor cores, whose shaders need it)
  std::uint64_t buffer_range = 0;   // `buffer-range=SIZE`: maxStorageBufferRange at most SIZE bytes; 0: as is
  std::uint64_t shared_memory = 0;  // `shared-memory=SIZE`: maxComputeSharedMemorySize at most SIZE; 0: as is
  // `invocations=N`: maxComputeWorkGroupInvocations and each of maxComputeWorkGroupSize at most N; 0: as is
  std::uint64_t invocations = 0;
  std::string entries;  // the entries as given, comma-separated (DeviceDescription::masked)
};

// The setting's value, checked: an unknown entry or a malformed size is an nxv::Error naming NXV_DEVICE_MASK and
// what it accepts. Entries are comma-separated; SIZE is a number of bytes, or one with a KiB, MiB or GiB suffix.
// `minimum` stands for every feature Vulkan 1.2 does not require and its minimum limits: f64, int64, int16,
// int8, f16, push-descriptors, buffer-range=128MiB, shared-memory=16KiB, invocations=128.
DeviceMask parse_device_mask(std::string_view setting);

// NXV_DEVICE_MASK's value, parsed once per process.
const DeviceMask& device_mask();

// "; lowered by NXV_DEVICE_MASK=<its entries>" where the process's mask lowers the buffer range, else empty: the errors
// that name a buffer limit append it, since the device itself may hold far more.
std::string lowered_by_mask();

// Reports the masked features as absent and the masked limits lowered (never raised), and records the entries.
void apply_device_mask(const DeviceMask& mask, DeviceDescription& d);

}  // namespace nxv::vulkan
