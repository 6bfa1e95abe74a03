// What the nxv-train tests share: whether Fashion-MNIST is installed (tests that train skip without it) and a log
// sink for runs whose progress output nobody reads.
#pragma once
#include <cstdio>
#include <filesystem>

#include "data/idx.hpp"

namespace nxv::train_test {

inline bool have_fashion_mnist() {
  const std::filesystem::path dir = data::default_data_dir();
  return std::filesystem::exists(dir / "train-labels-idx1-ubyte.gz") ||
         std::filesystem::exists(dir / "train-labels-idx1-ubyte");
}

inline std::FILE* quiet_log() {
  static std::FILE* null = std::fopen("/dev/null", "w");
  return null;
}

}  // namespace nxv::train_test
