// The backends this build contains, registered on the registry's first use (core/registry.hpp). This file sits
// above every backend so that the core names none; a new backend adds its entry here (ggml's
// ggml-backend-reg.cpp plays the same part).
#include "core/registry.hpp"
#include "nxv/vulkan.hpp"

namespace nxv::detail {

std::vector<BackendInfo> builtin_backends() {
  return {{.name = "reference",
           .priority = 0,
           .available = [] { return true; },
           .get = []() -> Backend& { return reference_backend(); },
           .compiler = nullptr,  // the evaluator
           .map_compiler = nullptr},
          {.name = "vulkan",
           .priority = 100,
           .available = [] { return vulkan::available(); },
           .get = []() -> Backend& { return vulkan::backend(); },
           .compiler = [] { return vulkan::compiler(); },
           .map_compiler = [] { return vulkan::instance_compiler(); }}};
}

}  // namespace nxv::detail
