// safetensors checkpoints (src/io/safetensors): round trips of every dtype, the byte layout the spec asks for,
// and each kind of corrupt file.
#include "io/safetensors.hpp"

#include <gtest/gtest.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstring>

#include "nxv/ops.hpp"
#include "support/temp_dir.hpp"

namespace nxv::io {
namespace {

using io_test::expect_error;
using io_test::TempDir;

Backend& ref() { return reference_backend(); }

// A safetensors file from a header text and the data bytes.
std::string file_bytes(const std::string& header, const std::string& data) {
  std::string s(8, '\0');
  const std::uint64_t n = header.size();
  std::memcpy(s.data(), &n, 8);
  return s + header + data;
}

template <class T>
void expect_same(const Tensor& got, const Tensor& want, const std::string& name) {
  EXPECT_EQ(got.dtype(), want.dtype()) << name;
  EXPECT_EQ(got.shape(), want.shape()) << name;
  EXPECT_EQ(got.to_vector<T>(), want.to_vector<T>()) << name;
}

TEST(Safetensors, RoundTripsEveryDtypeRankZeroEmptyTensorsAndMetadata) {
  TempDir dir;
  const std::map<std::string, Tensor> tensors = {
      {"conv1.kernel", tensor<float>({1.5f, -2, 3, 4, 5, 6}, {2, 1, 3}, ref())},
      {"f64", tensor<double>({0.1, -1e300, 3}, {3}, ref())},
      {"s32", tensor<std::int32_t>({-1, 2, INT32_MAX, INT32_MIN}, {2, 2}, ref())},
      {"s64", tensor<std::int64_t>({INT64_MIN, 7}, {2}, ref())},
      {"u8", tensor<std::uint8_t>({0, 255, 7}, {3}, ref())},
      {"s8", tensor<std::int8_t>({-128, 127, -1}, {3}, ref())},
      {"s16", tensor<std::int16_t>({INT16_MIN, INT16_MAX}, {2}, ref())},
      {"u16", tensor<std::uint16_t>({0, UINT16_MAX, 9}, {3}, ref())},
      {"u32", tensor<std::uint32_t>({UINT32_MAX, 1}, {2}, ref())},
      {"u64", tensor<std::uint64_t>({UINT64_MAX, 0, 5}, {3}, ref())},
      {"f16", bitcast(tensor<std::uint16_t>({0x3c00, 0x7bff, 0xfc00, 0x0001}, {4}, ref()), DType::f16)},
      {"bf16", bitcast(tensor<std::uint16_t>({0x3f80, 0x7f7f, 0x8000, 0x7fc0}, {4}, ref()), DType::bf16)},
      {"mask", tensor<bool>(std::vector<bool>{true, false, true}, {3}, ref())},
      {"scalar", scalar(2.5, DType::f32, ref())},
      {"empty", zeros({0, 3}, DType::f32, ref())},
  };
  const std::map<std::string, std::string> metadata = {{"format", "pt"}, {"note", "quote \" and \\ and é"}};
  save_safetensors(dir / "model.safetensors", tensors, metadata);
  const SafetensorsFile f = load_safetensors(dir / "model.safetensors", ref());
  EXPECT_EQ(f.metadata, metadata);
  ASSERT_EQ(f.tensors.size(), tensors.size());
  expect_same<float>(f.tensors.at("conv1.kernel"), tensors.at("conv1.kernel"), "conv1.kernel");
  expect_same<double>(f.tensors.at("f64"), tensors.at("f64"), "f64");
  expect_same<std::int32_t>(f.tensors.at("s32"), tensors.at("s32"), "s32");
  expect_same<std::int64_t>(f.tensors.at("s64"), tensors.at("s64"), "s64");
  expect_same<std::uint8_t>(f.tensors.at("u8"), tensors.at("u8"), "u8");
  expect_same<std::int8_t>(f.tensors.at("s8"), tensors.at("s8"), "s8");
  expect_same<std::int16_t>(f.tensors.at("s16"), tensors.at("s16"), "s16");
  expect_same<std::uint16_t>(f.tensors.at("u16"), tensors.at("u16"), "u16");
  expect_same<std::uint32_t>(f.tensors.at("u32"), tensors.at("u32"), "u32");
  expect_same<std::uint64_t>(f.tensors.at("u64"), tensors.at("u64"), "u64");
  for (const char* half : {"f16", "bf16"})
    expect_same<std::uint16_t>(bitcast(f.tensors.at(half), DType::u16), bitcast(tensors.at(half), DType::u16), half);
  expect_same<bool>(f.tensors.at("mask"), tensors.at("mask"), "mask");
  expect_same<float>(f.tensors.at("scalar"), tensors.at("scalar"), "scalar");
  expect_same<float>(f.tensors.at("empty"), tensors.at("empty"), "empty");
  EXPECT_FALSE(std::filesystem::exists(dir / "model.safetensors.tmp"));
}

TEST(Safetensors, WritesTheSpecLayoutByteForByte) {
  TempDir dir;
  save_safetensors(dir / "a.safetensors",
                   {{"b", tensor<std::uint8_t>({9}, {1}, ref())}, {"a", tensor<float>({1, 2}, {2}, ref())}},
                   {{"format", "pt"}});
  const std::string bytes = io_test::read_bytes(dir / "a.safetensors");
  // Sorted names; data ordered widest element first so every tensor is aligned; header padded with spaces so the
  // data starts at a multiple of 8.
  std::string header = R"({"__metadata__":{"format":"pt"},"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},)"
                       R"("b":{"dtype":"U8","shape":[1],"data_offsets":[8,9]}})";
  header.append((8 - header.size() % 8) % 8, ' ');
  float data[2] = {1, 2};
  const std::string expected = file_bytes(header, std::string(reinterpret_cast<const char*>(data), 8) + "\x09");
  EXPECT_EQ(bytes, expected);
  EXPECT_EQ(header.size() % 8, 0u);
}

