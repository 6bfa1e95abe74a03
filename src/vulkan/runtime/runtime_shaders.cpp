// The registry of run-time shaders (runtime_shaders.hpp): a map that only grows, so spans handed out stay valid.
#include "vulkan/runtime/runtime_shaders.hpp"

#include <array>
#include <map>
#include <memory>
#include <mutex>
#include <utility>

#include "nxv/error.hpp"
#include "vulkan/runtime/pipelines.hpp"

namespace nxv::vulkan {
namespace {

struct Registry {
  std::mutex mutex;
  std::map<std::string, std::unique_ptr<const std::vector<std::uint32_t>>, std::less<>> shaders;
};

Registry& registry() {
  static auto* r = new Registry;  // never destroyed: pipelines may be created from it during static destruction
  return *r;
}

// Runtime::dispatch takes an initializer_list: one instantiation per binding count, picked from a table.
using DispatchFn = void (*)(Runtime&, const Pipeline*, std::span<const Binding>, std::span<const std::byte>,
                            std::uint32_t, std::uint32_t, std::uint32_t);

template <std::size_t... I>
void dispatch_exactly(Runtime& rt, const Pipeline* p, [[maybe_unused]] std::span<const Binding> b,
                      std::span<const std::byte> push, std::uint32_t x, std::uint32_t y, std::uint32_t z,
                      std::index_sequence<I...>) {
  rt.dispatch(p, {b[I]...}, push, x, y, z);
}
template <std::size_t N>
void dispatch_n(Runtime& rt, const Pipeline* p, std::span<const Binding> b, std::span<const std::byte> push,
                std::uint32_t x, std::uint32_t y, std::uint32_t z) {
  dispatch_exactly(rt, p, b, push, x, y, z, std::make_index_sequence<N>{});
}
template <std::size_t... N>
constexpr std::array<DispatchFn, sizeof...(N)> dispatch_table(std::index_sequence<N...>) {
  return {&dispatch_n<N>...};
}
constexpr auto k_dispatch = dispatch_table(std::make_index_sequence<kMaxBindings + 1>{});

}  // namespace

void dispatch_bindings(Runtime& runtime, const Pipeline* pipeline, std::span<const Binding> bindings,
                       std::span<const std::byte> push, std::uint32_t groups_x, std::uint32_t groups_y,
                       std::uint32_t groups_z) {
  if (bindings.size() >= k_dispatch.size())
    detail::fail("vulkan dispatch: ", bindings.size(), " bindings exceed the layout's ", kMaxBindings);
  k_dispatch[bindings.size()](runtime, pipeline, bindings, push, groups_x, groups_y, groups_z);
}

void register_runtime_shader(std::string_view name, std::vector<std::uint32_t> spirv) {
  Registry& r = registry();
  std::lock_guard lock(r.mutex);
  if (r.shaders.find(name) == r.shaders.end())
    r.shaders.emplace(std::string(name), std::make_unique<const std::vector<std::uint32_t>>(std::move(spirv)));
}

std::span<const std::uint32_t> runtime_shader(std::string_view name) {
  Registry& r = registry();
  std::lock_guard lock(r.mutex);
  auto it = r.shaders.find(name);
  if (it == r.shaders.end()) return {};
  return *it->second;
}

}  // namespace nxv::vulkan
