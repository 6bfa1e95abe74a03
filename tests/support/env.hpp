// An environment variable set (or unset) for one test's scope and restored afterwards.
#pragma once
#include <cstdlib>
#include <optional>
#include <string>

namespace nxv::test {

class EnvGuard {
 public:
  // `value` nullopt: the variable is unset for the guard's lifetime.
  EnvGuard(const char* name, const std::optional<std::string>& value) : name_(name) {
    if (const char* old = std::getenv(name)) saved_ = old;
    if (value)
      setenv(name, value->c_str(), 1);
    else
      unsetenv(name);
  }
  ~EnvGuard() {
    if (saved_)
      setenv(name_, saved_->c_str(), 1);
    else
      unsetenv(name_);
  }
  EnvGuard(const EnvGuard&) = delete;
  EnvGuard& operator=(const EnvGuard&) = delete;

 private:
  const char* name_;
  std::optional<std::string> saved_;
};

}  // namespace nxv::test
