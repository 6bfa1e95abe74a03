// The per-shader totals behind nxv::vulkan::kernel_profile() (the timestamps are written in batch.cpp).
#include "vulkan/runtime/profiler.hpp"
#include "core/settings.hpp"

#include <algorithm>

namespace nxv::vulkan {

bool profiling_requested() { return settings::flag(settings::Id::PROFILE); }

void ProfileTotals::add(const std::string& shader, std::uint64_t nanoseconds) {
  std::lock_guard lock(mutex_);
  KernelProfile& p = totals_[shader];
  p.shader = shader;
  ++p.dispatches;
  p.gpu_ms += static_cast<double>(nanoseconds) * 1e-6;
}

std::vector<KernelProfile> ProfileTotals::sorted() const {
  std::lock_guard lock(mutex_);
  std::vector<KernelProfile> out;
  for (const auto& [name, p] : totals_) out.push_back(p);
  std::sort(out.begin(), out.end(), [](const KernelProfile& a, const KernelProfile& b) { return a.gpu_ms > b.gpu_ms; });
  return out;
}

void ProfileTotals::reset() {
  std::lock_guard lock(mutex_);
  totals_.clear();
}

ProfileTotals& profile_totals() {
  static auto* totals = new ProfileTotals;  // outlives static destructors: the exit report reads it
  return *totals;
}

std::vector<KernelProfile> kernel_profile() { return profile_totals().sorted(); }
void reset_kernel_profile() { profile_totals().reset(); }

}  // namespace nxv::vulkan
