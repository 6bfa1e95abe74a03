// Recording, hazard barriers and the submission ring (design in batch.hpp).
#include "vulkan/runtime/batch.hpp"

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <limits>

#include "core/settings.hpp"
#include "nxv/error.hpp"
#include "vulkan/runtime/counters.hpp"
#include "vulkan/runtime/diagnostics.hpp"
#include "vulkan/runtime/profiler.hpp"

namespace nxv::vulkan {
namespace {

std::atomic<int>& batch_cap() {
  static std::atomic<int> cap = [] { return static_cast<int>(settings::count(settings::Id::BATCH_MAX)); }();
  return cap;
}

DeviceBuffer& device_buffer(const BufferPtr* buffer, const Pipeline& pipeline, std::size_t binding) {
  if (buffer == nullptr || *buffer == nullptr)
    detail::fail("vulkan dispatch of '", pipeline.shader, "': binding ", binding, " has no buffer");
  return static_cast<DeviceBuffer&>(**buffer);  // the allocator makes every Buffer
}

constexpr auto kDeviceStages = vk::PipelineStageFlagBits::eComputeShader | vk::PipelineStageFlagBits::eTransfer;
constexpr auto kDeviceWrites = vk::AccessFlagBits::eShaderWrite | vk::AccessFlagBits::eTransferWrite;

}  // namespace

Recording::Recording(const Context& context, std::uint64_t id) : id(id) {
  pool = vk::raii::CommandPool(context.device, vk::CommandPoolCreateInfo{.queueFamilyIndex = context.queue_family});
  vk::raii::CommandBuffers buffers(
      context.device, vk::CommandBufferAllocateInfo{
                          .commandPool = *pool, .level = vk::CommandBufferLevel::eSecondary, .commandBufferCount = 1});
  commands = std::move(buffers[0]);
  const vk::CommandBufferInheritanceInfo inheritance{};
  // Simultaneous use: a replay may be submitted while the previous one is still in flight.
  commands.begin(vk::CommandBufferBeginInfo{.flags = vk::CommandBufferUsageFlagBits::eSimultaneousUse,
                                            .pInheritanceInfo = &inheritance});
}

std::atomic<std::uint64_t> g_leaked_recordings{0};  // trivially destructible: readable during exit

std::uint64_t leaked_recordings() { return g_leaked_recordings.load(); }

Recording::~Recording() {
  if (runtime_alive()) return;  // the members free the command buffer and its pool
  commands.release();
  pool.release();
  if (descriptors) descriptors->release();
  g_leaked_recordings.fetch_add(1);
}

BufferPtr Recording::reuse(std::size_t bytes) {
  ++allocations;
  requested_bytes += bytes;
  for (const auto& b : owned)
    if (b.use_count() == 1 && b->size() == bytes) return b;
  return nullptr;
}

int batch_max() { return batch_cap().load(std::memory_order_relaxed); }
void set_batch_max(int dispatches) { batch_cap().store(std::max(0, dispatches), std::memory_order_relaxed); }

CommandStream::CommandStream(const Context& context, std::uint32_t max_bindings, std::uint32_t push_constant_bytes,
                             vk::DescriptorSetLayout set_layout)
    : context_(context),
      max_bindings_(max_bindings),
      push_constant_bytes_(push_constant_bytes),
      set_layout_(set_layout) {
  pool_ = vk::raii::CommandPool(context.device,
                                vk::CommandPoolCreateInfo{.flags = vk::CommandPoolCreateFlagBits::eResetCommandBuffer,
                                                          .queueFamilyIndex = context.queue_family});
  vk::raii::CommandBuffers buffers(
      context.device,
      vk::CommandBufferAllocateInfo{
          .commandPool = *pool_, .level = vk::CommandBufferLevel::ePrimary, .commandBufferCount = kSlots});
  for (std::size_t i = 0; i < kSlots; ++i) {
    slots_[i].commands = std::move(buffers[i]);
    slots_[i].fence = vk::raii::Fence(context.device, vk::FenceCreateInfo{});
    if (!context.features.push_descriptors)
      slots_[i].descriptors = std::make_unique<DescriptorArena>(context.device, set_layout, max_bindings);
  }
  const auto families = context.physical.getQueueFamilyProperties();
  if (profiling_requested() && families[context.queue_family].timestampValidBits > 0 &&
      context.limits.timestampPeriod > 0) {
    profile_queries_ = vk::raii::QueryPool(
        context.device,
        vk::QueryPoolCreateInfo{.queryType = vk::QueryType::eTimestamp, .queryCount = 2 * kProfiledPerSlot * kSlots});
    timestamp_ns_ = context.limits.timestampPeriod;
  }
}

CommandStream::~CommandStream() {
  try {
    finish();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "nxv: vulkan work failed during shutdown: %s\n", e.what());
  }
}

