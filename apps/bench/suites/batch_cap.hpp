// Sets the Vulkan batch cap (NXV_BATCH_MAX's value, changed at run time) for the lifetime of the object.
#pragma once
#include "vulkan/runtime/diagnostics.hpp"

namespace nxv::bench {

class BatchCap {
 public:
  explicit BatchCap(int cap) : previous_(vulkan::batch_max()) { vulkan::set_batch_max(cap); }
  ~BatchCap() { vulkan::set_batch_max(previous_); }
  BatchCap(const BatchCap&) = delete;
  BatchCap& operator=(const BatchCap&) = delete;

 private:
  int previous_;
};

}  // namespace nxv::bench
