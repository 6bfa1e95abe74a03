// What every fuzz target shares: the inputs it may throw nxv::Error (or a usage error) for — the parsers' way of
// refusing bad input — and must survive everything else without a crash, a hang, a leak or undefined behaviour
// (the build adds ASan and UBSan). A std::bad_alloc or any other exception escaping is a finding.
#pragma once
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "nxv/error.hpp"

namespace nxv::fuzz {

inline std::span<const std::byte> bytes(const std::uint8_t* data, std::size_t size) {
  return {reinterpret_cast<const std::byte*>(data), size};
}
inline std::string_view text(const std::uint8_t* data, std::size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

// Splits the input at NUL bytes (a command line's arguments; at most `max` of them).
inline std::vector<std::string> split_args(const std::uint8_t* data, std::size_t size, std::size_t max = 64) {
  std::vector<std::string> args(1);
  for (std::size_t i = 0; i < size && args.size() <= max; ++i) {
    if (data[i] == 0)
      args.emplace_back();
    else
      args.back() += static_cast<char>(data[i]);
  }
  return args;
}

}  // namespace nxv::fuzz
