// The JSON reader (src/io/json): what a malformed text's error says, with and without the name of its source.
#include "io/json.hpp"

#include <gtest/gtest.h>

#include "support/temp_dir.hpp"

namespace nxv::io::json {
namespace {

using io_test::expect_error;

TEST(Json, ParsesTheValuesItWillBeGiven) {
  const Value v = parse(R"({"a": [1, -2.5e3, null, true], "b": "x\u00e9"})");
  ASSERT_EQ(v.kind, Value::Kind::object);
  EXPECT_EQ(v.find("a")->items[1].text, "-2.5e3") << "numbers keep their literal text";
  EXPECT_EQ(v.find("a")->items[2].kind, Value::Kind::null);
  EXPECT_EQ(v.find("b")->text, "x\xc3\xa9");
}

// A checkpoint's metrics with a NaN in them used to fail as "json: at byte 28: expected 'null'", naming no file.
TEST(Json, AnErrorNamesTheSourceWhenGivenOne) {
  expect_error([] { parse(R"([{"loss": nan}])", "checkpoint out/c.safetensors, metadata \"metrics\""); },
               {"json: checkpoint out/c.safetensors, metadata \"metrics\": at byte 10: expected 'null'"});
  expect_error([] { parse("[1,"); }, {"json: at byte 3: unexpected end of text"});
}

}  // namespace
}  // namespace nxv::io::json
