#include "io/idx.hpp"

#include <zlib.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "nxv/error.hpp"

namespace nxv::io {

namespace {

struct TypeCode {
  DType dtype;
  unsigned char code;
};
constexpr TypeCode kTypeCodes[] = {{DType::u8, 0x08},  {DType::s8, 0x09},  {DType::s16, 0x0B},
                                   {DType::s32, 0x0C}, {DType::f32, 0x0D}, {DType::f64, 0x0E}};

// A header claiming more elements than this is corrupt (and the product of the dimensions cannot overflow).
constexpr std::uint64_t kMaxElements = std::uint64_t{1} << 40;

// IDX stores elements big-endian: swap each element's bytes in place on a little-endian host.
void swap_elements(std::vector<std::byte>& bytes, std::size_t element_size) {
  if constexpr (std::endian::native == std::endian::big) return;
  for (std::size_t at = 0; at + element_size <= bytes.size(); at += element_size)
    std::reverse(bytes.begin() + static_cast<std::ptrdiff_t>(at),
                 bytes.begin() + static_cast<std::ptrdiff_t>(at + element_size));
}

std::array<unsigned char, 4> big_endian(std::uint32_t v) {
  return {static_cast<unsigned char>(v >> 24), static_cast<unsigned char>(v >> 16), static_cast<unsigned char>(v >> 8),
          static_cast<unsigned char>(v)};
}

struct GzCloser {
  void operator()(gzFile_s* f) const { gzclose(f); }
};

class Reader {
 public:
  explicit Reader(std::filesystem::path path) : path_(std::move(path)) {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path_, ec))
      fail(std::filesystem::exists(path_, ec) ? "is not a regular file (a directory, a named pipe?)"
                                              : "does not exist");
    file_.reset(gzopen(path_.c_str(), "rb"));
    if (!file_) fail("cannot be opened (", std::strerror(errno), ")");
  }

  // Reads exactly `count` bytes of `what` (growing the buffer as data arrives: a lying header allocates little).
  std::vector<std::byte> read(std::uint64_t count, std::string_view what) {
    std::vector<std::byte> out;
    constexpr std::size_t kChunk = std::size_t{1} << 22;
    while (out.size() < count) {
      const std::size_t start = out.size();
      const std::size_t want = static_cast<std::size_t>(std::min<std::uint64_t>(kChunk, count - start));
      out.resize(start + want);
      const int got = gzread(file_.get(), out.data() + start, static_cast<unsigned>(want));
      if (got < 0) fail("read error (a damaged .gz file?)");
      if (static_cast<std::size_t>(got) < want)
        fail("truncated: expected ", count, " bytes of ", what, ", got ", start + static_cast<std::size_t>(got));
    }
    return out;
  }
  bool at_end() {
    std::byte extra;
    return gzread(file_.get(), &extra, 1) <= 0;
  }

  template <class... Parts>
  [[noreturn]] void fail(const Parts&... parts) const {
    detail::fail("load_idx: ", path_.string(), ": ", parts...);
  }

 private:
  std::filesystem::path path_;
  std::unique_ptr<gzFile_s, GzCloser> file_;
};

}  // namespace

void save_idx(const std::filesystem::path& path, const Tensor& t) {
  NXV_CHECK(t.defined(), "save_idx", "got an undefined tensor");
  const TypeCode* code = nullptr;
  for (const TypeCode& c : kTypeCodes)
    if (c.dtype == t.dtype()) code = &c;
  NXV_CHECK(code != nullptr, "save_idx", "IDX has no type code for ", name(t.dtype()),
            " (it holds u8, s8, s16, s32, f32 and f64); convert with as_type first");
  NXV_CHECK(t.rank() <= 255, "save_idx", "rank ", t.rank(), " is above IDX's 255 dimensions");
  std::vector<unsigned char> header{0, 0, code->code, static_cast<unsigned char>(t.rank())};
  for (std::int64_t d : t.shape()) {
    NXV_CHECK(d <= 0xFFFFFFFFll, "save_idx", "dimension ", d, " of ", to_string(t.type()),
              " does not fit IDX's 32-bit dimensions");
    const auto b = big_endian(static_cast<std::uint32_t>(d));
    header.insert(header.end(), b.begin(), b.end());
  }
  std::vector<std::byte> body(byte_size(t.type()));
  t.copy_to(body);
  swap_elements(body, size_of(t.dtype()));

  const std::string p = path.string();
  if (p.size() >= 3 && p.compare(p.size() - 3, 3, ".gz") == 0) {
    std::unique_ptr<gzFile_s, GzCloser> f(gzopen(p.c_str(), "wb"));
    NXV_CHECK(f != nullptr, "save_idx", p, " cannot be opened for writing (", std::strerror(errno), ")");
    bool ok = gzwrite(f.get(), header.data(), static_cast<unsigned>(header.size())) == static_cast<int>(header.size());
    for (std::size_t at = 0; ok && at < body.size(); at += std::size_t{1} << 24) {
      const auto n = static_cast<unsigned>(std::min(body.size() - at, std::size_t{1} << 24));
      ok = gzwrite(f.get(), body.data() + at, n) == static_cast<int>(n);
    }
    ok = gzclose(f.release()) == Z_OK && ok;
    NXV_CHECK(ok, "save_idx", "writing ", p, " failed");
    return;
  }
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  NXV_CHECK(out.good(), "save_idx", p, " cannot be opened for writing (", std::strerror(errno), ")");
  out.write(reinterpret_cast<const char*>(header.data()), static_cast<std::streamsize>(header.size()));
  out.write(reinterpret_cast<const char*>(body.data()), static_cast<std::streamsize>(body.size()));
  out.close();
  NXV_CHECK(!out.fail(), "save_idx", "writing ", p, " failed");
}

Tensor load_idx(const std::filesystem::path& path, Backend& backend) {
  Reader r(path);
  const std::vector<std::byte> magic = r.read(4, "the header");
  const auto byte = [&](int i) { return std::to_integer<unsigned>(magic[static_cast<std::size_t>(i)]); };
  if (byte(0) != 0 || byte(1) != 0)
    r.fail("not IDX: the first two bytes are ", byte(0), " and ", byte(1), ", expected 0 and 0");
  const TypeCode* code = nullptr;
  for (const TypeCode& c : kTypeCodes)
    if (c.code == byte(2)) code = &c;
  if (code == nullptr)
    r.fail("unknown IDX type code ", byte(2), " (expected 8 u8, 9 s8, 11 s16, 12 s32, 13 f32 or 14 f64)");
  const std::vector<std::byte> dims = r.read(4 * std::uint64_t{byte(3)}, "the dimensions");
  Shape shape;
  std::uint64_t count = 1;
  for (std::size_t d = 0; d < byte(3); ++d) {
    std::uint32_t v = 0;
    for (int k = 0; k < 4; ++k) v = v << 8 | std::to_integer<std::uint32_t>(dims[4 * d + k]);
    shape.push_back(v);
    count = v == 0 ? 0 : (count > kMaxElements / v ? kMaxElements + 1 : count * v);
  }
  if (count > kMaxElements) r.fail("implausible dimensions ", to_string(shape), " (more than 2^40 elements)");
  const TensorType type{shape, code->dtype};
  std::vector<std::byte> body = r.read(count * size_of(code->dtype), "elements");
  if (!r.at_end()) r.fail("has bytes after the ", count, " elements of ", to_string(type), " its header declares");
  swap_elements(body, size_of(code->dtype));
  return Tensor(type, backend, backend.upload(body, type), false);
}

}  // namespace nxv::io