vk::raii::CommandBuffer& CommandStream::begin() {
  Slot& slot = slots_[current_];
  if (!recording_) {
    if (slot.in_flight) retire(slot);
    // The pool's eResetCommandBuffer flag lets vkBeginCommandBuffer reset the buffer implicitly.
    slot.commands.begin(vk::CommandBufferBeginInfo{.flags = vk::CommandBufferUsageFlagBits::eOneTimeSubmit});
    if (*profile_queries_)
      slot.commands.resetQueryPool(*profile_queries_, static_cast<std::uint32_t>(2 * kProfiledPerSlot * current_),
                                   2 * kProfiledPerSlot);
    recording_ = true;
  }
  return slot.commands;
}

vk::raii::CommandBuffer& CommandStream::target() { return capture_ ? capture_->commands : begin(); }

void CommandStream::barrier() {
  const vk::MemoryBarrier memory{
      .srcAccessMask = kDeviceWrites,
      .dstAccessMask = vk::AccessFlagBits::eShaderRead | vk::AccessFlagBits::eTransferRead | kDeviceWrites};
  target().pipelineBarrier(kDeviceStages, kDeviceStages, {}, memory, {}, {});
  ++epoch_;
  if (capture_)
    ++capture_->barriers;
  else
    count(counter_state().barriers);
}

void CommandStream::reference(const BufferPtr& buffer, DeviceBuffer& device_buffer) {
  if (capture_) {
    HazardState& h = device_buffer.hazards;
    if (h.capture == capture_->id || h.capture_ref == capture_->id) return;  // owned, or already held
    h.capture_ref = capture_->id;
    capture_->references.push_back(buffer);
    return;
  }
  if (device_buffer.hazards.ref_serial == recording_serial_) return;
  device_buffer.hazards.ref_serial = recording_serial_;
  slots_[current_].references.push_back(buffer);
}

void CommandStream::order(std::span<const Binding> bindings) {
  bool hazard = false;
  for (const Binding& b : bindings) {
    const HazardState& h = static_cast<DeviceBuffer&>(**b.buffer).hazards;
    hazard |= h.write_epoch == epoch_ || (b.writes && h.read_epoch == epoch_);
  }
  if (hazard) barrier();
  for (const Binding& b : bindings) {
    DeviceBuffer& d = static_cast<DeviceBuffer&>(**b.buffer);
    (b.writes ? d.hazards.write_epoch : d.hazards.read_epoch) = epoch_;
    if (b.writes) d.hazards.write_serial = recording_serial_;
    reference(*b.buffer, d);
  }
}

