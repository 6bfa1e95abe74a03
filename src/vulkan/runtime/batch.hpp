// Command recording and submission: dispatches and copies go into a pending command buffer, with a barrier only
// where a buffer hazard needs one, and are submitted in batches of NXV_BATCH_MAX dispatches.
//
// Barriers: each buffer remembers the barrier epoch of its last read and last write (HazardState). A command
// that reads a buffer written in the current epoch (RAW), or writes one read or written in it (WAR, WAW),
// first records one global vk::MemoryBarrier (compute|transfer -> compute|transfer) and starts a new epoch.
// Epochs run on across batches, since a barrier also orders against earlier submissions on the queue.
// That costs O(1) per binding and no per-batch sets; independent dispatches record no barrier at all.
//
// Submission: a ring of kSlots command buffers and fences. A full batch is submitted without waiting; its slot
// is waited on (one fence wait per batch) when the ring comes round to it, or when a download or flush needs
// it. Each slot holds a reference to every buffer its commands use, dropped when its fence has signalled, so
// a buffer freed by the program while its work is pending returns to the cache only afterwards.
//
// Capture and replay (the idea of CUDA graphs): between begin_capture and end_capture, commands go into a
// Recording's own secondary command buffer instead of the pending batch. execute() runs a recording inside the
// pending batch between two barriers, so its first command is ordered after everything recorded before it and
// its last before everything after; that is why capture starts and ends a barrier epoch. Whatever cannot be
// replayed (an upload, a download, a submit or wait, a command from another thread) spoils the capture: the
// recording is executed once, in order, and capture ends without a reusable recording.
#pragma once
#include <array>
#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "vulkan/runtime/context.hpp"
#include "vulkan/runtime/descriptors.hpp"
#include "vulkan/runtime/memory.hpp"
#include "vulkan/runtime/pipelines.hpp"

namespace nxv::vulkan {

// False once the default runtime has shut down (at exit), when device objects must be leaked, not destroyed.
bool runtime_alive();

struct Recording {
  Recording(const Context& context, std::uint64_t id);
  ~Recording();  // without touching the device when the runtime has shut down (the driver may be gone at exit)
  Recording(const Recording&) = delete;
  Recording& operator=(const Recording&) = delete;

  // A buffer for the capture: one the capture allocated earlier and nobody else holds any more (its value is
  // dead in program order; the barriers a reuse needs come from its hazard state), else nullptr.
  BufferPtr reuse(std::size_t bytes);

  std::uint64_t id;
  vk::raii::CommandPool pool{nullptr};  // its own, so that freeing it needs no lock shared with the ring
  vk::raii::CommandBuffer commands{nullptr};
  std::vector<BufferPtr> references;                 // buffers it uses that it did not allocate
  std::vector<std::shared_ptr<DeviceBuffer>> owned;  // buffers allocated while capturing (its memory pool)
  std::unique_ptr<DescriptorArena> descriptors;      // its dispatches' sets, without push descriptors
  std::uint32_t dispatches = 0, barriers = 0;
  std::uint64_t allocations = 0, requested_bytes = 0;  // allocation requests while capturing (reuses included)
  bool spoiled = false;
};

class CommandStream {
 public:
  // `set_layout`: the pipelines' set layout, for descriptor sets where the device has no push descriptors.
  CommandStream(const Context& context, std::uint32_t max_bindings, std::uint32_t push_constant_bytes,
                vk::DescriptorSetLayout set_layout);
  ~CommandStream();  // waits for every submitted batch
  CommandStream(const CommandStream&) = delete;
  CommandStream& operator=(const CommandStream&) = delete;

