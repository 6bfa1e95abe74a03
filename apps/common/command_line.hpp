// What nxv-train, nxv-sample and nxv-bench share of their command lines: flags spelled `--name value` or
// `--name=value`, each at most once; switches without a value; value parsers whose errors name the flag; UsageError, a
// mistake of the user's that the programs report with exit status 2.
#pragma once
#include <climits>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <map>
#include <set>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace nxv::cli {

struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};
[[noreturn]] void usage_error(const std::string& message);

// `text` as a whole integer in [min, max], a finite-or-not number, or one of `choices`; a UsageError naming
// `--option` otherwise.
std::int64_t parse_integer(const std::string& option, const std::string& text, std::int64_t min,
                           std::int64_t max = INT64_MAX);
double parse_number(const std::string& option, const std::string& text);
std::string one_of(const std::string& option, const std::string& text, std::initializer_list<const char*> choices);

// Each flag's setter, by name without the dashes.
template <class Options>
using Setters = std::map<std::string, std::function<void(Options&, const std::string&)>>;

// The flags of the arguments after the program name, in their order, by name without the dashes: each of
// `switches` (`-h` is `help`) with an empty value, each of `with_value` with its value, given after `=` or as the
// next argument. A flag given twice, an unknown one, a missing value or a bare word is a UsageError.
std::vector<std::pair<std::string, std::string>> read_flags(std::span<const std::string> args,
                                                            const std::set<std::string>& switches,
                                                            const std::set<std::string>& with_value);

// read_flags over `setters` and `switches`: each switch sets its bool member of `o`, each other flag calls its
// setter and goes into o.given.
template <class Options>
void parse_flags(std::span<const std::string> args, const Setters<Options>& setters,
                 const std::map<std::string, bool Options::*>& switches, Options& o) {
  std::set<std::string> switch_names, value_names;
  for (const auto& [name, member] : switches) switch_names.insert(name);
  for (const auto& [name, setter] : setters) value_names.insert(name);
  for (const auto& [name, value] : read_flags(args, switch_names, value_names)) {
    if (switches.count(name)) {
      o.*(switches.at(name)) = true;
    } else {
      setters.at(name)(o, value);
      o.given.insert(name);
    }
  }
}

}  // namespace nxv::cli
