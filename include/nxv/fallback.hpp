// Host fallback: an op the Vulkan backend cannot run natively is run on the CPU reference backend through one
// choke point (src/vulkan/runtime/fallback.cpp), and every such event is counted here -- never silent.
//
// Events are named "<op>:<dtype>" (e.g. "binary(pow):f64", "as_type:f32->s32"): the op as nxv::describe()
// gives it and its first input's dtype (the output's for ops without inputs). Where the op has a kernel that needs
// a shader feature the device lacks (f64 on most phones and Apple GPUs, int64, 8/16-bit storage; NXV_DEVICE_MASK
// hides them for tests) the name goes on with " [device lacks <feature>]", e.g.
// "binary(add):f64 [device lacks shaderFloat64]": such events are the device's tier, expected there (README,
// "What each device gets"), not a missing kernel.
// NXV_FALLBACK=allow (default) | warn (one line per event on stderr) | error (nxv::Error naming the op, its
// input shapes and dtypes) sets the initial mode.
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace nxv::fallback {

using Counts = std::map<std::string, std::uint64_t>;

inline constexpr const char* kDeviceLacks = " [device lacks ";
// Whether an event is one of a kernel needing a feature the device lacks (its name holds kDeviceLacks).
bool explained_by_device(const std::string& event);
// `counts` less the events explained_by_device: the fallbacks a test on any device expects none of.
Counts unexplained_by_device(const Counts& counts);

// Every fallback event of the process so far, by name.
Counts totals();

// The events `fn` caused (a difference of totals(), so events of other threads running meanwhile count too).
template <class F>
Counts count(F&& fn) {
  const Counts before = totals();
  std::forward<F>(fn)();
  Counts caused;
  for (const auto& [name, n] : totals()) {
    const auto it = before.find(name);
    const std::uint64_t delta = n - (it == before.end() ? 0 : it->second);
    if (delta != 0) caused[name] = delta;
  }
  return caused;
}

template <class F>
std::uint64_t count_total(F&& fn) {
  std::uint64_t n = 0;
  for (const auto& entry : count(std::forward<F>(fn))) n += entry.second;
  return n;
}

enum class Mode { allow, warn, error };
// The mode on this thread: the innermost Guard's, else the process-wide one (NXV_FALLBACK when first asked, then
// whatever set_mode() said).
Mode mode();
void set_mode(Mode m);  // process-wide

// A mode for the calling thread until the guard is destroyed (guards nest; other threads keep theirs), with an
// allowlist: events whose name starts with one of `allowed` (e.g. "sort(" or "binary(pow):f64") take the
// fallback silently even under Mode::error.
//
//   nxv::fallback::Guard strict(nxv::fallback::Mode::error, {"argsort("});  // nothing else may leave the GPU here
class Guard {
 public:
  explicit Guard(Mode mode, std::vector<std::string> allowed = {});
  ~Guard();
  Guard(const Guard&) = delete;
  Guard& operator=(const Guard&) = delete;
};
// Whether this thread's innermost Guard allows the event named `event` whatever its mode.
bool allowed_by_guard(const std::string& event);

}  // namespace nxv::fallback