TEST(Safetensors, ReadsFilesWrittenByOtherTools) {
  TempDir dir;
  // Spaces, metadata last, unsorted names, an unpadded header: as Python's json.dumps would write it.
  const std::string header =
      R"({"w": {"dtype": "I64", "shape": [], "data_offsets": [4, 12]}, "v": {"dtype": "BOOL", "shape": [2, 2],)"
      R"( "data_offsets": [0, 4]}, "__metadata__": {"epoch": "3"}})";
  const std::int64_t w = -5;
  io_test::write_bytes(
      dir / "x.safetensors",
      file_bytes(header, std::string("\x01\x00\x02\x00", 4) + std::string(reinterpret_cast<const char*>(&w), 8)));
  const SafetensorsFile f = load_safetensors(dir / "x.safetensors", ref());
  EXPECT_EQ(f.metadata.at("epoch"), "3");
  EXPECT_EQ(f.tensors.at("w").rank(), 0);
  EXPECT_EQ(f.tensors.at("w").to_vector<std::int64_t>(), std::vector<std::int64_t>{-5});
  EXPECT_EQ(f.tensors.at("v").to_vector<bool>(), (std::vector<bool>{true, false, true, false}));
}

TEST(Safetensors, SavingRejectsReservedAndUndefinedTensors) {
  TempDir dir;
  expect_error(
      [&] {
        save_safetensors(dir / "x", {{"__metadata__", scalar(1, DType::f32, ref())}});
      },
      {"__metadata__", "reserved"});
  expect_error([&] { save_safetensors(dir / "x", {{"w", Tensor()}}); }, {"\"w\"", "undefined"});
}

struct CorruptCase {
  const char* what;
  std::string bytes;
  std::vector<std::string> message;  // phrases the error must contain besides the file name
};

TEST(Safetensors, EveryKindOfCorruptFileIsANamedError) {
  const std::string f32x2(8, '\0');
  const std::string entry_a = R"("a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]})";
  std::string huge_len(8, '\0');
  huge_len[1] = 0x10;  // 4096: more than the file holds
  const std::vector<CorruptCase> cases = {
      {"shorter than the length field", "abc", {"too short for the 8-byte header length"}},
      {"header length beyond the file", huge_len + "{}", {"header length 4096 runs past the end of the file"}},
      {"header not an object", file_bytes("[1]", ""), {"must be a JSON object"}},
      {"malformed JSON", file_bytes(R"({"a":{"dtype":"F32",)", f32x2), {"malformed JSON header", "at byte"}},
      {"duplicate name", file_bytes("{" + entry_a + "," + entry_a + "}", f32x2), {"duplicate key \"a\""}},
      {"unknown dtype",
       file_bytes(R"({"a":{"dtype":"F8_E4M3","shape":[2],"data_offsets":[0,2]}})", std::string(2, '\0')),
       {"tensor \"a\"", "unknown dtype \"F8_E4M3\"", "BF16"}},
      {"offsets out of range",
       file_bytes(R"({"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]}})", "1234"),
       {"tensor \"a\"", "out of range", "the data is 4 bytes"}},
      {"offsets reversed",
       file_bytes(R"({"a":{"dtype":"U8","shape":[0],"data_offsets":[2,1]}})", "12"),
       {"out of range"}},
      {"overlap",
       file_bytes(
           R"({"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},"b":{"dtype":"F32","shape":[1],"data_offsets":[4,8]}})",
           f32x2),
       {"\"a\" and \"b\" overlap"}},
      {"hole", file_bytes(R"({"a":{"dtype":"F32","shape":[1],"data_offsets":[4,8]}})", f32x2), {"hole"}},
      {"trailing bytes",
       file_bytes(R"({"a":{"dtype":"F32","shape":[1],"data_offsets":[0,4]}})", f32x2),
       {"belong to no tensor"}},
      {"shape and bytes disagree",
       file_bytes(R"({"a":{"dtype":"F32","shape":[3],"data_offsets":[0,8]}})", f32x2),
       {"tensor \"a\"", "shape [3] of F32 needs 12 bytes", "hold 8"}},
      {"negative dimension",
       file_bytes(R"({"a":{"dtype":"F32","shape":[-2],"data_offsets":[0,8]}})", f32x2),
       {"shape holds -2", "non-negative integer"}},
      {"missing field",
       file_bytes(R"({"a":{"dtype":"F32","shape":[2]}})", f32x2),
       {"needs \"dtype\", \"shape\" and \"data_offsets\""}},
      {"metadata not strings", file_bytes(R"({"__metadata__":{"epoch":3}})", ""), {"metadata \"epoch\" is a number"}},
  };
  TempDir dir;
  for (const auto& c : cases) {
    SCOPED_TRACE(c.what);
    const auto path = dir / "corrupt.safetensors";
    io_test::write_bytes(path, c.bytes);
    try {
      load_safetensors(path, ref());
      ADD_FAILURE() << "loaded without an error";
    } catch (const Error& e) {
      const std::string m = e.what();
      EXPECT_NE(m.find(path.string()), std::string::npos) << m;
      for (const auto& phrase : c.message)
        EXPECT_NE(m.find(phrase), std::string::npos) << "\"" << phrase << "\" missing from: " << m;
    }
  }
  expect_error([&] { load_safetensors(dir / "absent.safetensors", ref()); },
               {"absent.safetensors", "cannot be opened"});
}

