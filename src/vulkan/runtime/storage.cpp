#include "vulkan/runtime/storage.hpp"

#include "nxv/error.hpp"

namespace nxv::vulkan {

const BufferPtr& buffer_of(const Tensor& t, const char* op) {
  const auto* s = dynamic_cast<const VulkanStorage*>(t.storage().get());
  if (s == nullptr)
    detail::fail(op, ": a ", to_string(t.type()), " tensor on the ", t.backend().name(),
                 " backend reached the Vulkan backend (move it with Tensor::to first)");
  return s->buffer;
}

}  // namespace nxv::vulkan
