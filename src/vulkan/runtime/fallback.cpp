// The host-fallback choke point: the only path by which an op of the Vulkan backend runs on the CPU. Every event is
// counted (nxv::fallback::totals) and, as NXV_FALLBACK says, also printed or refused.
#include "vulkan/runtime/fallback.hpp"

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <string_view>
#include <vector>

#include "core/settings.hpp"
#include "nxv/error.hpp"
#include "nxv/fallback.hpp"

namespace nxv {
namespace {

struct FallbackState {
  std::mutex mutex;
  fallback::Counts counts;
  std::vector<OpCode> forced_codes;
  std::vector<std::string> forced_prefixes;
  std::atomic<bool> any_forced{false};
  std::atomic<int> mode{-1};  // -1: NXV_FALLBACK not read yet
};

FallbackState& state() {
  static FallbackState s;
  return s;
}

// This thread's guards, innermost last.
struct GuardFrame {
  fallback::Mode mode;
  std::vector<std::string> allowed;
};
thread_local std::vector<GuardFrame> t_guards;

fallback::Mode mode_from_environment() {
  const std::string v = settings::value(settings::Id::FALLBACK);
  return v == "warn" ? fallback::Mode::warn : v == "error" ? fallback::Mode::error : fallback::Mode::allow;
}

// "binary(pow)" for the ops whose describe() is only the function's name, else describe() itself.
std::string op_description(const OpCall& call) {
  std::string d = describe(call);
  const std::string_view op = op_name(call.code);
  if (std::string_view(d).substr(0, op.size()) == op) return d;
  return std::string(op) + "(" + d + ")";
}

std::string event_name(const OpCall& call, std::span<const Tensor> inputs, const TensorType& out) {
  std::string name = op_description(call) + ":";
  if (inputs.empty()) return name + std::string(nxv::name(out.dtype));
  name += nxv::name(inputs[0].dtype());
  if (call.code == OpCode::cast) name += "->" + std::string(nxv::name(out.dtype));
  return name;
}

std::string describe_inputs(std::span<const Tensor> inputs) {
  if (inputs.empty()) return "no inputs";
  std::string s;
  for (const Tensor& t : inputs) s += (s.empty() ? "" : ", ") + to_string(t.type());
  return s;
}

}  // namespace

namespace fallback {

Counts totals() {
  std::lock_guard lock(state().mutex);
  return state().counts;
}

Mode mode() {
  if (!t_guards.empty()) return t_guards.back().mode;
  int m = state().mode.load();
  if (m < 0) {
    m = static_cast<int>(mode_from_environment());
    state().mode.store(m);
  }
  return static_cast<Mode>(m);
}

void set_mode(Mode m) { state().mode.store(static_cast<int>(m)); }

Guard::Guard(Mode mode, std::vector<std::string> allowed) { t_guards.push_back({mode, std::move(allowed)}); }
Guard::~Guard() { t_guards.pop_back(); }

bool explained_by_device(const std::string& event) { return event.find(kDeviceLacks) != std::string::npos; }

Counts unexplained_by_device(const Counts& counts) {
  Counts left;
  for (const auto& [name, n] : counts)
    if (!explained_by_device(name)) left.emplace(name, n);
  return left;
}

bool allowed_by_guard(const std::string& event) {
  if (t_guards.empty()) return false;
  for (const std::string& prefix : t_guards.back().allowed)
    if (event.rfind(prefix, 0) == 0) return true;
  return false;
}

}  // namespace fallback

namespace vulkan {

void force_fallback_for_testing(OpCode code) {
  std::lock_guard lock(state().mutex);
  state().forced_codes.push_back(code);
  state().any_forced = true;
}

void force_fallback_for_testing(const std::string& name_prefix) {
  std::lock_guard lock(state().mutex);
  state().forced_prefixes.push_back(name_prefix);
  state().any_forced = true;
}

void clear_forced_fallbacks() {
  std::lock_guard lock(state().mutex);
  state().forced_codes.clear();
  state().forced_prefixes.clear();
  state().any_forced = false;
}

bool fallback_forced(const OpCall& call) {
  if (!state().any_forced.load(std::memory_order_relaxed)) return false;  // the common case: one atomic load
  std::lock_guard lock(state().mutex);
  for (OpCode code : state().forced_codes)
    if (code == call.code) return true;
  const std::string description = op_description(call);
  for (const std::string& prefix : state().forced_prefixes)
    if (description.rfind(prefix, 0) == 0) return true;
  return false;
}

std::shared_ptr<Storage> run_on_host(Backend& target, const OpCall& call, std::span<const Tensor> inputs,
                                     const TensorType& out, const std::string& lacking) {
  const std::string name =
      event_name(call, inputs, out) + (lacking.empty() ? "" : std::string(fallback::kDeviceLacks) + lacking + "]");
  const fallback::Mode m = fallback::allowed_by_guard(name) ? fallback::Mode::allow : fallback::mode();
  if (m == fallback::Mode::error)
    detail::fail(
        "vulkan: ", op_description(call), " on ", describe_inputs(inputs), " (result ", to_string(out),
        ") would run on the host (",
        lacking.empty() ? "no native Vulkan kernel" : "its kernel needs " + lacking + ", which the device lacks",
        "), and the fallback mode is error "
        "(NXV_FALLBACK=error, fallback::set_mode or a fallback::Guard on this thread)");
  {
    std::lock_guard lock(state().mutex);
    ++state().counts[name];
  }
  if (m == fallback::Mode::warn)
    std::fprintf(stderr, "nxv: host fallback: %s on %s\n", name.c_str(), describe_inputs(inputs).c_str());

  std::vector<Tensor> host_inputs;
  host_inputs.reserve(inputs.size());
  for (const Tensor& t : inputs) host_inputs.push_back(t.to_host());
  Backend& host = reference_backend();
  const Tensor result(out, host, host.execute(call, host_inputs, out));
  std::vector<std::byte> bytes(static_cast<std::size_t>(result.size()) * size_of(out.dtype));
  result.copy_to(bytes);
  return target.upload(bytes, out);
}

}  // namespace vulkan
}  // namespace nxv
