// What nxv-train and nxv-sample share of their command lines: flags spelled `--name value` or `--name=value`, each
// at most once; switches without a value; value parsers whose errors name the flag; UsageError, a mistake of the
// user's that the programs report with exit status 2.
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

// Walks the arguments after the program name: `--help` or `-h` and the `switches` set their bool member of `o`;
// every other flag must be one of `setters`, given once (its name goes into o.given), with its value after `=` or
// as the next argument. Throws UsageError for anything else.
void for_each_flag(std::span<const std::string> args, const std::set<std::string>& switches,
                   const std::function<bool(const std::string&)>& known,
                   const std::function<void(const std::string& name, const std::string& value)>& set,
                   const std::function<void(const std::string& name)>& set_switch, std::set<std::string>& given);

template <class Options>
void parse_flags(std::span<const std::string> args, const Setters<Options>& setters,
                 const std::map<std::string, bool Options::*>& switches, Options& o) {
  std::set<std::string> switch_names;
  for (const auto& [name, member] : switches) switch_names.insert(name);
  for_each_flag(
      args, switch_names, [&](const std::string& name) { return setters.count(name) > 0; },
      [&](const std::string& name, const std::string& value) { setters.at(name)(o, value); },
      [&](const std::string& name) { o.*(switches.at(name)) = true; }, o.given);
}

}  // namespace nxv::cli
