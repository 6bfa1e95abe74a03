// Descriptor sets for devices without VK_KHR_push_descriptor (or with it hidden by NXV_DEVICE_MASK): each dispatch
// takes a set from an arena of fixed-size pools, and the arena is reset as a whole when the work that used its
// sets has completed -- a batch's arena when its fence has signalled, a recording's when the recording goes. So
// descriptor memory is bounded by the largest batch (NXV_BATCH_MAX dispatches) or recording, never by the number
// of dispatches (the original nx_vulkan's pool ran dry after ~5,000 dispatches).
#pragma once
#include <cstdint>
#include <vector>

#include "vulkan/runtime/vk.hpp"

namespace nxv::vulkan {

class DescriptorArena {
 public:
  // Sets of `layout`, whose bindings are `bindings` storage buffers.
  DescriptorArena(const vk::raii::Device& device, vk::DescriptorSetLayout layout, std::uint32_t bindings);
  ~DescriptorArena();
  DescriptorArena(const DescriptorArena&) = delete;
  DescriptorArena& operator=(const DescriptorArena&) = delete;

  // A set nobody uses, from the current pool; a further pool is created when every pool is full.
  vk::DescriptorSet allocate();
  // Every set handed out is free again (the caller knows no pending work uses them); the pools are kept.
  void reset();
  // At exit, when the device may already be gone: forgets the pools without destroying them.
  void release();
  std::size_t pools() const { return pools_.size(); }

  static constexpr std::uint32_t kSetsPerPool = 128;

 private:
  const vk::raii::Device& device_;
  vk::DescriptorSetLayout layout_;
  std::uint32_t bindings_;
  std::vector<vk::raii::DescriptorPool> pools_;
  std::size_t current_ = 0;  // the pool sets come from
  std::uint32_t taken_ = 0;  // sets taken from it since the last reset
};

// Descriptor pools that the arenas of the process hold now (what a soak test watches).
std::int64_t descriptor_pools_alive();

}  // namespace nxv::vulkan
