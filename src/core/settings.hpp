// The NXV_* environment variables, declared once in src/core/settings.def (tinygrad's helpers.py block is the
// model): every part of the library reads its setting here, by id, never with getenv.
#pragma once
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace nxv::settings {

enum class Kind : std::uint8_t { flag, choice, count, text };

enum class Id : std::uint8_t {
#define NXV_SETTING(id, kind, default_value, values, doc) id,
#include "core/settings.def"
};

struct Info {
  Id id;
  std::string_view name;  // "NXV_BATCH_MAX"
  Kind kind;
  std::string_view default_value;  // as the variable would spell it
  std::string_view values;         // choice: "a|b|c"; otherwise a description of what it takes
  std::string_view doc;
};

std::span<const Info> all();
const Info& info(Id id);

// The variable's value: its default when unset or empty; nxv::Error naming the variable and the values it takes
// when the value is not one of them (a flag that is not 0/1, a count that is not a whole number >= 0, a choice
// that is not listed).
std::string value(Id id);
bool flag(Id id);
std::int64_t count(Id id);
// Whether the variable is set to something non-empty (a text setting's default often depends on other things).
bool is_set(Id id);

// Reads every variable that is set and throws nxv::Error for the first malformed one (programs call this at
// start-up, so that a typo stops them before any work).
void check_all();

// The README's "Environment variables" table, in Markdown.
std::string markdown_table();

}  // namespace nxv::settings
