#include "data/idx.hpp"

#include <zlib.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>

#include "core/settings.hpp"
#include "nxv/error.hpp"

namespace nxv::data {

namespace {

constexpr std::uint32_t kImagesMagic = 0x00000803;  // unsigned bytes, 3 dimensions
constexpr std::uint32_t kLabelsMagic = 0x00000801;  // unsigned bytes, 1 dimension
// A header claiming more than this is corrupt, not a data set (Fashion-MNIST's training images are 47 MB); the
// check keeps count * rows * cols from overflowing.
constexpr std::uint64_t kMaxElements = std::uint64_t{1} << 40;

std::string hex(std::uint32_t v) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%08X", v);
  return buf;
}

struct GzCloser {
  void operator()(gzFile_s* f) const { gzclose(f); }
};
using GzFile = std::unique_ptr<gzFile_s, GzCloser>;

// One IDX file being read; gzread reads plain files transparently, so both spellings go through here.
class IdxReader {
 public:
  explicit IdxReader(std::filesystem::path path) : path_(std::move(path)), file_(gzopen(path_.c_str(), "rb")) {
    if (!file_) fail("cannot be opened (", std::strerror(errno), ")");
    gzbuffer(file_.get(), 1 << 18);
  }

  // Reads the magic number and the dimensions, checking the magic against `expected_magic`.
  std::vector<std::uint32_t> read_header(std::uint32_t expected_magic, std::string_view what) {
    const std::uint32_t magic = read_u32("the magic number");
    if (magic != expected_magic)
      fail("wrong magic number ", hex(magic), ", expected ", hex(expected_magic), " (IDX ", what,
           "); is this the right file?");
    std::vector<std::uint32_t> dims(expected_magic & 0xFF);
    for (std::size_t i = 0; i < dims.size(); ++i) dims[i] = read_u32("the dimensions");
    return dims;
  }

  // Reads exactly `count` bytes of `what` and checks that nothing follows them.
  std::vector<std::uint8_t> read_body(std::uint64_t count, std::string_view what) {
    std::vector<std::uint8_t> out;
    constexpr std::size_t kChunk = std::size_t{1} << 22;  // grow as data arrives: a lying header allocates nothing
    while (out.size() < count) {
      const std::size_t start = out.size();
      const std::size_t want = static_cast<std::size_t>(std::min<std::uint64_t>(kChunk, count - start));
      out.resize(start + want);
      const int got = gzread(file_.get(), out.data() + start, static_cast<unsigned>(want));
      check_read_error(got);
      if (static_cast<std::size_t>(got) < want)
        fail("truncated: expected ", count, " bytes of ", what, ", got ", start + static_cast<std::size_t>(got));
    }
    std::uint8_t extra;
    if (gzread(file_.get(), &extra, 1) > 0)
      fail("has bytes after the ", count, " bytes of ", what, " its header declares (corrupt or not IDX)");
    return out;
  }

  template <class... Parts>
  [[noreturn]] void fail(const Parts&... parts) const {
    detail::fail("load_idx: ", path_.string(), ": ", parts...);
  }

 private:
  std::uint32_t read_u32(std::string_view what) {
    std::array<unsigned char, 4> b{};
    const int got = gzread(file_.get(), b.data(), 4);
    check_read_error(got);
    if (got != 4) fail("truncated: the file ends inside ", what, " of the header");
    return std::uint32_t{b[0]} << 24 | std::uint32_t{b[1]} << 16 | std::uint32_t{b[2]} << 8 | b[3];
  }
  void check_read_error(int got) const {
    if (got >= 0) return;
    int code = 0;
    const char* message = gzerror(file_.get(), &code);
    fail("read error: ", code == Z_ERRNO ? std::strerror(errno) : message, " (a damaged .gz file?)");
  }

  std::filesystem::path path_;
  GzFile file_;
};

// The first existing file among the spellings of `stem` ("train-images" + "idx3").
std::filesystem::path find_file(const std::filesystem::path& dir, const std::string& stem, const std::string& kind) {
  const std::string names[] = {stem + "-" + kind + "-ubyte", stem + "-" + kind + "-ubyte.gz",
                               stem + "." + kind + "-ubyte", stem + "." + kind + "-ubyte.gz"};
  std::error_code ec;
  for (const auto& n : names)
    if (std::filesystem::is_regular_file(dir / n, ec)) return dir / n;
  // A directory or a named pipe by one of the names: said so, as "no file" would mislead.
  for (const auto& n : names)
    if (std::filesystem::exists(dir / n, ec))
      detail::fail("load_idx: ", (dir / n).string(), " is not a regular file (a directory, a named pipe?), expected ",
                   stem, " in IDX format");
  std::string tried;
  for (const auto& n : names) tried += (tried.empty() ? "" : ", ") + n;
  const bool dir_exists = std::filesystem::is_directory(dir, ec);
  detail::fail(
      "load_idx: ", dir_exists ? "no " : "the data directory does not exist, so no ", stem, " file in ", dir.string(),
      " (tried ", tried,
      "). Install Fashion-MNIST with scripts/setup (the Debian package dataset-fashion-mnist, which puts it "
      "in /usr/share/datasets/fashion-mnist), or point --data DIR or NXV_DATA_DIR at a directory of IDX files");
}

}  // namespace

std::string_view name(Split split) { return split == Split::train ? "train" : "test"; }

std::filesystem::path default_data_dir() { return settings::value(settings::Id::DATA_DIR); }

Dataset load_idx(const std::filesystem::path& dir, Split split) {
  const std::string prefix = split == Split::train ? "train" : "t10k";
  const auto images_path = find_file(dir, prefix + "-images", "idx3");
  const auto labels_path = find_file(dir, prefix + "-labels", "idx1");
  Dataset d;
  d.images_path = images_path;
  d.labels_path = labels_path;

  IdxReader images(images_path);
  const auto image_dims = images.read_header(kImagesMagic, "images: [count, rows, cols] of unsigned bytes");
  d.count = image_dims[0];
  d.rows = image_dims[1];
  d.cols = image_dims[2];
  const std::uint64_t pixels = std::uint64_t{image_dims[0]} * image_dims[1] * image_dims[2];
  if (d.rows == 0 || d.cols == 0 || std::uint64_t{image_dims[1]} * image_dims[2] > kMaxElements ||
      pixels > kMaxElements)
    images.fail("implausible image dimensions [", d.count, ", ", d.rows, ", ", d.cols, "]");
  d.images = images.read_body(pixels, "pixels");

  IdxReader labels(labels_path);
  const auto label_dims = labels.read_header(kLabelsMagic, "labels: [count] of unsigned bytes");
  if (label_dims[0] != image_dims[0])
    labels.fail("has ", label_dims[0], " labels but ", images_path.filename().string(), " has ", d.count,
                " images; they must have one label per image");
  d.labels = labels.read_body(label_dims[0], "labels");
  for (std::size_t i = 0; i < d.labels.size(); ++i)
    if (d.labels[i] >= d.num_classes)
      labels.fail("label ", int{d.labels[i]}, " at index ", i, " is out of range: expected 0..", d.num_classes - 1);
  return d;
}

}  // namespace nxv::data
