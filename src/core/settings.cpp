#include "core/settings.hpp"

#include <cstdlib>
#include <sstream>

#include "nxv/error.hpp"

namespace nxv::settings {
namespace {

constexpr Info k_settings[] = {
#define NXV_SETTING(id, kind, default_value, values, doc) {Id::id, "NXV_" #id, Kind::kind, default_value, values, doc},
#include "core/settings.def"
};

std::string_view raw(const Info& s) {
  const char* v = std::getenv(std::string(s.name).c_str());
  return v == nullptr ? std::string_view() : std::string_view(v);
}

bool listed(std::string_view value, std::string_view values) {
  for (std::size_t start = 0;;) {
    const std::size_t bar = values.find('|', start);
    if (values.substr(start, bar - start) == value) return true;
    if (bar == std::string_view::npos) return false;
    start = bar + 1;
  }
}

// Checks `v` (non-empty) against the setting's kind.
void check(const Info& s, std::string_view v) {
  auto reject = [&](std::string_view expected) {
    detail::fail(s.name, ": got '", v, "', expected ", expected, " (README, \"Environment variables\")");
  };
  switch (s.kind) {
    case Kind::flag:
      if (v != "0" && v != "1") reject("0 or 1");
      break;
    case Kind::choice:
      if (!listed(v, s.values)) {
        std::string options(s.values);
        for (char& c : options)
          if (c == '|') c = ',';
        reject("one of " + options);
      }
      break;
    case Kind::count: {
      const bool digits = v.size() <= 9 && v.find_first_not_of("0123456789") == std::string_view::npos;
      if (!digits) reject("a whole number from 0 to 999999999");
      break;
    }
    case Kind::text:
      break;
  }
}

}  // namespace

std::span<const Info> all() { return k_settings; }

const Info& info(Id id) { return k_settings[static_cast<int>(id)]; }

std::string value(Id id) {
  const Info& s = info(id);
  const std::string_view v = raw(s);
  if (v.empty()) return std::string(s.default_value);
  check(s, v);
  return std::string(v);
}

bool flag(Id id) { return value(id) == "1"; }

std::int64_t count(Id id) { return std::stoll(value(id)); }

bool is_set(Id id) { return !raw(info(id)).empty(); }

void check_all() {
  for (const Info& s : k_settings)
    if (const std::string_view v = raw(s); !v.empty()) check(s, v);
}

std::string markdown_table() {
  std::ostringstream out;
  out << "| Variable | Values | Default | Effect |\n|---|---|---|---|\n";
  for (const Info& s : k_settings) {
    std::string values(s.values);
    if (s.kind == Kind::flag || s.kind == Kind::choice) {
      std::string spelled;
      for (std::size_t start = 0;;) {
        const std::size_t bar = values.find('|', start);
        spelled += (start ? " \\| " : "") + ("`" + values.substr(start, bar - start) + "`");
        if (bar == std::string::npos) break;
        start = bar + 1;
      }
      values = spelled;
    }
    const std::string def =
        s.default_value.empty() ? std::string("(see effect)") : "`" + std::string(s.default_value) + "`";
    out << "| `" << s.name << "` | " << values << " | " << def << " | " << s.doc << " |\n";
  }
  return out.str();
}

}  // namespace nxv::settings
