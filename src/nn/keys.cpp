// Key tensors and the random numbers drawn from them with ordinary integer ops, so that randomness can be an input
// of a jitted function (nxv::uniform's key is an op attribute, a constant of the trace).
#include <limits>

#include "nxv/nn.hpp"

namespace nxv::nn {

namespace {

// 32-bit words live in s64 tensors (there is no u32 dtype): every value stays in [0, 2^32).
constexpr long long kLow32 = 0xFFFFFFFFLL;

// x * c mod 2^32 without overflowing s64: with c = c_hi * 2^31 + c_lo (c_lo < 2^31), x * c_lo < 2^63, and
// x * c_hi * 2^31 mod 2^32 is (x & 1) * 2^31.
Tensor multiply32(const Tensor& x, std::uint32_t c) {
  Tensor p = x * static_cast<long long>(c & 0x7FFFFFFFu);
  if (c >> 31) p = p + left_shift(bitwise_and(x, 1LL), 31LL);
  return bitwise_and(p, kLow32);
}

Tensor xor_shift(const Tensor& x, int bits) { return bitwise_xor(x, right_shift(x, static_cast<long long>(bits))); }

// MurmurHash3's 32-bit finaliser (fmix32): a bijection of [0, 2^32) with full avalanche.
Tensor fmix32(Tensor h) {
  h = multiply32(xor_shift(h, 16), 0x85ebca6bu);
  h = multiply32(xor_shift(h, 13), 0xc2b2ae35u);
  return xor_shift(h, 16);
}

std::uint32_t fmix32(std::uint32_t h) {
  h ^= h >> 16;
  h *= 0x85ebca6bu;
  h ^= h >> 13;
  h *= 0xc2b2ae35u;
  return h ^ (h >> 16);
}

}  // namespace

Tensor key_tensor(Key key, Backend& backend) { return tensor<std::int64_t>({key.k0, key.k1}, {2}, backend); }

Tensor step_key(std::uint64_t seed, std::int64_t step, Backend& backend) {
  // The run's key (a split of the seed's) with the step folded in, split once more: neighbouring steps get
  // unrelated keys, and (seed, step) pairs do not alias the way key(seed + step) would.
  const Key run = split(key(seed))[0];
  const Key mixed{run.k0 ^ static_cast<std::uint32_t>(step), run.k1 ^ static_cast<std::uint32_t>(step >> 32)};
  return key_tensor(split(mixed)[1], backend);
}

Tensor fold_in(const Tensor& key, const Tensor& data) {
  NXV_CHECK(key.shape() == Shape{2} && key.dtype() == DType::s64, "fold_in", "got key ", to_string(key.type()),
            ", expected a key tensor s64[2] (nn::key_tensor)");
  NXV_CHECK(data.rank() == 0 && is_integer(data.dtype()), "fold_in", "got data ", to_string(data.type()),
            ", expected an integer scalar");
  const Tensor d = as_type(data, DType::s64);
  const Tensor lo = bitwise_and(d, kLow32);
  const Tensor hi = bitwise_and(right_shift(d, 32LL), kLow32);
  const Tensor k0 = reshape(slice(key, {0}, {1}), {});
  const Tensor k1 = reshape(slice(key, {1}, {1}), {});
  // Each new word depends on both old words and both halves of data (a keyed two-round mix per word).
  const Tensor n0 = fmix32(bitwise_xor(fmix32(bitwise_xor(k0, lo)), bitwise_xor(k1, 0x9e3779b9LL)));
  const Tensor n1 = fmix32(bitwise_xor(fmix32(bitwise_xor(k1, hi)), n0));
  return stack({n0, n1});
}

Tensor random_uniform(const Tensor& key, const Shape& shape, DType dtype, std::uint32_t stream) {
  NXV_CHECK(key.shape() == Shape{2} && key.dtype() == DType::s64, "random_uniform", "got key ", to_string(key.type()),
            ", expected a key tensor s64[2] (nn::key_tensor)");
  NXV_CHECK(is_float(dtype), "random_uniform", "got dtype ", name(dtype), ", expected a float type");
  std::int64_t n = 1;
  for (const std::int64_t d : shape) n *= d;
  NXV_CHECK(n <= std::numeric_limits<std::uint32_t>::max(), "random_uniform", "got shape ", to_string(shape),
            ", expected fewer than 2^32 elements (the counter is 32 bits)");
  const Tensor k0 = reshape(slice(key, {0}, {1}), {});
  // The stream only changes the second word, so it costs one op on a scalar.
  const Tensor k1 = bitwise_xor(reshape(slice(key, {1}, {1}), {}), static_cast<long long>(fmix32(stream + 1)));
  // Two keyed rounds: fmix32(fmix32(i ^ k0) ^ k1). Either word of the key changes every bit of every element.
  const Tensor counter = iota({n}, 0, DType::s64, key.backend());
  const Tensor bits = fmix32(bitwise_xor(fmix32(bitwise_xor(counter, k0)), k1));
  // The top 24 bits, scaled into [0, 1): exact in f32 and f64.
  const Tensor u = as_type(right_shift(bits, 8LL), dtype) * (1.0 / (1 << 24));
  return reshape(u, shape);
}

}  // namespace nxv::nn
