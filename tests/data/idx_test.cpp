// The IDX reader (src/data/idx): good files, plain and gzip, each kind of bad file, and the real Fashion-MNIST.
#include "data/idx.hpp"

#include <zlib.h>

#include <gtest/gtest.h>

#include <numeric>

#include "support/env.hpp"
#include "support/temp_dir.hpp"

namespace nxv::data {
namespace {

using io_test::expect_error;
using io_test::TempDir;

std::string be32(std::uint32_t v) {
  return {static_cast<char>(v >> 24), static_cast<char>(v >> 16), static_cast<char>(v >> 8), static_cast<char>(v)};
}
std::string idx(std::uint32_t magic, std::initializer_list<std::uint32_t> dims, const std::string& body) {
  std::string s = be32(magic);
  for (auto d : dims) s += be32(d);
  return s + body;
}
void write_gzip(const std::filesystem::path& path, const std::string& bytes) {
  gzFile f = gzopen(path.c_str(), "wb");
  ASSERT_NE(f, nullptr);
  ASSERT_EQ(gzwrite(f, bytes.data(), static_cast<unsigned>(bytes.size())), static_cast<int>(bytes.size()));
  gzclose(f);
}

// Three 2×3 images whose pixels count up from 0, labelled 0, 9, 4.
std::string pixels() {
  std::string p(18, '\0');
  std::iota(p.begin(), p.end(), '\0');
  return p;
}
std::string good_images() { return idx(0x803, {3, 2, 3}, pixels()); }
std::string good_labels() { return idx(0x801, {3}, std::string("\x00\x09\x04", 3)); }

void write_split(const TempDir& dir, const std::string& prefix, const std::string& images, const std::string& labels,
                 bool gzip = false) {
  const std::string ext = gzip ? ".gz" : "";
  if (gzip) {
    write_gzip(dir / (prefix + "-images-idx3-ubyte" + ext), images);
    write_gzip(dir / (prefix + "-labels-idx1-ubyte" + ext), labels);
  } else {
    io_test::write_bytes(dir / (prefix + "-images-idx3-ubyte"), images);
    io_test::write_bytes(dir / (prefix + "-labels-idx1-ubyte"), labels);
  }
}

void expect_good(const Dataset& d) {
  EXPECT_EQ(d.count, 3);
  EXPECT_EQ(d.rows, 2);
  EXPECT_EQ(d.cols, 3);
  const std::string p = pixels();
  EXPECT_EQ(d.images, std::vector<std::uint8_t>(p.begin(), p.end()));
  EXPECT_EQ(d.labels, (std::vector<std::uint8_t>{0, 9, 4}));
  EXPECT_EQ(d.num_classes, 10);
}

TEST(Idx, ReadsPlainFiles) {
  TempDir dir;
  write_split(dir, "train", good_images(), good_labels());
  expect_good(load_idx(dir.path(), Split::train));
}

TEST(Idx, ReadsGzipFiles) {
  TempDir dir;
  write_split(dir, "t10k", good_images(), good_labels(), /*gzip=*/true);
  expect_good(load_idx(dir.path(), Split::test));
}

TEST(Idx, PrefersTheUncompressedFileWhenBothExist) {
  TempDir dir;
  write_split(dir, "train", good_images(), good_labels());
  write_split(dir, "train", idx(0x803, {1, 1, 1}, "x"), idx(0x801, {1}, "\x01"), /*gzip=*/true);
  expect_good(load_idx(dir.path(), Split::train));
}

TEST(Idx, AcceptsTheDottedSpellingOfSomeMirrors) {
  TempDir dir;
  io_test::write_bytes(dir / "train-images.idx3-ubyte", good_images());
  io_test::write_bytes(dir / "train-labels.idx1-ubyte", good_labels());
  expect_good(load_idx(dir.path(), Split::train));
}

TEST(Idx, MissingFileNamesWhatWasTriedAndHowToGetTheData) {
  TempDir dir;
  expect_error([&] { load_idx(dir.path(), Split::test); },
               {dir.path().string(), "t10k-images-idx3-ubyte", "t10k-images-idx3-ubyte.gz", "scripts/setup",
                "dataset-fashion-mnist", "--data"});
  expect_error([&] { load_idx(dir / "nowhere", Split::train); }, {"does not exist", "train-images-idx3-ubyte"});
}

// Such names used to be skipped silently, so the error said that there was no such file.
TEST(Idx, ANameThatIsNoRegularFileIsReported) {
  TempDir dir;
  write_split(dir, "train", good_images(), good_labels());
  std::filesystem::remove(dir / "train-images-idx3-ubyte");
  std::filesystem::create_directory(dir / "train-images-idx3-ubyte");
  expect_error([&] { load_idx(dir.path(), Split::train); },
               {(dir / "train-images-idx3-ubyte").string(), "not a regular file"});
}

TEST(Idx, RemembersItsFilesForMessages) {
  TempDir dir;
  write_split(dir, "t10k", good_images(), good_labels(), /*gzip=*/true);
  const Dataset d = load_idx(dir.path(), Split::test);
  EXPECT_EQ(d.images_path, dir / "t10k-images-idx3-ubyte.gz");
  EXPECT_EQ(d.labels_path, dir / "t10k-labels-idx1-ubyte.gz");
}

TEST(Idx, WrongMagicNumberIsReported) {
  TempDir dir;
  write_split(dir, "train", good_labels(), good_labels());  // a label file where the images belong
  expect_error([&] { load_idx(dir.path(), Split::train); },
               {"train-images-idx3-ubyte", "wrong magic number 0x00000801", "expected 0x00000803"});
  write_split(dir, "train", good_images(), good_images());
  expect_error([&] { load_idx(dir.path(), Split::train); },
               {"train-labels-idx1-ubyte", "wrong magic number 0x00000803", "expected 0x00000801"});
}

TEST(Idx, TruncatedFilesAreReported) {
  TempDir dir;
  write_split(dir, "train", good_images().substr(0, 16 + 10), good_labels());
  expect_error([&] { load_idx(dir.path(), Split::train); },
               {"train-images-idx3-ubyte", "truncated", "expected 18 bytes of pixels, got 10"});
  write_split(dir, "train", good_images().substr(0, 6), good_labels());
  expect_error([&] { load_idx(dir.path(), Split::train); }, {"train-images-idx3-ubyte", "truncated", "header"});
  write_split(dir, "train", good_images(), good_labels().substr(0, 9));
  expect_error([&] { load_idx(dir.path(), Split::train); },
               {"train-labels-idx1-ubyte", "expected 3 bytes of labels, got 1"});
}

TEST(Idx, TruncatedGzipStreamIsReported) {
  TempDir dir;
  write_split(dir, "train", good_images(), good_labels(), /*gzip=*/true);
  const auto path = dir / "train-images-idx3-ubyte.gz";
  const std::string whole = io_test::read_bytes(path);
  io_test::write_bytes(path, whole.substr(0, whole.size() - 12));  // cuts the deflate end and the gzip trailer
  expect_error([&] { load_idx(dir.path(), Split::train); }, {"train-images-idx3-ubyte.gz"});
}

TEST(Idx, TrailingBytesAreReported) {
  TempDir dir;
  write_split(dir, "train", good_images() + "junk", good_labels());
  expect_error([&] { load_idx(dir.path(), Split::train); }, {"train-images-idx3-ubyte", "bytes after the 18 bytes"});
}

TEST(Idx, ImageAndLabelCountsMustAgree) {
  TempDir dir;
  write_split(dir, "train", good_images(), idx(0x801, {2}, std::string("\x00\x01", 2)));
  expect_error([&] { load_idx(dir.path(), Split::train); },
               {"train-labels-idx1-ubyte", "has 2 labels", "has 3 images"});
}

TEST(Idx, LabelsOutOfRangeAreReported) {
  TempDir dir;
  write_split(dir, "train", good_images(), idx(0x801, {3}, std::string("\x00\x0a\x01", 3)));
  expect_error([&] { load_idx(dir.path(), Split::train); },
               {"train-labels-idx1-ubyte", "label 10 at index 1", "out of range", "0..9"});
}

TEST(Idx, ImplausibleDimensionsAreReported) {
  TempDir dir;
  write_split(dir, "train", idx(0x803, {0xFFFFFFFF, 0xFFFFFFFF, 0xFFFFFFFF}, ""), good_labels());
  expect_error([&] { load_idx(dir.path(), Split::train); }, {"train-images-idx3-ubyte", "implausible"});
}

TEST(Idx, DefaultDataDirHonoursTheEnvironment) {
  {
    const nxv::test::EnvGuard set("NXV_DATA_DIR", "/some/where");
    EXPECT_EQ(default_data_dir(), std::filesystem::path("/some/where"));
  }
  const nxv::test::EnvGuard unset("NXV_DATA_DIR", std::nullopt);
  EXPECT_EQ(default_data_dir(), std::filesystem::path("/usr/share/datasets/fashion-mnist"));
}

// Debian's dataset-fashion-mnist package (installed by scripts/setup).
TEST(Idx, ReadsTheInstalledFashionMnist) {
  const std::filesystem::path dir = "/usr/share/datasets/fashion-mnist";
  if (!std::filesystem::exists(dir / "train-images-idx3-ubyte.gz") &&
      !std::filesystem::exists(dir / "train-images-idx3-ubyte"))
    GTEST_SKIP() << "Fashion-MNIST is not installed in " << dir << " (scripts/setup installs it)";
  for (const auto& [split, count] : {std::pair{Split::train, 60000}, std::pair{Split::test, 10000}}) {
    const Dataset d = load_idx(dir, split);
    EXPECT_EQ(d.count, count) << name(split);
    EXPECT_EQ(d.rows, 28);
    EXPECT_EQ(d.cols, 28);
    EXPECT_EQ(d.images.size(), static_cast<std::size_t>(count) * 28 * 28);
    std::vector<int> per_class(10);
    for (auto l : d.labels) ++per_class.at(l);
    for (int c : per_class) EXPECT_EQ(c, count / 10) << "Fashion-MNIST is balanced: " << count / 10 << " per class";
    if (split == Split::train) {  // the normalisation constants of src/data/batches.hpp come from here
      const double mean = std::accumulate(d.images.begin(), d.images.end(), 0.0) / 255.0 / d.images.size();
      EXPECT_NEAR(mean, 0.2860, 5e-4);
    }
  }
}

}  // namespace
}  // namespace nxv::data
