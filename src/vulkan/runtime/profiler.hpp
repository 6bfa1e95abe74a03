// GPU time per shader (NXV_PROFILE=1): the command stream writes a timestamp before and after each dispatch and,
// once the batch's fence has signalled, adds the differences up per shader name. For finding which kernels a
// training step spends its time in; dispatches without a barrier between them may overlap on the GPU, so their
// times can add up to more than the batch's wall time.
#pragma once
#include <cstdint>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "nxv/vulkan.hpp"

namespace nxv::vulkan {

// Whether NXV_PROFILE asks for timestamps (read when a runtime starts, and at exit for the report).
bool profiling_requested();

// The process-wide totals kernel_profile() reports.
class ProfileTotals {
 public:
  void add(const std::string& shader, std::uint64_t nanoseconds);
  std::vector<KernelProfile> sorted() const;
  void reset();

 private:
  mutable std::mutex mutex_;
  std::unordered_map<std::string, KernelProfile> totals_;
};
ProfileTotals& profile_totals();

}  // namespace nxv::vulkan
