// Shape and Axes: small inline vectors (no heap), since every op builds a few of them.
#pragma once
#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <span>
#include <string>

#include "nxv/error.hpp"

namespace nxv {

inline constexpr int kMaxRank = 8;

// A vector of at most N elements stored inline.
template <class T, int N>
class InlineVec {
 public:
  InlineVec() = default;
  InlineVec(std::initializer_list<T> values) { assign(values.begin(), values.end()); }
  explicit InlineVec(std::span<const T> values) { assign(values.begin(), values.end()); }
  template <class It>
  InlineVec(It first, It last) {
    assign(first, last);
  }
  static InlineVec filled(int count, T value) {
    InlineVec v;
    for (int i = 0; i < count; ++i) v.push_back(value);
    return v;
  }

  int size() const { return size_; }
  bool empty() const { return size_ == 0; }
  static constexpr int capacity() { return N; }
  T& operator[](int i) { return data_[i]; }
  const T& operator[](int i) const { return data_[i]; }
  T* begin() { return data_; }
  T* end() { return data_ + size_; }
  const T* begin() const { return data_; }
  const T* end() const { return data_ + size_; }
  const T* data() const { return data_; }
  T& back() { return data_[size_ - 1]; }
  const T& back() const { return data_[size_ - 1]; }
  void push_back(T v) {
    if (size_ >= N) detail::fail("nxv: more than ", N, " dimensions or axes (the maximum rank is ", N, ")");
    data_[size_++] = v;
  }
  void insert(int pos, T v) {
    push_back(v);
    std::rotate(data_ + pos, data_ + size_ - 1, data_ + size_);
  }
  void erase(int pos) {
    std::copy(data_ + pos + 1, data_ + size_, data_ + pos);
    --size_;
  }
  void resize(int n, T v = T{}) {
    while (size_ > n) --size_;
    while (size_ < n) push_back(v);
  }
  bool contains(T v) const { return std::find(begin(), end(), v) != end(); }
  friend bool operator==(const InlineVec& a, const InlineVec& b) {
    return std::equal(a.begin(), a.end(), b.begin(), b.end());
  }
  operator std::span<const T>() const { return {data_, static_cast<std::size_t>(size_)}; }

 private:
  template <class It>
  void assign(It first, It last) {
    for (; first != last; ++first) push_back(static_cast<T>(*first));
  }
  T data_[N]{};
  int size_ = 0;
};

// Dimensions of a tensor, outermost first.
using Shape = InlineVec<std::int64_t, kMaxRank>;
// A list of axes (reduction axes, a permutation, the contracting axes of a dot...).
using Axes = InlineVec<std::int64_t, kMaxRank>;

std::int64_t num_elements(const Shape& s);
std::string to_string(const Shape& s);  // "[2, 3]"
// Row-major strides in elements.
Shape contiguous_strides(const Shape& s);
// NumPy broadcasting of two shapes; throws nxv::Error naming `op` when they are incompatible.
Shape broadcast_shapes(const Shape& a, const Shape& b, std::string_view op);

}  // namespace nxv
