// A small JSON reader and string quoting, for safetensors headers and the training metrics.
//
// Why not nlohmann-json: a safetensors header is a flat object of small objects, and a ~200-line parser costs
// less to build on two cores than a 25k-line header in every file that includes it, and adds no dependency to
// the installed package. Numbers keep their literal text, so 64-bit byte offsets are read exactly.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace nxv::io::json {

struct Member;

struct Value {
  enum class Kind { null, boolean, number, string, array, object };
  Kind kind = Kind::null;
  bool boolean = false;
  std::string text;             // a string's contents, or a number's literal text
  std::vector<Value> items;     // an array's elements
  std::vector<Member> members;  // an object's members, in file order, keys unique

  const Value* find(std::string_view key) const;  // an object's member, or nullptr
  // A number that is a non-negative integer (no sign, fraction or exponent) fitting in 64 bits.
  std::optional<std::uint64_t> as_uint64() const;
};

// An object's member (a struct rather than std::pair: a pair of an incomplete Value may not be instantiated).
struct Member {
  std::string key;
  Value value;
};

std::string_view name(Value::Kind kind);  // "an object", "a string", ... for error messages

// Parses `text`: one JSON value, surrounded only by whitespace. Rejects duplicate object keys and nesting deeper
// than 64. Throws nxv::Error("json: <source>: at byte N: ...") on malformed input, where `source` names where the
// text came from (a file, a metadata field) for the reader of the message.
Value parse(std::string_view text, std::string_view source = {});

// `s` as a JSON string literal, quotes included (control characters, '"' and '\' escaped; UTF-8 passes through).
std::string quote(std::string_view s);

}  // namespace nxv::io::json
