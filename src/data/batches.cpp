#include "data/batches.hpp"

#include <numeric>
#include <random>

#include "nxv/error.hpp"
#include "nxv/ops.hpp"

namespace nxv::data {

namespace {

// Uniform in [0, range): rejects the low (2^64 mod range) values so that every result is equally likely.
std::uint64_t uniform_below(std::mt19937_64& gen, std::uint64_t range) {
  const std::uint64_t reject_below = (0 - range) % range;  // == 2^64 mod range
  std::uint64_t r;
  do r = gen();
  while (r < reject_below);
  return r % range;
}

template <class T>
Tensor normalized_images(const Dataset& d, std::span<const std::int64_t> indices, const BatchOptions& o,
                         Backend& backend) {
  const std::int64_t pixels = d.rows * d.cols;
  const T scale = static_cast<T>(1.0 / (255.0 * o.normalization.std));
  const T shift = static_cast<T>(o.normalization.mean / o.normalization.std);
  std::vector<T> out(indices.size() * static_cast<std::size_t>(pixels));
  T* dst = out.data();
  for (std::int64_t index : indices) {
    const std::uint8_t* src = d.images.data() + index * pixels;
    for (std::int64_t p = 0; p < pixels; ++p) *dst++ = static_cast<T>(src[p]) * scale - shift;
  }
  const auto n = static_cast<std::int64_t>(indices.size());
  const Shape shape = o.layout == ImageLayout::nchw ? Shape{n, 1, d.rows, d.cols} : Shape{n, pixels};
  return from_data<T>(std::span<const T>(out), shape, backend);
}

}  // namespace

std::vector<std::int64_t> shuffled_indices(std::int64_t n, std::uint64_t seed, std::uint64_t epoch) {
  NXV_CHECK(n >= 0, "shuffled_indices", "got n = ", n, ", expected n >= 0");
  std::vector<std::int64_t> order(static_cast<std::size_t>(n));
  std::iota(order.begin(), order.end(), std::int64_t{0});
  // std::seed_seq's mixing is specified by the standard, so (seed, epoch) gives the same stream everywhere.
  std::seed_seq seq{static_cast<std::uint32_t>(seed), static_cast<std::uint32_t>(seed >> 32),
                    static_cast<std::uint32_t>(epoch), static_cast<std::uint32_t>(epoch >> 32)};
  std::mt19937_64 gen(seq);
  for (std::int64_t i = n - 1; i > 0; --i) {
    const auto j = static_cast<std::int64_t>(uniform_below(gen, static_cast<std::uint64_t>(i) + 1));
    std::swap(order[static_cast<std::size_t>(i)], order[static_cast<std::size_t>(j)]);
  }
  return order;
}

Batches::Batches(const Dataset& dataset, const BatchOptions& options, Backend& backend, std::uint64_t epoch)
    : dataset_(dataset), options_(options), backend_(backend) {
  NXV_CHECK(options.batch_size > 0, "Batches", "got batch_size ", options.batch_size, ", expected > 0");
  NXV_CHECK(options.subset >= 0, "Batches", "got subset ", options.subset, ", expected >= 0 (0 = all examples)");
  NXV_CHECK(is_float(options.dtype), "Batches", "got image dtype ", nxv::name(options.dtype),
            ", expected f32, f64, bf16 or f16");
  NXV_CHECK(options.normalization.std > 0, "Batches", "got normalisation std ", options.normalization.std,
            ", expected > 0");
  NXV_CHECK(static_cast<std::int64_t>(dataset.images.size()) == dataset.count * dataset.rows * dataset.cols &&
                static_cast<std::int64_t>(dataset.labels.size()) == dataset.count,
            "Batches", "the data set holds ", dataset.images.size(), " pixels and ", dataset.labels.size(),
            " labels, expected ", dataset.count, " images of ", dataset.rows, "x", dataset.cols, " and as many labels");
  const std::int64_t n = options.subset > 0 ? std::min(options.subset, dataset.count) : dataset.count;
  if (options.shuffle) {
    order_ = shuffled_indices(n, options.seed, epoch);
  } else {
    order_.resize(static_cast<std::size_t>(n));
    std::iota(order_.begin(), order_.end(), std::int64_t{0});
  }
  num_batches_ = options.drop_last ? n / options.batch_size : (n + options.batch_size - 1) / options.batch_size;
}

Batch Batches::operator[](std::int64_t i) const {
  NXV_CHECK(i >= 0 && i < num_batches_, "Batches", "batch index ", i, " is out of range: the epoch has ", num_batches_,
            " batches");
  const std::int64_t begin = i * options_.batch_size;
  const std::int64_t end = std::min(begin + options_.batch_size, num_examples());
  const std::span<const std::int64_t> indices(order_.data() + begin, static_cast<std::size_t>(end - begin));

  std::vector<std::int64_t> labels;
  labels.reserve(indices.size());
  for (std::int64_t index : indices) labels.push_back(dataset_.labels[static_cast<std::size_t>(index)]);

  Batch b;
  b.size = end - begin;
  if (options_.dtype == DType::f64)
    b.images = normalized_images<double>(dataset_, indices, options_, backend_);
  else if (options_.dtype == DType::f32)
    b.images = normalized_images<float>(dataset_, indices, options_, backend_);
  else  // bf16, f16: normalised in f32 and rounded on the host, so that half the bytes travel
    b.images = as_type(normalized_images<float>(dataset_, indices, options_, reference_backend()), options_.dtype)
                   .to(backend_);
  b.labels = from_data<std::int64_t>(std::span<const std::int64_t>(labels), Shape{b.size}, backend_);
  return b;
}

}  // namespace nxv::data
