// The caching device-memory allocator behind Runtime::allocate.
//
// Design: requests are rounded up to size classes, four per power of two above 256 bytes (256, 320, 384, 448,
// 512, 640, ...), so a class wastes at most 25% and freed buffers are reused by any request of the same class.
// Classes up to 128 KiB are carved out of shared slabs (one vkAllocateMemory of 256 KiB-8 MiB holding many
// chunks), which keeps the number of device allocations small (drivers cap it, e.g. 4096 on some) when a
// program holds thousands of small tensors; larger classes get a block each. Freed chunks go to a per-class
// free list and stay allocated (bytes_cached) until release_cached() frees every block with no chunk in use.
// A Buffer returns to the free list when its last reference dies; pending batches hold references, so memory
// is never reused while GPU work may still touch it.
#pragma once
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

#include "vulkan/runtime/context.hpp"
#include "vulkan/runtime/runtime.hpp"

namespace nxv::vulkan {

// One vkAllocateMemory with one VkBuffer over all of it (and its persistent mapping when host-visible).
struct Block {
  vk::raii::DeviceMemory memory{nullptr};
  vk::raii::Buffer buffer{nullptr};
  std::byte* mapped = nullptr;
  std::size_t size = 0;
  std::uint32_t chunks_in_use = 0;
};

class Allocator;

// What a dispatch needs to know to order itself after earlier work on a buffer (see batch.hpp). Only touched
// under the runtime's recording lock.
struct HazardState {
  std::uint64_t read_epoch = 0, write_epoch = 0;  // barrier epochs of the last read / write
  std::uint64_t write_serial = 0;                 // batch serial of the last write (0: none)
  std::uint64_t ref_serial = 0;                   // batch serial that already holds a reference
  std::uint64_t capture = 0;                      // the capture (Recording::id) that allocated it, 0: none
  std::uint64_t capture_ref = 0;                  // the capture that already holds a reference
};

class DeviceBuffer final : public Buffer {
 public:
  DeviceBuffer(std::shared_ptr<Allocator> owner, Block* block, std::size_t offset, std::size_t bytes,
               std::size_t size_class);
  ~DeviceBuffer() override;
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;

  std::size_t size() const override { return bytes_; }
  vk::Buffer handle() const { return *block_->buffer; }
  std::size_t offset() const { return offset_; }
  // The bytes a descriptor binds: the request rounded up to whole 32-bit words (at least one), so shaders that
  // read byte-sized elements as uint words stay inside the range. Always within the chunk.
  std::size_t range() const { return bytes_ == 0 ? 4 : (bytes_ + 3) / 4 * 4; }
  std::byte* mapped() const { return block_->mapped ? block_->mapped + offset_ : nullptr; }

  HazardState hazards;

 private:
  std::shared_ptr<Allocator> owner_;  // keeps the device alive for buffers that outlive the runtime
  Block* block_;
  std::size_t offset_, bytes_, size_class_;
};

class Allocator : public std::enable_shared_from_this<Allocator> {
 public:
  // `mapped`: allocate device-local memory that is also host-visible and map it (unified memory); otherwise
  // plain device-local memory. `simulated_limit`: see RuntimeOptions (0: none).
  Allocator(std::shared_ptr<Context> context, bool mapped, std::uint64_t simulated_limit);

  // A buffer of at least `bytes`, or nullptr when the device is out of memory. nxv::Error when `bytes` exceeds
  // what one storage buffer may span.
  std::shared_ptr<DeviceBuffer> try_allocate(std::size_t bytes);
  // A host-visible, coherent block outside the cache (staging and readback), mapped. nxv::Error when none.
  std::unique_ptr<Block> allocate_host_block(std::size_t bytes, bool cached);

  MemoryStats stats() const;
  void release_cached();
  bool mapped() const { return mapped_; }
  std::size_t max_buffer_size() const { return max_buffer_; }

 private:
  friend class DeviceBuffer;
  struct Chunk {
    Block* block;
    std::size_t offset;
  };
  void give_back(Block* block, std::size_t offset, std::size_t size_class);
  std::size_t size_class(std::size_t bytes) const;
  // Adds a block for `size_class` and its chunks to the free list; false when out of device memory.
  bool grow(std::size_t size_class);
  // nullptr when out of device memory.
  std::unique_ptr<Block> allocate_block(std::size_t bytes, std::uint32_t memory_type, bool map);
  std::uint32_t device_memory_type() const;
  std::uint32_t host_memory_type(bool cached) const;

  std::shared_ptr<Context> context_;
  bool mapped_;
  std::uint64_t simulated_limit_;
  std::uint32_t device_type_;
  std::size_t max_buffer_, alignment_;

  mutable std::mutex mutex_;
  std::map<std::size_t, std::vector<Chunk>> free_;  // size class -> free chunks
  std::vector<std::unique_ptr<Block>> blocks_;
  std::uint64_t block_bytes_ = 0, in_use_ = 0, allocations_ = 0;
};

// Whether the device has one memory type that is device-local, host-visible, coherent and cached on the largest
// device-local heap (lavapipe, integrated GPUs): then buffers are mapped and transfers are plain memcpy.
// Discrete GPUs with resizable BAR are excluded on purpose: their host-visible VRAM reads back uncached.
bool has_unified_memory(const Context& context);

}  // namespace nxv::vulkan
