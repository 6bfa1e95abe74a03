// The caching allocator: size classes, slabs for small classes, free lists (design in memory.hpp).
#include "vulkan/runtime/memory.hpp"

#include <algorithm>
#include <bit>
#include <unordered_set>

#include "nxv/error.hpp"
#include "vulkan/runtime/device_mask.hpp"

namespace nxv::vulkan {
namespace {

constexpr std::size_t kMinClass = 256;
// Classes up to this size share slabs; a slab holds 64 chunks, but at least 256 KiB and at most 8 MiB.
constexpr std::size_t kSlabMaxClass = 128 << 10;
constexpr std::size_t kSlabMin = 256 << 10, kSlabMax = 8 << 20;

std::size_t round_up(std::size_t n, std::size_t to) { return (n + to - 1) / to * to; }

}  // namespace

DeviceBuffer::DeviceBuffer(std::shared_ptr<Allocator> owner, Block* block, std::size_t offset, std::size_t bytes,
                           std::size_t size_class)
    : owner_(std::move(owner)), block_(block), offset_(offset), bytes_(bytes), size_class_(size_class) {}

DeviceBuffer::~DeviceBuffer() { owner_->give_back(block_, offset_, size_class_); }

bool has_unified_memory(const Context& context) {
  const auto& m = context.memory;
  vk::DeviceSize largest = 0;
  for (std::uint32_t h = 0; h < m.memoryHeapCount; ++h)
    if (m.memoryHeaps[h].flags & vk::MemoryHeapFlagBits::eDeviceLocal)
      largest = std::max(largest, m.memoryHeaps[h].size);
  const auto wanted = vk::MemoryPropertyFlagBits::eDeviceLocal | vk::MemoryPropertyFlagBits::eHostVisible |
                      vk::MemoryPropertyFlagBits::eHostCoherent | vk::MemoryPropertyFlagBits::eHostCached;
  for (std::uint32_t t = 0; t < m.memoryTypeCount; ++t)
    if ((m.memoryTypes[t].propertyFlags & wanted) == wanted &&
        m.memoryHeaps[m.memoryTypes[t].heapIndex].size >= largest)
      return true;
  return false;
}

Allocator::Allocator(std::shared_ptr<Context> context, bool mapped, std::uint64_t simulated_limit)
    : context_(std::move(context)), mapped_(mapped), simulated_limit_(simulated_limit) {
  max_buffer_ = context_->features.max_buffer_bytes;
  alignment_ = std::max<std::size_t>(context_->limits.minStorageBufferOffsetAlignment, 4);
  device_type_ = device_memory_type();
}

// Device-local memory on the largest device-local heap (and host-visible, coherent when mapped), with as few
// other properties as possible: on discrete GPUs that is plain VRAM, not the small host-visible BAR window.
std::uint32_t Allocator::device_memory_type() const {
  const auto& m = context_->memory;
  auto required = vk::MemoryPropertyFlags(vk::MemoryPropertyFlagBits::eDeviceLocal);
  if (mapped_) required |= vk::MemoryPropertyFlagBits::eHostVisible | vk::MemoryPropertyFlagBits::eHostCoherent;
  std::uint32_t best = m.memoryTypeCount;
  auto score = [&](std::uint32_t t) {
    const auto flags = m.memoryTypes[t].propertyFlags;
    return std::pair(m.memoryHeaps[m.memoryTypes[t].heapIndex].size,
                     -std::popcount(static_cast<VkMemoryPropertyFlags>(flags)));
  };
  for (std::uint32_t t = 0; t < m.memoryTypeCount; ++t)
    if ((m.memoryTypes[t].propertyFlags & required) == required &&
        (best == m.memoryTypeCount || score(t) > score(best)))
      best = t;
  if (best == m.memoryTypeCount)
    detail::fail("vulkan: ", context_->description.name, " has no device-local memory type",
                 mapped_ ? " that is host-visible and coherent" : "");
  return best;
}

std::uint32_t Allocator::host_memory_type(bool cached) const {
  const auto& m = context_->memory;
  const auto required = vk::MemoryPropertyFlagBits::eHostVisible | vk::MemoryPropertyFlagBits::eHostCoherent;
  for (const auto flags : {cached ? required | vk::MemoryPropertyFlagBits::eHostCached : required, required})
    for (std::uint32_t t = 0; t < m.memoryTypeCount; ++t)
      if ((m.memoryTypes[t].propertyFlags & flags) == flags) return t;
  detail::fail("vulkan: ", context_->description.name, " has no host-visible, coherent memory type");
}

std::size_t Allocator::size_class(std::size_t bytes) const {
  const std::size_t b = std::max(bytes, kMinClass);
  const std::size_t step = std::size_t{1} << (std::bit_width(b) - 3);  // a quarter of b's power of two
  const std::size_t c = round_up(round_up(b, step), alignment_);
  return c <= max_buffer_ ? c : round_up(b, 4);  // near the limit: the request itself
}

std::unique_ptr<Block> Allocator::allocate_block(std::size_t bytes, std::uint32_t type, bool map) {
  auto block = std::make_unique<Block>();
  block->size = bytes;
  const auto& device = context_->device;
  block->buffer = vk::raii::Buffer(device, vk::BufferCreateInfo{.size = bytes,
                                                                .usage = vk::BufferUsageFlagBits::eStorageBuffer |
                                                                         vk::BufferUsageFlagBits::eTransferSrc |
                                                                         vk::BufferUsageFlagBits::eTransferDst,
                                                                .sharingMode = vk::SharingMode::eExclusive});
  const auto requirements = block->buffer.getMemoryRequirements();
  if (!(requirements.memoryTypeBits & (1u << type)))
    detail::fail("vulkan: memory type ", type, " cannot back a storage buffer on ", context_->description.name);
  try {
    block->memory = vk::raii::DeviceMemory(
        device, vk::MemoryAllocateInfo{.allocationSize = requirements.size, .memoryTypeIndex = type});
  } catch (const vk::OutOfDeviceMemoryError&) {
    return nullptr;
  } catch (const vk::OutOfHostMemoryError&) {
    return nullptr;
  }
  ++allocations_;
  block->buffer.bindMemory(*block->memory, 0);
  if (map) block->mapped = static_cast<std::byte*>(block->memory.mapMemory(0, VK_WHOLE_SIZE));
  return block;
}

bool Allocator::grow(std::size_t size_class) {
  std::size_t bytes = size_class, chunks = 1;
  if (size_class <= kSlabMaxClass) {
    chunks = std::clamp(size_class * 64, kSlabMin, kSlabMax) / size_class;
    bytes = chunks * size_class;
  }
  if (simulated_limit_ != 0 && block_bytes_ + bytes > simulated_limit_) return false;
  auto block = allocate_block(bytes, device_type_, mapped_);
  if (!block) return false;
  auto& list = free_[size_class];
  for (std::size_t i = chunks; i-- > 0;) list.push_back({block.get(), i * size_class});
  block_bytes_ += bytes;
  blocks_.push_back(std::move(block));
  return true;
}

std::shared_ptr<DeviceBuffer> Allocator::try_allocate(std::size_t bytes) {
  if (bytes > max_buffer_)
    detail::fail("vulkan: cannot allocate a buffer of ", bytes, " bytes: ", context_->description.name,
                 " binds at most ", max_buffer_, " bytes per storage buffer (maxStorageBufferRange ",
                 context_->limits.maxStorageBufferRange, ", maxMemoryAllocationSize ",
                 context_->description.max_allocation_size, lowered_by_mask(), ")");
  const std::size_t c = size_class(bytes);
  std::lock_guard lock(mutex_);
  auto& list = free_[c];
  if (list.empty() && !grow(c)) return nullptr;
  const Chunk chunk = list.back();
  list.pop_back();
  ++chunk.block->chunks_in_use;
  in_use_ += c;
  return std::make_shared<DeviceBuffer>(shared_from_this(), chunk.block, chunk.offset, bytes, c);
}

void Allocator::give_back(Block* block, std::size_t offset, std::size_t size_class) {
  std::lock_guard lock(mutex_);
  free_[size_class].push_back({block, offset});
  --block->chunks_in_use;
  in_use_ -= size_class;
}

std::unique_ptr<Block> Allocator::allocate_host_block(std::size_t bytes, bool cached) {
  const std::uint32_t type = host_memory_type(cached);
  std::lock_guard lock(mutex_);
  auto block = allocate_block(bytes, type, true);
  if (!block) detail::fail("vulkan: out of memory allocating a ", bytes, "-byte host-visible transfer buffer");
  return block;
}

void Allocator::release_cached() {
  std::lock_guard lock(mutex_);
  std::unordered_set<const Block*> idle;
  for (const auto& b : blocks_)
    if (b->chunks_in_use == 0) idle.insert(b.get());
  if (idle.empty()) return;
  for (auto it = free_.begin(); it != free_.end();) {
    std::erase_if(it->second, [&](const Chunk& c) { return idle.count(c.block) != 0; });
    it = it->second.empty() ? free_.erase(it) : std::next(it);
  }
  std::erase_if(blocks_, [&](const std::unique_ptr<Block>& b) {
    if (idle.count(b.get()) == 0) return false;
    block_bytes_ -= b->size;
    return true;
  });
}

MemoryStats Allocator::stats() const {
  std::lock_guard lock(mutex_);
  return MemoryStats{
      .bytes_in_use = in_use_, .bytes_cached = block_bytes_ - in_use_, .device_allocations = allocations_};
}

}  // namespace nxv::vulkan
