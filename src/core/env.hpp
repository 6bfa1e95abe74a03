// The NXV_* switches read from the environment (README's table): a flag is on when the variable is set to
// anything but "" or "0".
#pragma once
#include <cstdlib>
#include <string_view>

namespace nxv::detail {

// `unset`: the value when the variable is absent or empty.
inline bool env_flag(const char* name, bool unset = false) {
  const char* v = std::getenv(name);
  if (v == nullptr || *v == '\0') return unset;
  return std::string_view(v) != "0";
}

}  // namespace nxv::detail
