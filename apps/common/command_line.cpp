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

void for_each_flag(std::span<const std::string> args, const std::set<std::string>& switches,
                   const std::function<bool(const std::string&)>& known,
                   const std::function<void(const std::string& name, const std::string& value)>& set,
                   const std::function<void(const std::string& name)>& set_switch, std::set<std::string>& given) {
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    const std::string bare = arg == "-h" ? "help" : arg.starts_with("--") ? arg.substr(2) : "";
    if (switches.count(bare)) {
      set_switch(bare);
      continue;
    }
    if (!arg.starts_with("--")) usage_error("unexpected argument '" + arg + "' (options start with --)");
    const std::size_t equals = arg.find('=');
    const std::string name = arg.substr(2, equals == std::string::npos ? std::string::npos : equals - 2);
    if (!known(name)) usage_error("unknown option '--" + name + "'");
    if (given.count(name)) usage_error("--" + name + " is given twice");
    std::string value;
    if (equals != std::string::npos) {
      value = arg.substr(equals + 1);
    } else {
      if (i + 1 >= args.size()) usage_error("--" + name + " needs a value");
      value = args[++i];
    }
    set(name, value);
    given.insert(name);
  }
}

}  // namespace nxv::cli
