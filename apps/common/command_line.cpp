// The shared command-line parsing (command_line.hpp).
#include "common/command_line.hpp"

#include <charconv>

namespace nxv::cli {

void usage_error(const std::string& message) { throw UsageError(message); }

std::int64_t parse_integer(const std::string& option, const std::string& text, std::int64_t min, std::int64_t max) {
  std::int64_t v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size() || text.empty())
    usage_error("--" + option + " expects an integer, got '" + text + "'");
  if (v < min) usage_error("--" + option + " must be at least " + std::to_string(min) + ", got " + text);
  if (v > max) usage_error("--" + option + " must be at most " + std::to_string(max) + ", got " + text);
  return v;
}

double parse_number(const std::string& option, const std::string& text) {
  double v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size() || text.empty())
    usage_error("--" + option + " expects a number, got '" + text + "'");
  return v;
}

std::string one_of(const std::string& option, const std::string& text, std::initializer_list<const char*> choices) {
  std::string list;
  for (const char* c : choices) {
    if (text == c) return text;
    list += (list.empty() ? "" : ", ") + std::string(c);
  }
  usage_error("--" + option + " must be one of " + list + ", got '" + text + "'");
}

std::vector<std::pair<std::string, std::string>> read_flags(std::span<const std::string> args,
                                                            const std::set<std::string>& switches,
                                                            const std::set<std::string>& with_value) {
  std::vector<std::pair<std::string, std::string>> flags;
  std::set<std::string> given;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (arg != "-h" && !arg.starts_with("--")) usage_error("unexpected argument '" + arg + "' (options start with --)");
    const std::size_t equals = arg.find('=');
    const std::string name =
        arg == "-h" ? "help" : arg.substr(2, equals == std::string::npos ? std::string::npos : equals - 2);
    const bool is_switch = switches.count(name) > 0 && equals == std::string::npos;
    if (!is_switch && !with_value.count(name)) usage_error("unknown option '--" + name + "'");
    if (!given.insert(name).second) usage_error("--" + name + " is given twice");
    std::string value;
    if (equals != std::string::npos) {
      value = arg.substr(equals + 1);
    } else if (!is_switch) {
      if (i + 1 >= args.size()) usage_error("--" + name + " needs a value");
      value = args[++i];
    }
    flags.emplace_back(name, value);
  }
  return flags;
}

}  // namespace nxv::cli