void CommandStream::dispatch(const Pipeline& pipeline, std::span<const Binding> bindings,
                             std::span<const std::byte> push, std::uint32_t groups_x, std::uint32_t groups_y,
                             std::uint32_t groups_z) {
  if (bindings.size() < pipeline.bindings || bindings.size() > max_bindings_)
    detail::fail("vulkan dispatch of '", pipeline.shader, "': got ", bindings.size(), " bindings, expected ",
                 pipeline.bindings, " (the shader's) up to ", max_bindings_);
  if (push.size() > push_constant_bytes_ || push.size() % 4 != 0)
    detail::fail("vulkan dispatch of '", pipeline.shader, "': got ", push.size(),
                 " bytes of push constants, expected a multiple of 4 up to ", push_constant_bytes_);
  const auto& max_groups = context_.limits.maxComputeWorkGroupCount;
  if (groups_x > max_groups[0] || groups_y > max_groups[1] || groups_z > max_groups[2])
    detail::fail("vulkan dispatch of '", pipeline.shader, "': got ", groups_x, "x", groups_y, "x", groups_z,
                 " workgroups, the device allows ", max_groups[0], "x", max_groups[1], "x", max_groups[2]);

  for (std::size_t i = 0; i < bindings.size(); ++i) device_buffer(bindings[i].buffer, pipeline, i);  // not null
  auto& commands = target();
  order(bindings);

  std::array<vk::DescriptorBufferInfo, kMaxBindings> infos;
  std::array<vk::WriteDescriptorSet, kMaxBindings> writes;
  for (std::size_t i = 0; i < bindings.size(); ++i) {
    const DeviceBuffer& b = static_cast<const DeviceBuffer&>(**bindings[i].buffer);
    infos[i] = vk::DescriptorBufferInfo{.buffer = b.handle(), .offset = b.offset(), .range = b.range()};
    writes[i] = vk::WriteDescriptorSet{.dstBinding = static_cast<std::uint32_t>(i),
                                       .descriptorCount = 1,
                                       .descriptorType = vk::DescriptorType::eStorageBuffer,
                                       .pBufferInfo = &infos[i]};
  }
  const vk::Pipeline handle = *pipeline.pipeline;
  if (handle != bound_pipeline_) {
    commands.bindPipeline(vk::PipelineBindPoint::eCompute, handle);
    bound_pipeline_ = handle;
  }
  const vk::ArrayProxy<const vk::WriteDescriptorSet> written(static_cast<std::uint32_t>(bindings.size()),
                                                             writes.data());
  if (context_.features.push_descriptors) {
    commands.pushDescriptorSetKHR(vk::PipelineBindPoint::eCompute, pipeline.layout, 0, written);
  } else {
    // A set from the batch's arena (reset when its fence signals) or the recording's (which lives as long).
    if (capture_ && !capture_->descriptors)
      capture_->descriptors = std::make_unique<DescriptorArena>(context_.device, set_layout_, max_bindings_);
    DescriptorArena& arena = capture_ ? *capture_->descriptors : *slots_[current_].descriptors;
    const vk::DescriptorSet set = arena.allocate();
    for (std::size_t i = 0; i < bindings.size(); ++i) writes[i].dstSet = set;
    context_.device.updateDescriptorSets(written, {});
    commands.bindDescriptorSets(vk::PipelineBindPoint::eCompute, pipeline.layout, 0, set, {});
  }
  if (!push.empty())
    commands.pushConstants<std::byte>(
        pipeline.layout, vk::ShaderStageFlagBits::eCompute, 0,
        vk::ArrayProxy<const std::byte>(static_cast<std::uint32_t>(push.size()), push.data()));
  if (capture_) {
    commands.dispatch(groups_x, groups_y, groups_z);
    ++capture_->dispatches;
    return;
  }
  Slot& slot = slots_[current_];
  const bool profiled = *profile_queries_ && slot.profiled.size() < kProfiledPerSlot;
  const auto query = static_cast<std::uint32_t>(2 * (kProfiledPerSlot * current_ + slot.profiled.size()));
  if (profiled) commands.writeTimestamp(vk::PipelineStageFlagBits::eTopOfPipe, *profile_queries_, query);
  commands.dispatch(groups_x, groups_y, groups_z);
  if (profiled) {
    commands.writeTimestamp(vk::PipelineStageFlagBits::eBottomOfPipe, *profile_queries_, query + 1);
    slot.profiled.push_back(&pipeline);
  }
  count(counter_state().dispatches);
  ++pending_dispatches_;

  submit_when_full();
}

std::uint64_t CommandStream::external(std::span<const Binding> bindings,
                                      const std::function<void(vk::CommandBuffer)>& record) {
  spoil_capture();
  auto& commands = begin();
  order(bindings);
  record(*commands);
  bound_pipeline_ = vk::Pipeline();  // the library bound its own
  const std::uint64_t serial = recording_serial_;
  count(counter_state().dispatches);
  ++pending_dispatches_;
  submit_when_full();
  return serial;
}

void CommandStream::copy_in(vk::Buffer src, std::size_t src_offset, const BufferPtr& dst, std::size_t dst_offset,
                            std::size_t bytes) {
  if (bytes == 0) return;
  spoil_capture();  // the staging bytes are this call's
  auto& commands = begin();
  DeviceBuffer& b = static_cast<DeviceBuffer&>(*dst);
  if (b.hazards.write_epoch == epoch_ || b.hazards.read_epoch == epoch_) barrier();
  b.hazards.write_epoch = epoch_;
  b.hazards.write_serial = recording_serial_;
  reference(dst, b);
  commands.copyBuffer(src, b.handle(),
                      vk::BufferCopy{.srcOffset = src_offset, .dstOffset = b.offset() + dst_offset, .size = bytes});
}

void CommandStream::copy_out(const BufferPtr& src, std::size_t src_offset, vk::Buffer dst, std::size_t bytes) {
  if (bytes == 0) return;
  spoil_capture();  // a download waits for its batch
  auto& commands = begin();
  DeviceBuffer& b = static_cast<DeviceBuffer&>(*src);
  if (b.hazards.write_epoch == epoch_) barrier();
  b.hazards.read_epoch = epoch_;
  reference(src, b);
  commands.copyBuffer(b.handle(), dst,
                      vk::BufferCopy{.srcOffset = b.offset() + src_offset, .dstOffset = 0, .size = bytes});
}

void CommandStream::begin_capture(std::shared_ptr<Recording> recording) {
  spoil_capture();
  capture_ = std::move(recording);
  ++epoch_;  // execute() puts a barrier before the recording: nothing recorded earlier is in its first epoch
  bound_pipeline_ = nullptr;
}

