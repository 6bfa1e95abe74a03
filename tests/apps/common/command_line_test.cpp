// The shared command-line parsing (apps/common/command_line.hpp): both spellings of a value, switches, and a
// UsageError naming the flag for every mistake.
#include "common/command_line.hpp"

#include <gtest/gtest.h>

#include <vector>

namespace nxv::cli {
namespace {

struct Flags {
  std::int64_t count = 0;
  std::string mode = "a";
  bool help = false, verbose = false;
  std::set<std::string> given;
};

Flags parse(std::vector<std::string> args) {
  static const Setters<Flags> setters{
      {"count", [](Flags& f, const std::string& v) { f.count = parse_integer("count", v, 1, 9); }},
      {"mode",
       [](Flags& f, const std::string& v) {
         f.mode = one_of("mode", v, {"a", "b"});
       }},
  };
  Flags f;
  parse_flags(args, setters, {{"help", &Flags::help}, {"verbose", &Flags::verbose}}, f);
  return f;
}

std::string usage_error_of(std::vector<std::string> args) {
  try {
    parse(args);
  } catch (const UsageError& e) {
    return e.what();
  }
  return "no error";
}

TEST(CommandLine, ValuesBothSpelledAndSwitches) {
  const Flags f = parse({"--count", "3", "--mode=b", "-h", "--verbose"});
  EXPECT_EQ(f.count, 3);
  EXPECT_EQ(f.mode, "b");
  EXPECT_TRUE(f.help);
  EXPECT_TRUE(f.verbose);
  EXPECT_EQ(f.given, (std::set<std::string>{"count", "mode"}));
}

TEST(CommandLine, EveryMistakeIsAUsageErrorNamingTheFlag) {
  EXPECT_EQ(usage_error_of({"--count", "x"}), "--count expects an integer, got 'x'");
  EXPECT_EQ(usage_error_of({"--count", "3x"}), "--count expects an integer, got '3x'");
  EXPECT_EQ(usage_error_of({"--count="}), "--count expects an integer, got ''");
  EXPECT_EQ(usage_error_of({"--count", "0"}), "--count must be at least 1, got 0");
  EXPECT_EQ(usage_error_of({"--count", "10"}), "--count must be at most 9, got 10");
  EXPECT_EQ(usage_error_of({"--mode", "c"}), "--mode must be one of a, b, got 'c'");
  EXPECT_EQ(usage_error_of({"--colour", "red"}), "unknown option '--colour'");
  EXPECT_EQ(usage_error_of({"--count", "1", "--count=2"}), "--count is given twice");
  EXPECT_EQ(usage_error_of({"--count"}), "--count needs a value");
  EXPECT_EQ(usage_error_of({"count"}), "unexpected argument 'count' (options start with --)");
  EXPECT_THROW(parse_number("lr", "1e"), UsageError);
  EXPECT_EQ(parse_number("lr", "-2.5"), -2.5);
}

}  // namespace
}  // namespace nxv::cli
