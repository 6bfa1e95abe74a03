// The IDX reader: MNIST-style image/label files (Fashion-MNIST, MNIST), plain or gzip-compressed.
//
// IDX (http://yann.lecun.com/exdb/mnist/): a big-endian magic number 0x000008NN (0x08 = unsigned bytes, NN = the
// number of dimensions), NN big-endian u32 dimensions, then the elements row-major. Images are 0x00000803
// [count, rows, cols], labels 0x00000801 [count].
#pragma once
#include <cstdint>
#include <filesystem>
#include <string_view>
#include <vector>

namespace nxv::data {

enum class Split { train, test };
std::string_view name(Split split);  // "train" / "test"

// One split of an image-classification data set, as stored: pixels 0..255, row-major [count, rows, cols].
struct Dataset {
  std::vector<std::uint8_t> images;
  std::vector<std::uint8_t> labels;
  std::int64_t count = 0, rows = 0, cols = 0;
  int num_classes = 10;
  std::filesystem::path images_path, labels_path;  // where they were read from, for messages
};

// Where the data lives when no --data is given: $NXV_DATA_DIR if set, else the directory of Debian's
// dataset-fashion-mnist package.
std::filesystem::path default_data_dir();

// Reads `split` from `dir`: {train,t10k}-{images-idx3,labels-idx1}-ubyte, each optionally .gz (the uncompressed
// file wins when both exist; the "images.idx3-ubyte" spelling of some mirrors is accepted too).
// Throws nxv::Error naming the file and the problem for a missing file, one that is not a regular file (a
// directory, a named pipe), a wrong magic number, a truncated or over-long file, image and label counts that
// disagree, and labels >= num_classes.
Dataset load_idx(const std::filesystem::path& dir, Split split);

}  // namespace nxv::data
