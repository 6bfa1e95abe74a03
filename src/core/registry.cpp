// The backend registry (include/nxv/backend.hpp): backends by name and priority, the default backend, and the
// compiler jit uses for each (ggml's ggml-backend-reg.cpp is the model).
#include "core/registry.hpp"

#include <algorithm>
#include <atomic>
#include <mutex>
#include <optional>

#include "core/settings.hpp"
#include "nxv/error.hpp"

namespace nxv {
namespace {

struct Registry {
  std::mutex mutex;
  std::vector<BackendInfo> backends;                // highest priority first
  std::atomic<Backend*> default_backend = nullptr;  // set_default_backend()'s choice
};

// Adds `info` in priority order; the caller holds the lock.
void add(Registry& r, BackendInfo info) {
  NXV_CHECK(!info.name.empty() && info.available && info.get, "register_backend",
            "a backend needs a name, an availability test and a getter");
  auto same = [&](const BackendInfo& b) { return b.name == info.name; };
  NXV_CHECK(std::none_of(r.backends.begin(), r.backends.end(), same), "register_backend", "a backend named '",
            info.name, "' is registered already");
  const auto at = std::find_if(r.backends.begin(), r.backends.end(),
                               [&](const BackendInfo& b) { return b.priority < info.priority; });
  r.backends.insert(at, std::move(info));
}

// The registry, with the built-in backends registered on first use (never destroyed: backends outlive static
// destructors that may still create tensors).
Registry& populated() {
  static Registry* r = [] {
    auto* built = new Registry;
    for (BackendInfo& b : detail::builtin_backends()) add(*built, std::move(b));
    return built;
  }();
  return *r;
}

std::vector<BackendInfo> snapshot() {
  Registry& r = populated();
  std::lock_guard lock(r.mutex);
  return r.backends;
}

// The registered backend named `name` (copied out under the lock: a registration may grow the list meanwhile).
std::optional<BackendInfo> find(std::string_view name) {
  Registry& r = populated();
  std::lock_guard lock(r.mutex);
  for (const BackendInfo& b : r.backends)
    if (b.name == name) return b;
  return std::nullopt;
}

std::string names(const std::vector<BackendInfo>& backends) {
  std::string out;
  for (const BackendInfo& b : backends) out += (out.empty() ? "" : ", ") + b.name;
  return out;
}

}  // namespace

void register_backend(BackendInfo info) {
  Registry& r = populated();
  std::lock_guard lock(r.mutex);
  add(r, std::move(info));
}

std::vector<BackendInfo> registered_backends() { return snapshot(); }

Backend& backend(std::string_view name) {
  if (std::optional<BackendInfo> b = find(name)) return b->get();
  detail::fail("backend: no backend named '", name, "' (registered: ", names(snapshot()), ")");
}

Backend& default_backend() {
  if (Backend* chosen = populated().default_backend.load()) return *chosen;
  const std::string wanted = settings::value(settings::Id::BACKEND);
  if (wanted != "auto") return backend(wanted);
  for (const BackendInfo& b : snapshot())
    if (b.available()) return b.get();
  detail::fail("NXV_BACKEND=auto: no registered backend is available (registered: ", names(snapshot()), ")");
}

void set_default_backend(Backend& backend) { populated().default_backend = &backend; }

namespace detail {

std::shared_ptr<Compiler> registered_compiler(const Backend& backend) {
  const std::optional<BackendInfo> b = find(backend.name());
  return b && b->compiler ? b->compiler() : nullptr;
}

std::shared_ptr<MapCompiler> registered_map_compiler(const Backend& backend) {
  const std::optional<BackendInfo> b = find(backend.name());
  return b && b->map_compiler ? b->map_compiler() : nullptr;
}

}  // namespace detail
}  // namespace nxv
