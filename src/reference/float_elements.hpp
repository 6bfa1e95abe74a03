// What the reference's linear-algebra kernels share: a float tensor's elements as a vector, and the dispatch over
// the two dtypes they take.
#pragma once
#include <cstring>
#include <vector>

#include "reference/kernels.hpp"

namespace nxv::reference {

template <class T>
std::vector<T> elements(const Tensor& t) {
  std::vector<T> v(static_cast<std::size_t>(t.size()));
  if (!v.empty()) std::memcpy(v.data(), host_bytes(t), v.size() * sizeof(T));
  return v;
}

template <class T>
void write(const std::vector<T>& v, std::byte* dst) {
  if (!v.empty()) std::memcpy(dst, v.data(), v.size() * sizeof(T));
}

// f.template operator()<float>() for f32, <double>() for f64 (the front end admits no other dtype).
template <class F>
void visit_float(DType dtype, F&& f) {
  if (dtype == DType::f32)
    f.template operator()<float>();
  else
    f.template operator()<double>();
}

}  // namespace nxv::reference
