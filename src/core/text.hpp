// Small string helpers shared by the settings parsers and the programs' input readers.
#pragma once
#include <string_view>

namespace nxv {

// `s` without leading and trailing spaces, tabs, carriage returns and newlines (a CSV field, a setting's list entry,
// a child process's output).
inline std::string_view trim_whitespace(std::string_view s) {
  constexpr std::string_view kSpace = " \t\r\n";
  const std::size_t first = s.find_first_not_of(kSpace);
  if (first == std::string_view::npos) return {};
  return s.substr(first, s.find_last_not_of(kSpace) - first + 1);
}

}  // namespace nxv
