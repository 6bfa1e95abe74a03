// nxv::Error: the one exception type of the library. Messages name the op, what it got and what it expected.
#pragma once
#include <sstream>
#include <stdexcept>
#include <string>

namespace nxv {

class Error : public std::runtime_error {
 public:
  explicit Error(const std::string& message) : std::runtime_error(message) {}
};

namespace detail {
template <class... Parts>
[[noreturn]] void fail(const Parts&... parts) {
  std::ostringstream s;
  (s << ... << parts);
  throw Error(s.str());
}
}  // namespace detail

}  // namespace nxv

// Throws nxv::Error("<op>: <message parts...>") unless `cond` holds.
#define NXV_CHECK(cond, op, ...)                             \
  do {                                                       \
    if (!(cond)) ::nxv::detail::fail(op, ": ", __VA_ARGS__); \
  } while (0)
