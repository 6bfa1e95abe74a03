// Helpers for the reference-backend tests: build host tensors from values, run one OpCall on the reference
// backend directly (below the front end, so each kernel's attrs are exercised exactly) and read results back.
#pragma once
#include <cstring>
#include <vector>

#include <gtest/gtest.h>

#include "nxv/backend.hpp"
#include "nxv/tensor.hpp"
#include "ops/op.hpp"

namespace nxv::reference_test {

inline Backend& ref() { return reference_backend(); }

// A tensor of `type` holding `values` (row-major). Pred tensors take uint8_t values 0/1.
template <class T>
Tensor make(const std::vector<T>& values, const Shape& shape, DType type = dtype_of_v<T>) {
  EXPECT_EQ(sizeof(T), size_of(type));
  const TensorType tt{shape, type};
  const auto bytes = std::as_bytes(std::span<const T>(values));
  return Tensor(tt, ref(), ref().upload(bytes, tt));
}

inline Tensor run(OpCode code, const OpAttrs& attrs, const std::vector<Tensor>& inputs, const TensorType& out) {
  const OpCall call{code, attrs};
  return Tensor(out, ref(), ref().execute(call, inputs, out));
}

// The elements of `t` as T (uint8_t for pred and u8).
template <class T>
std::vector<T> values(const Tensor& t) {
  EXPECT_EQ(sizeof(T), size_of(t.dtype()));
  std::vector<std::byte> bytes(static_cast<std::size_t>(num_elements(t.shape())) * size_of(t.dtype()));
  ref().download(t, bytes);
  std::vector<T> out(bytes.size() / sizeof(T));
  if (!bytes.empty()) std::memcpy(out.data(), bytes.data(), bytes.size());
  return out;
}

// 0, 1, 2, ... n-1 as T.
template <class T>
std::vector<T> counting(std::int64_t n) {
  std::vector<T> v(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) v[static_cast<std::size_t>(i)] = static_cast<T>(i);
  return v;
}

// The multi-index of row-major element `i` of `shape` (the tests' own, independent of src/reference).
inline std::vector<std::int64_t> unravel(std::int64_t i, const Shape& shape) {
  std::vector<std::int64_t> index(static_cast<std::size_t>(shape.size()));
  for (int k = shape.size() - 1; k >= 0; --k) {
    index[static_cast<std::size_t>(k)] = i % shape[k];
    i /= shape[k];
  }
  return index;
}
inline std::int64_t ravel(const std::vector<std::int64_t>& index, const Shape& shape) {
  std::int64_t i = 0;
  for (int k = 0; k < shape.size(); ++k) i = i * shape[k] + index[static_cast<std::size_t>(k)];
  return i;
}

}  // namespace nxv::reference_test
