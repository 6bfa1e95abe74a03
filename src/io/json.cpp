#include "io/json.hpp"

#include <cstdio>

#include "nxv/error.hpp"

namespace nxv::io::json {

namespace {

constexpr int kMaxDepth = 64;  // deeper nesting is an attack or an accident, and would exhaust the stack

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }
bool is_digit(char c) { return c >= '0' && c <= '9'; }

void append_utf8(std::string& out, std::uint32_t cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | cp >> 6);
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | cp >> 12);
    out += static_cast<char>(0x80 | (cp >> 6 & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | cp >> 18);
    out += static_cast<char>(0x80 | (cp >> 12 & 0x3F));
    out += static_cast<char>(0x80 | (cp >> 6 & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

class Parser {
 public:
  Parser(std::string_view text, std::string_view source) : s_(text), source_(source) {}

  Value document() {
    Value v = value(0);
    skip_space();
    if (pos_ != s_.size()) fail("unexpected '", s_[pos_], "' after the end of the value");
    return v;
  }

 private:
  template <class... Parts>
  [[noreturn]] void fail(const Parts&... parts) const {
    if (source_.empty()) detail::fail("json: at byte ", pos_, ": ", parts...);
    detail::fail("json: ", source_, ": at byte ", pos_, ": ", parts...);
  }
  void skip_space() {
    while (pos_ < s_.size() && is_space(s_[pos_])) ++pos_;
  }
  char peek() {
    if (pos_ >= s_.size()) fail("unexpected end of text");
    return s_[pos_];
  }
  void expect(char c) {
    if (peek() != c) fail("expected '", c, "', got '", s_[pos_], "'");
    ++pos_;
  }
  void literal(std::string_view word) {
    if (s_.substr(pos_, word.size()) != word) fail("expected '", word, "'");
    pos_ += word.size();
  }

  Value value(int depth) {
    if (depth > kMaxDepth) fail("nesting deeper than ", kMaxDepth);
    skip_space();
    Value v;
    switch (peek()) {
      case '{':
        object(v, depth);
        break;
      case '[':
        array(v, depth);
        break;
      case '"':
        v.kind = Value::Kind::string;
        v.text = string();
        break;
      case 't':
        literal("true");
        v.kind = Value::Kind::boolean;
        v.boolean = true;
        break;
      case 'f':
        literal("false");
        v.kind = Value::Kind::boolean;
        break;
      case 'n':
        literal("null");
        break;
      default:
        v.kind = Value::Kind::number;
        v.text = number();
        break;
    }
    return v;
  }

  void object(Value& v, int depth) {
    v.kind = Value::Kind::object;
    expect('{');
    skip_space();
    if (peek() == '}') {
      ++pos_;
      return;
    }
    for (;;) {
      skip_space();
      const std::size_t key_at = pos_;
      std::string key = string();
      if (v.find(key)) {
        pos_ = key_at;
        fail("duplicate key \"", key, "\"");
      }
      skip_space();
      expect(':');
      v.members.push_back(Member{std::move(key), value(depth + 1)});
      skip_space();
      if (peek() == '}') {
        ++pos_;
        return;
      }
      expect(',');
    }
  }

  void array(Value& v, int depth) {
    v.kind = Value::Kind::array;
    expect('[');
    skip_space();
    if (peek() == ']') {
      ++pos_;
      return;
    }
    for (;;) {
      v.items.push_back(value(depth + 1));
      skip_space();
      if (peek() == ']') {
        ++pos_;
        return;
      }
      expect(',');
    }
  }

  std::string number() {
    const std::size_t start = pos_;
    if (peek() == '-') ++pos_;
    if (!is_digit(peek())) fail("expected a value, got '", s_[pos_], "'");
    if (s_[pos_] == '0')
      ++pos_;
    else
      while (pos_ < s_.size() && is_digit(s_[pos_])) ++pos_;
    if (pos_ < s_.size() && s_[pos_] == '.') {
      ++pos_;
      if (!is_digit(peek())) fail("expected a digit after '.'");
      while (pos_ < s_.size() && is_digit(s_[pos_])) ++pos_;
    }
    if (pos_ < s_.size() && (s_[pos_] == 'e' || s_[pos_] == 'E')) {
      ++pos_;
      if (peek() == '+' || peek() == '-') ++pos_;
      if (!is_digit(peek())) fail("expected a digit in the exponent");
      while (pos_ < s_.size() && is_digit(s_[pos_])) ++pos_;
    }
    return std::string(s_.substr(start, pos_ - start));
  }

  std::uint32_t hex4() {
    if (pos_ + 4 > s_.size()) fail("unexpected end of text in a \\u escape");
    std::uint32_t cp = 0;
    for (int i = 0; i < 4; ++i) {
      const char c = s_[pos_++];
      const int d = is_digit(c) ? c - '0' : (c | 0x20) >= 'a' && (c | 0x20) <= 'f' ? (c | 0x20) - 'a' + 10 : -1;
      if (d < 0) fail("bad hex digit '", c, "' in a \\u escape");
      cp = cp << 4 | static_cast<std::uint32_t>(d);
    }
    return cp;
  }

  std::string string() {
    expect('"');
    std::string out;
    for (;;) {
      const char c = peek();
      ++pos_;
      if (c == '"') return out;
      if (static_cast<unsigned char>(c) < 0x20) {
        --pos_;
        fail("control character in a string");
      }
      if (c != '\\') {
        out += c;
        continue;
      }
      const char e = peek();
      ++pos_;
      switch (e) {
        case '"':
        case '\\':
        case '/':
          out += e;
          break;
        case 'b':
          out += '\b';
          break;
        case 'f':
          out += '\f';
          break;
        case 'n':
          out += '\n';
          break;
        case 'r':
          out += '\r';
          break;
        case 't':
          out += '\t';
          break;
        case 'u': {
          std::uint32_t cp = hex4();
          if (cp >= 0xD800 && cp < 0xDC00) {  // a UTF-16 surrogate pair encodes one code point above U+FFFF
            literal("\\u");
            const std::uint32_t low = hex4();
            if (low < 0xDC00 || low >= 0xE000) fail("unpaired UTF-16 surrogate in a \\u escape");
            cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
          }
          append_utf8(out, cp);
          break;
        }
        default:
          --pos_;
          fail("unknown escape '\\", e, "'");
      }
    }
  }

  std::string_view s_;
  std::string_view source_;
  std::size_t pos_ = 0;
};

}  // namespace

const Value* Value::find(std::string_view key) const {
  for (const auto& [k, v] : members)
    if (k == key) return &v;
  return nullptr;
}

std::optional<std::uint64_t> Value::as_uint64() const {
  if (kind != Kind::number || text.empty()) return std::nullopt;
  std::uint64_t v = 0;
  for (char c : text) {
    if (!is_digit(c)) return std::nullopt;
    const auto d = static_cast<std::uint64_t>(c - '0');
    if (v > (UINT64_MAX - d) / 10) return std::nullopt;
    v = v * 10 + d;
  }
  return v;
}

std::string_view name(Value::Kind kind) {
  switch (kind) {
    case Value::Kind::null:
      return "null";
    case Value::Kind::boolean:
      return "a boolean";
    case Value::Kind::number:
      return "a number";
    case Value::Kind::string:
      return "a string";
    case Value::Kind::array:
      return "an array";
    case Value::Kind::object:
      return "an object";
  }
  return "?";
}

Value parse(std::string_view text, std::string_view source) { return Parser(text, source).document(); }

std::string quote(std::string_view s) {
  std::string out = "\"";
  for (char c : s) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(c));
          out += buf;
        } else {
          out += c;
        }
    }
  }
  return out + "\"";
}

}  // namespace nxv::io::json
