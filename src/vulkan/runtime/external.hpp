// What a kernel that hands recording to a library (VkFFT, src/vulkan/kernels/fft.cpp) needs of the runtime: its
// device, under its lock (the library creates objects and submits on the queue itself), and the pending batch's
// command buffer, with the barriers the library's buffers need on both sides.
#pragma once
#include <cstdint>
#include <functional>
#include <initializer_list>

#include "vulkan/runtime/context.hpp"
#include "vulkan/runtime/runtime.hpp"

namespace nxv::vulkan {

// Runs `f` with the default runtime's device while no other thread records or submits.
void with_device(const std::function<void(const Context&)>& f);
// Records `record`'s commands into the pending batch as one dispatch reading and writing `bindings` would be
// ordered (CommandStream::external); returns the serial of the batch holding them.
std::uint64_t record_external(std::initializer_list<Binding> bindings,
                              const std::function<void(vk::CommandBuffer)>& record);
// Waits until batch `serial` has completed (submitting it if it is still being recorded).
void wait_for_batch(std::uint64_t serial);
// The VkBuffer, offset and range a buffer binds.
vk::DescriptorBufferInfo buffer_info(const BufferPtr& buffer);

}  // namespace nxv::vulkan
