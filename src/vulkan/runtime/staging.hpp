// The staging ring: host-visible memory that uploads are written into and copied from, on devices whose
// device-local memory the host cannot map. Regions are reserved for a batch and freed when it completes, so
// uploads are recorded into the pending batch without a submit until the ring is full.
#pragma once
#include <cstddef>
#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <utility>

#include "vulkan/runtime/memory.hpp"

namespace nxv::vulkan {

class StagingRing {
 public:
  StagingRing(Allocator& allocator, std::size_t capacity);

  struct Region {
    std::byte* data;
    vk::Buffer buffer;
    std::size_t offset;
  };
  // `bytes` (at most capacity()) for batch `serial`; nullopt while earlier batches still hold the space.
  std::optional<Region> reserve(std::size_t bytes, std::uint64_t serial);
  // Frees the regions of every batch up to `completed_serial`.
  void release(std::uint64_t completed_serial);
  std::size_t capacity() const { return capacity_; }

 private:
  std::unique_ptr<Block> block_;
  std::size_t capacity_;
  // Bytes ever reserved and ever freed: monotonic, so the ring's free space is capacity - (head - tail) and the
  // next offset is head % capacity.
  std::uint64_t head_ = 0, tail_ = 0;
  std::deque<std::pair<std::uint64_t, std::uint64_t>> marks_;  // (batch serial, head after its last region)
};

}  // namespace nxv::vulkan