std::shared_ptr<Recording> CommandStream::end_capture() {
  if (!capture_) return nullptr;
  std::shared_ptr<Recording> recording = std::move(capture_);
  recording->commands.end();
  execute(recording);
  return recording;
}

void CommandStream::spoil_capture() {
  if (!capture_) return;
  capture_->spoiled = true;
  end_capture();
}

void CommandStream::execute(const std::shared_ptr<Recording>& recording) {
  if (capture_) detail::fail("vulkan: a recording cannot be executed while capturing");
  auto& commands = begin();
  barrier();
  commands.executeCommands(*recording->commands);
  barrier();
  bound_pipeline_ = nullptr;  // the primary's bound state is undefined after vkCmdExecuteCommands
  // Uploads into and downloads of its buffers wait for this batch (batch.hpp's serial rules).
  for (const auto& b : recording->owned) {
    b->hazards.ref_serial = recording_serial_;
    b->hazards.write_serial = recording_serial_;
  }
  for (const auto& buffer : recording->references) {
    DeviceBuffer& b = static_cast<DeviceBuffer&>(*buffer);
    b.hazards.ref_serial = recording_serial_;
    b.hazards.write_serial = recording_serial_;
  }
  Slot& slot = slots_[current_];
  slot.recordings.push_back(recording);
  count(counter_state().dispatches, recording->dispatches);
  count(counter_state().barriers, recording->barriers);
  pending_dispatches_ += recording->dispatches;
  submit_when_full();
}

void CommandStream::submit_when_full() {
  const int cap = batch_max();
  if (cap == 0)
    finish();
  else if (pending_dispatches_ >= static_cast<std::uint32_t>(cap))
    submit();
}

void CommandStream::submit() {
  spoil_capture();
  if (!recording_) return;
  Slot& slot = slots_[current_];
  // Makes every device write of the batch visible to the host, which reads downloads (mapped or through the
  // readback buffer) after the fence; the fence alone does not (Vulkan spec, "Host Access to Device Memory").
  const vk::MemoryBarrier to_host{.srcAccessMask = kDeviceWrites, .dstAccessMask = vk::AccessFlagBits::eHostRead};
  slot.commands.pipelineBarrier(kDeviceStages, vk::PipelineStageFlagBits::eHost, {}, to_host, {}, {});
  slot.commands.end();
  const vk::CommandBuffer handle = *slot.commands;
  context_.queue.submit(vk::SubmitInfo{.commandBufferCount = 1, .pCommandBuffers = &handle}, *slot.fence);
  count(counter_state().submits);
  slot.serial = recording_serial_++;
  slot.in_flight = true;
  current_ = (current_ + 1) % kSlots;
  recording_ = false;
  pending_dispatches_ = 0;
  bound_pipeline_ = nullptr;
}

void CommandStream::retire(Slot& slot) {
  const auto result = context_.device.waitForFences(*slot.fence, VK_TRUE, std::numeric_limits<std::uint64_t>::max());
  if (result != vk::Result::eSuccess) detail::fail("vulkan: waiting for a batch returned ", vk::to_string(result));
  count(counter_state().fence_waits);
  context_.device.resetFences(*slot.fence);
  if (!slot.profiled.empty()) read_profile(slot, static_cast<std::size_t>(&slot - slots_.data()));
  slot.references.clear();  // buffers the program already dropped return to the cache here
  if (slot.descriptors) slot.descriptors->reset();
  slot.recordings.clear();
  slot.in_flight = false;
  completed_serial_ = std::max(completed_serial_, slot.serial);
}

void CommandStream::read_profile(Slot& slot, std::size_t index) {
  const auto n = static_cast<std::uint32_t>(2 * slot.profiled.size());
  const auto [result, ticks] = profile_queries_.getResults<std::uint64_t>(
      static_cast<std::uint32_t>(2 * kProfiledPerSlot * index), n, n * sizeof(std::uint64_t), sizeof(std::uint64_t),
      vk::QueryResultFlagBits::e64 | vk::QueryResultFlagBits::eWait);
  if (result == vk::Result::eSuccess)
    for (std::size_t i = 0; i < slot.profiled.size(); ++i)
      profile_totals().add(
          slot.profiled[i]->shader,
          static_cast<std::uint64_t>(static_cast<double>(ticks[2 * i + 1] - ticks[2 * i]) * timestamp_ns_));
  slot.profiled.clear();
}

void CommandStream::wait_for(std::uint64_t serial) {
  spoil_capture();
  if (serial >= recording_serial_) submit();
  // Submitted slots complete in submission order: retire the oldest first.
  for (std::size_t i = 1; i <= kSlots; ++i) {
    Slot& slot = slots_[(current_ + i) % kSlots];
    if (slot.in_flight && slot.serial <= serial) retire(slot);
  }
}

}  // namespace nxv::vulkan