// Sizes from tellg() made a directory std::bad_alloc and a /proc file vector::_M_default_append; opening a named
// pipe waited for a writer forever.
TEST(Safetensors, AnythingButARegularFileIsANamedError) {
  TempDir dir;
  std::filesystem::create_directory(dir / "folder.safetensors");
  expect_error([&] { load_safetensors(dir / "folder.safetensors", ref()); },
               {"folder.safetensors", "is a directory, expected a safetensors file"});

  const auto fifo = dir / "pipe.safetensors";
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0) << std::strerror(errno);
  // Held open for reading and writing here, so that a loader that opens it anyway fails rather than hangs.
  const int held = open(fifo.c_str(), O_RDWR | O_NONBLOCK);
  ASSERT_GE(held, 0) << std::strerror(errno);
  expect_error([&] { load_safetensors(fifo, ref()); }, {"pipe.safetensors", "not a regular file"});
  close(held);

  if (std::filesystem::exists("/proc/self/status"))  // size 0, but it has contents
    expect_error([&] { load_safetensors("/proc/self/status", ref()); },
                 {"/proc/self/status", "holds more than the 0 bytes its size says"});
}

TEST(Safetensors, ParsesBytesInMemoryNamingTheirSource) {
  const float data[2] = {1, 2};
  const std::string bytes = file_bytes(R"({"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]}})",
                                       std::string(reinterpret_cast<const char*>(data), 8));
  const SafetensorsFile f = parse_safetensors(std::as_bytes(std::span(bytes)), "a buffer", ref());
  EXPECT_EQ(f.tensors.at("a").to_vector<float>(), (std::vector<float>{1, 2}));
  expect_error([&] { parse_safetensors(std::as_bytes(std::span(bytes).first(12)), "a buffer", ref()); },
               {"load_safetensors: a buffer: ", "header length"});
}

TEST(Safetensors, AFailedCheckOfTheWrittenFileLeavesTheOldOneInPlace) {
  TempDir dir;
  const auto path = dir / "x.safetensors";
  save_safetensors(path, {{"w", scalar(1, DType::f32, ref())}});
  const std::string before = io_test::read_bytes(path);
  std::filesystem::path checked;
  expect_error(
      [&] {
        save_safetensors(path, {{"w", scalar(2, DType::f32, ref())}}, {}, [&](const std::filesystem::path& written) {
          checked = written;
          EXPECT_EQ(load_safetensors(written, ref()).tensors.at("w").item(), 2.0);
          detail::fail("rejected by the check");
        });
      },
      {"rejected by the check"});
  EXPECT_EQ(checked, dir / "x.safetensors.tmp");
  EXPECT_EQ(io_test::read_bytes(path), before);
  EXPECT_FALSE(std::filesystem::exists(checked)) << "the rejected file is removed";
  save_safetensors(path, {{"w", scalar(3, DType::f32, ref())}}, {}, [](const std::filesystem::path&) {});
  EXPECT_EQ(load_safetensors(path, ref()).tensors.at("w").item(), 3.0) << "a passed check renames it into place";
}

}  // namespace
}  // namespace nxv::io
