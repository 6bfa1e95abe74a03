// Small IDX data sets written to a directory, for tests of programs that read one (nxv-train): no installed data
// set needed, and any size, image shape or emptiness a test asks for.
#pragma once
#include <cstdint>
#include <filesystem>
#include <random>
#include <string>

#include "support/temp_dir.hpp"

namespace nxv::io_test {

inline std::string idx_be32(std::uint32_t v) {
  return {static_cast<char>(v >> 24), static_cast<char>(v >> 16), static_cast<char>(v >> 8), static_cast<char>(v)};
}

// `prefix` ("train" or "t10k") images and labels in `dir`: `count` images of rows x cols random pixels (seeded),
// labelled i % 10.
inline void write_idx_split(const std::filesystem::path& dir, const std::string& prefix, std::uint32_t count,
                            std::uint32_t rows, std::uint32_t cols) {
  std::mt19937 gen(count * 31 + rows * 7 + cols);
  std::string images = idx_be32(0x803) + idx_be32(count) + idx_be32(rows) + idx_be32(cols);
  for (std::uint64_t i = 0; i < std::uint64_t{count} * rows * cols; ++i) images += static_cast<char>(gen() & 0xFF);
  std::string labels = idx_be32(0x801) + idx_be32(count);
  for (std::uint32_t i = 0; i < count; ++i) labels += static_cast<char>(i % 10);
  write_bytes(dir / (prefix + "-images-idx3-ubyte"), images);
  write_bytes(dir / (prefix + "-labels-idx1-ubyte"), labels);
}

}  // namespace nxv::io_test
