// Mini-batches of a Dataset as tensors: a seeded shuffle, a ragged (or dropped) last batch, normalisation.
#pragma once
#include <cstdint>
#include <vector>

#include "data/idx.hpp"
#include "nxv/backend.hpp"
#include "nxv/tensor.hpp"

namespace nxv::data {

// A permutation of 0..n-1 that depends only on (seed, epoch): std::mt19937_64 (fully specified by the standard)
// driving our own Fisher–Yates with rejection sampling, since std::shuffle and the std distributions differ
// between standard libraries.
std::vector<std::int64_t> shuffled_indices(std::int64_t n, std::uint64_t seed, std::uint64_t epoch = 0);

enum class ImageLayout {
  nchw,  // [batch, 1, rows, cols], for convolutions
  flat,  // [batch, rows * cols], for dense layers
};

// x -> (x / 255 - mean) / std. Fashion-MNIST's training set has mean 0.2860 and standard deviation 0.3530.
struct Normalization {
  double mean = 0.2860;
  double std = 0.3530;
};

struct BatchOptions {
  std::int64_t batch_size = 32;
  bool shuffle = true;
  std::uint64_t seed = 0;
  bool drop_last = false;   // drop a last batch smaller than batch_size instead of yielding it
  std::int64_t subset = 0;  // use only the first `subset` examples (0 = all), for quick runs and CI
  ImageLayout layout = ImageLayout::nchw;
  DType dtype = DType::f32;  // f32, f64, bf16 or f16
  Normalization normalization;
};

struct Batch {
  Tensor images;          // f32/f64 [n, 1, rows, cols] or [n, rows * cols]
  Tensor labels;          // s64 [n]
  std::int64_t size = 0;  // n
};

// One epoch's batches over a data set (which must outlive this object). Batches are built on demand, so an epoch
// holds one batch of tensors at a time.
class Batches {
 public:
  Batches(const Dataset& dataset, const BatchOptions& options, Backend& backend, std::uint64_t epoch = 0);

  std::int64_t size() const { return num_batches_; }  // number of batches
  std::int64_t num_examples() const { return static_cast<std::int64_t>(order_.size()); }
  Batch operator[](std::int64_t i) const;

 private:
  const Dataset& dataset_;
  BatchOptions options_;
  Backend& backend_;
  std::vector<std::int64_t> order_;  // dataset indices in the order this epoch visits them
  std::int64_t num_batches_ = 0;
};

}  // namespace nxv::data
