// IDX tensors (src/io/idx): round trips of every dtype IDX has, plain and gzip, the big-endian byte layout, a real
// Fashion-MNIST file, and each kind of bad file or tensor.
#include "io/idx.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>

#include "data/idx.hpp"
#include "nxv/ops.hpp"
#include "support/temp_dir.hpp"

namespace nxv::io {
namespace {

using io_test::expect_error;
using io_test::read_bytes;
using io_test::TempDir;
using io_test::write_bytes;

Backend& ref() { return reference_backend(); }

template <class T>
void expect_round_trip(const TempDir& dir, const Tensor& t, const std::string& file) {
  save_idx(dir / file, t);
  const Tensor back = load_idx(dir / file, ref());
  EXPECT_EQ(back.type(), t.type()) << file;
  EXPECT_EQ(back.to_vector<T>(), t.to_vector<T>()) << file;
}

TEST(Idx, RoundTripsEveryIdxDtypePlainAndGzipped) {
  TempDir dir;
  for (const std::string suffix : {"", ".gz"}) {
    expect_round_trip<std::uint8_t>(dir, tensor<std::uint8_t>({0, 255, 7, 1, 2, 3}, {2, 3}, ref()), "u8" + suffix);
    expect_round_trip<std::int8_t>(dir, tensor<std::int8_t>({-128, 127, -1}, {3}, ref()), "s8" + suffix);
    expect_round_trip<std::int16_t>(dir, tensor<std::int16_t>({INT16_MIN, INT16_MAX, -2, 5}, {2, 1, 2}, ref()),
                                    "s16" + suffix);
    expect_round_trip<std::int32_t>(dir, tensor<std::int32_t>({INT32_MIN, INT32_MAX}, {2}, ref()), "s32" + suffix);
    expect_round_trip<float>(dir, tensor<float>({1.5f, -0.0f, std::numeric_limits<float>::infinity()}, {3}, ref()),
                             "f32" + suffix);
    expect_round_trip<double>(dir, tensor<double>({1e-300, -2.5}, {1, 2}, ref()), "f64" + suffix);
    expect_round_trip<float>(dir, zeros({0, 4}, DType::f32, ref()), "empty" + suffix);
    expect_round_trip<std::int16_t>(dir, scalar(-7, DType::s16, ref()), "scalar" + suffix);
  }
}

TEST(Idx, WritesTheBigEndianLayoutByteForByte) {
  TempDir dir;
  save_idx(dir / "x.idx", tensor<std::int16_t>({0x0102, -2}, {1, 2}, ref()));
  const std::string expected("\x00\x00\x0B\x02\x00\x00\x00\x01\x00\x00\x00\x02\x01\x02\xFF\xFE", 16);
  EXPECT_EQ(read_bytes(dir / "x.idx"), expected);
}

TEST(Idx, ReadsTheFashionMnistLabels) {
  const auto path = data::default_data_dir() / "t10k-labels-idx1-ubyte.gz";
  if (!std::filesystem::exists(path)) GTEST_SKIP() << "no Fashion-MNIST at " << path;
  const Tensor labels = load_idx(path, ref());
  EXPECT_EQ(labels.type(), (TensorType{{10000}, DType::u8}));
  EXPECT_EQ(reduce_max(labels).item(), 9);
}

TEST(Idx, DtypesIdxCannotHoldAreNamedErrors) {
  TempDir dir;
  for (DType t : {DType::pred, DType::u16, DType::u32, DType::s64, DType::u64})
    expect_error([&] { save_idx(dir / "x.idx", zeros({2}, t, ref())); },
                 {"save_idx", "no type code for " + std::string(name(t)), "u8, s8, s16, s32, f32 and f64"});
  expect_error([&] { save_idx(dir / "x.idx", Tensor()); }, {"save_idx", "undefined"});
}

TEST(Idx, EveryKindOfBadFileIsANamedError) {
  TempDir dir;
  const auto bad = [&](const std::string& bytes, std::initializer_list<std::string> parts) {
    write_bytes(dir / "bad.idx", bytes);
    expect_error([&] { load_idx(dir / "bad.idx", ref()); }, parts);
  };
  bad(std::string("\x01\x00\x08\x01\x00\x00\x00\x01\x05", 9), {"bad.idx", "not IDX", "expected 0 and 0"});
  bad(std::string("\x00\x00\x07\x01\x00\x00\x00\x01\x05", 9), {"unknown IDX type code 7"});
  bad(std::string("\x00\x00", 2), {"truncated", "the header"});
  bad(std::string("\x00\x00\x08\x02\x00\x00\x00\x01", 8), {"truncated", "the dimensions"});
  bad(std::string("\x00\x00\x0C\x01\x00\x00\x00\x02\x00\x00\x00\x01", 12), {"truncated", "8 bytes of elements"});
  bad(std::string("\x00\x00\x08\x01\x00\x00\x00\x01\x05\x06", 10), {"bytes after the 1 elements"});
  bad(std::string("\x00\x00\x08\x03\xFF\xFF\xFF\xFF\xFF\xFF\xFF\xFF\xFF\xFF\xFF\xFF", 16), {"implausible dimensions"});
  expect_error([&] { load_idx(dir / "missing.idx", ref()); }, {"missing.idx", "does not exist"});
  expect_error([&] { load_idx(dir.path(), ref()); }, {"not a regular file"});
}

}  // namespace
}  // namespace nxv::io
