// The staging ring (see staging.hpp).
#include "vulkan/runtime/staging.hpp"

namespace nxv::vulkan {
namespace {
// Copy offsets need no alignment, but 16-byte regions keep host-side memcpy on aligned addresses.
constexpr std::uint64_t kAlign = 16;
}  // namespace

StagingRing::StagingRing(Allocator& allocator, std::size_t capacity)
    : block_(allocator.allocate_host_block(capacity, false)), capacity_(capacity) {}

std::optional<StagingRing::Region> StagingRing::reserve(std::size_t bytes, std::uint64_t serial) {
  // An empty ring starts over at offset 0, so that a region up to the whole capacity always fits once the
  // batches holding the ring have completed (else a region past the end's remaining room could never fit).
  if (head_ == tail_ && head_ % capacity_ + bytes > capacity_) head_ = tail_ = (head_ / capacity_ + 1) * capacity_;
  const std::uint64_t offset = head_ % capacity_;
  const std::uint64_t skip = offset + bytes > capacity_ ? capacity_ - offset : 0;  // regions never wrap
  if (bytes > capacity_ || head_ + skip + bytes - tail_ > capacity_) return std::nullopt;
  head_ += skip;
  const std::size_t start = static_cast<std::size_t>(head_ % capacity_);
  head_ = (head_ + bytes + kAlign - 1) / kAlign * kAlign;
  if (!marks_.empty() && marks_.back().first == serial)
    marks_.back().second = head_;
  else
    marks_.emplace_back(serial, head_);
  return Region{block_->mapped + start, *block_->buffer, start};
}

void StagingRing::release(std::uint64_t completed_serial) {
  while (!marks_.empty() && marks_.front().first <= completed_serial) {
    tail_ = marks_.front().second;
    marks_.pop_front();
  }
}

}  // namespace nxv::vulkan
