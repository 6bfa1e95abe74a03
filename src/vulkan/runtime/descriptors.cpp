// DescriptorArena (descriptors.hpp): pools without eFreeDescriptorSet, reset whole.
#include "vulkan/runtime/descriptors.hpp"

#include <atomic>

#include "nxv/error.hpp"

namespace nxv::vulkan {
namespace {

std::atomic<std::int64_t> g_pools_alive{0};

}  // namespace

std::int64_t descriptor_pools_alive() { return g_pools_alive.load(std::memory_order_relaxed); }

DescriptorArena::DescriptorArena(const vk::raii::Device& device, vk::DescriptorSetLayout layout, std::uint32_t bindings)
    : device_(device), layout_(layout), bindings_(bindings) {}

vk::DescriptorSet DescriptorArena::allocate() {
  if (taken_ == kSetsPerPool) {
    ++current_;
    taken_ = 0;
  }
  if (current_ == pools_.size()) {
    const vk::DescriptorPoolSize size{.type = vk::DescriptorType::eStorageBuffer,
                                      .descriptorCount = kSetsPerPool * bindings_};
    pools_.emplace_back(device_,
                        vk::DescriptorPoolCreateInfo{.maxSets = kSetsPerPool, .poolSizeCount = 1, .pPoolSizes = &size});
    g_pools_alive.fetch_add(1, std::memory_order_relaxed);
  }
  const vk::DescriptorSetAllocateInfo info{
      .descriptorPool = *pools_[current_], .descriptorSetCount = 1, .pSetLayouts = &layout_};
  VkDescriptorSet set = VK_NULL_HANDLE;
  const VkDescriptorSetAllocateInfo& raw = info;
  const VkResult result = device_.getDispatcher()->vkAllocateDescriptorSets(*device_, &raw, &set);
  if (result != VK_SUCCESS)
    detail::fail("vulkan: allocating a descriptor set failed (", vk::to_string(vk::Result(result)), ") with ", taken_,
                 " of ", kSetsPerPool, " sets of pool ", current_ + 1, " of ", pools_.size(), " taken");
  ++taken_;
  return set;
}

DescriptorArena::~DescriptorArena() {
  g_pools_alive.fetch_sub(static_cast<std::int64_t>(pools_.size()), std::memory_order_relaxed);
}

void DescriptorArena::reset() {
  for (std::size_t i = 0; i < pools_.size() && (i < current_ || (i == current_ && taken_ > 0)); ++i) pools_[i].reset();
  current_ = 0;
  taken_ = 0;
}

void DescriptorArena::release() {
  for (auto& pool : pools_) pool.release();
  g_pools_alive.fetch_sub(static_cast<std::int64_t>(pools_.size()), std::memory_order_relaxed);
  pools_.clear();
}

}  // namespace nxv::vulkan
