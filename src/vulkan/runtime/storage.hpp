// The Vulkan backend's storage: a tensor's elements in one device buffer (row-major, no offset), and the way
// from a tensor to its buffer that the kernels and the fusion compiler take.
#pragma once
#include <memory>

#include "nxv/tensor.hpp"
#include "vulkan/runtime/runtime.hpp"

namespace nxv::vulkan {

struct VulkanStorage : Storage {
  explicit VulkanStorage(BufferPtr b) : buffer(std::move(b)) {}
  BufferPtr buffer;
};

// The buffer behind a tensor of the Vulkan backend; nxv::Error naming `op` when it lives elsewhere.
const BufferPtr& buffer_of(const Tensor& t, const char* op = "vulkan");

}  // namespace nxv::vulkan