  void dispatch(const Pipeline& pipeline, std::span<const Binding> bindings, std::span<const std::byte> push,
                std::uint32_t groups_x, std::uint32_t groups_y, std::uint32_t groups_z);
  // Commands that `record` writes into the pending batch itself (a library's, such as VkFFT's), ordered like one
  // dispatch that reads and writes `bindings`; the runtime rebinds its own pipeline after them. Ends a capture
  // (a library's descriptor sets are not the recording's to replay). Returns the serial of the batch holding them.
  std::uint64_t external(std::span<const Binding> bindings, const std::function<void(vk::CommandBuffer)>& record);
  // Copies from a host-visible staging buffer into a device buffer (an upload).
  void copy_in(vk::Buffer src, std::size_t src_offset, const BufferPtr& dst, std::size_t dst_offset, std::size_t bytes);
  // Copies from a device buffer into a host-visible readback buffer (a download).
  void copy_out(const BufferPtr& src, std::size_t src_offset, vk::Buffer dst, std::size_t bytes);

  void begin_capture(std::shared_ptr<Recording> recording);
  Recording* capture() const { return capture_.get(); }
  // Ends the capture and executes the recording; nullptr when it was spoiled (and so already executed).
  std::shared_ptr<Recording> end_capture();
  // Ends a capture early, executing what it recorded so far; nothing when not capturing.
  void spoil_capture();
  void execute(const std::shared_ptr<Recording>& recording);

  // Submits the recording batch, if it holds any command; does not wait.
  void submit();
  // Waits until batch `serial` has completed, submitting it first if it is the one still recording.
  void wait_for(std::uint64_t serial);
  // Submits and waits for everything.
  void finish() { wait_for(recording_serial_); }

  std::uint64_t recording_serial() const { return recording_serial_; }
  std::uint64_t completed_serial() const { return completed_serial_; }

 private:
  static constexpr std::size_t kSlots = 3;
  // NXV_PROFILE=1: timestamps before and after each of the first kProfiledPerSlot dispatches of a batch.
  static constexpr std::uint32_t kProfiledPerSlot = 1024;
  struct Slot {
    vk::raii::CommandBuffer commands{nullptr};
    vk::raii::Fence fence{nullptr};
    std::vector<BufferPtr> references;
    std::vector<std::shared_ptr<Recording>> recordings;  // executed in this batch
    std::vector<const Pipeline*> profiled;               // the dispatches whose timestamps this slot's queries hold
    std::unique_ptr<DescriptorArena> descriptors;        // without push descriptors: the batch's sets
    std::uint64_t serial = 0;
    bool in_flight = false;
  };

  vk::raii::CommandBuffer& begin();   // the recording command buffer, begun if needed
  vk::raii::CommandBuffer& target();  // the capture's command buffer while capturing, else begin()'s
  void barrier();
  // The barrier that a command using `bindings` (buffers not null) needs against the pending work, then their hazard
  // state and the batch's references brought up to date: the ordering of dispatches and external commands alike.
  void order(std::span<const Binding> bindings);
  void submit_when_full();  // NXV_BATCH_MAX's rule, after a dispatch or a recording
  void reference(const BufferPtr& buffer, DeviceBuffer& device_buffer);
  void retire(Slot& slot);  // waits for its fence and drops its references
  void read_profile(Slot& slot, std::size_t index);

  const Context& context_;
  std::uint32_t max_bindings_, push_constant_bytes_;
  vk::DescriptorSetLayout set_layout_;
  vk::raii::CommandPool pool_{nullptr};
  std::array<Slot, kSlots> slots_;
  std::size_t current_ = 0;  // the slot being recorded into
  bool recording_ = false;   // slots_[current_] has begun
  std::uint32_t pending_dispatches_ = 0;
  vk::Pipeline bound_pipeline_;  // in the recording command buffer
  std::uint64_t epoch_ = 1;      // barrier epoch (HazardState's 0 means "never")
  std::uint64_t recording_serial_ = 1, completed_serial_ = 0;
  vk::raii::QueryPool profile_queries_{nullptr};  // 2 * kProfiledPerSlot per slot; null unless profiling
  double timestamp_ns_ = 1;                       // nanoseconds per timestamp tick
  std::shared_ptr<Recording> capture_;            // while capturing
};

}  // namespace nxv::vulkan
