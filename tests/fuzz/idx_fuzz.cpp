// The IDX reader (src/data/idx.hpp), plain and gzip: the input's first byte chooses how many of the following bytes
// are the images file (in 1/256ths), the rest is the labels file; both are written to a scratch directory, as
// load_idx reads files (gzread decompresses .gz and plain files alike). Any pair is read or refused with nxv::Error.
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "data/idx.hpp"
#include "fuzz.hpp"

namespace {

const std::filesystem::path& scratch() {
  static const std::filesystem::path dir = [] {
    std::string pattern = (std::filesystem::temp_directory_path() / "nxv_idx_fuzz_XXXXXX").string();
    if (mkdtemp(pattern.data()) == nullptr) std::abort();
    return std::filesystem::path(pattern);
  }();
  return dir;
}

void write(const std::filesystem::path& p, const std::uint8_t* data, std::size_t size) {
  std::ofstream out(p, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::size_t images = (size - 1) * data[0] / 255;
  write(scratch() / "train-images-idx3-ubyte", data + 1, images);
  write(scratch() / "train-labels-idx1-ubyte", data + 1 + images, size - 1 - images);
  try {
    const nxv::data::Dataset d = nxv::data::load_idx(scratch(), nxv::data::Split::train);
    (void)d;
  } catch (const nxv::Error&) {
  }
  return 0;
}
