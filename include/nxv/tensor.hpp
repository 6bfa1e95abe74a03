// nxv::Tensor: an immutable n-dimensional array with a shape, a dtype and a backend.
//
// Tensors have value semantics over shared, immutable storage: copying a Tensor is cheap, and no op ever
// modifies its inputs. reshape/squeeze/expand_dims return views of the same storage.
#pragma once
#include <cstring>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "nxv/dtype.hpp"
#include "nxv/error.hpp"
#include "nxv/shape.hpp"

namespace nxv {

class Backend;

// What a backend keeps for one tensor's elements (a host array, a GPU buffer, a node of a traced graph).
struct Storage {
  virtual ~Storage() = default;
};

struct TensorType {
  Shape shape;
  DType dtype = DType::f32;
  friend bool operator==(const TensorType&, const TensorType&) = default;
};
std::string to_string(const TensorType& t);  // "f32[2, 3]"
std::size_t byte_size(const TensorType& t);  // elements times the dtype's size

class Tensor {
 public:
  Tensor() = default;  // an undefined tensor; every op rejects it
  Tensor(TensorType type, Backend& backend, std::shared_ptr<Storage> storage, bool weak = false);

  bool defined() const { return impl_ != nullptr; }
  const TensorType& type() const { return impl().type; }
  const Shape& shape() const { return impl().type.shape; }
  DType dtype() const { return impl().type.dtype; }
  int rank() const { return shape().size(); }
  std::int64_t size() const;         // number of elements
  std::int64_t dim(int axis) const;  // negative axes count from the end
  Backend& backend() const { return *impl().backend; }
  const std::shared_ptr<Storage>& storage() const { return impl().storage; }
  // A weak tensor comes from a C++ scalar literal: it adopts the dtype of the tensor it meets (x * 2.0 stays f32).
  bool weak() const { return impl().weak; }

  // The same tensor on another backend (a copy unless it is already there).
  Tensor to(Backend& backend) const;
  // The same tensor on the reference (CPU) backend.
  Tensor to_host() const;
  // Copies the elements, row-major, into `dst` (exactly size() * size_of(dtype()) bytes).
  void copy_to(std::span<std::byte> dst) const;
  // The elements as T; T must be the tensor's C++ element type (bool for pred, float for f32, ...).
  template <class T>
  std::vector<T> to_vector() const;
  // The single element of a rank-0 or size-1 tensor, converted to double.
  double item() const;

  // NumPy-like text: `f32[2, 3]\n[[1, 2, 3],\n [4, 5, 6]]`.
  std::string to_string() const;

 private:
  struct Impl {
    TensorType type;
    Backend* backend;
    std::shared_ptr<Storage> storage;
    bool weak;
  };
  const Impl& impl() const {
    if (!impl_) detail::fail("nxv::Tensor: use of an undefined (default-constructed) tensor");
    return *impl_;
  }
  std::shared_ptr<const Impl> impl_;
};

std::ostream& operator<<(std::ostream& os, const Tensor& t);

template <class T>
std::vector<T> Tensor::to_vector() const {
  NXV_CHECK(dtype_of_v<T> == dtype(), "to_vector", "tensor is ", nxv::name(dtype()),
            " but the requested element type is ", nxv::name(dtype_of_v<T>));
  std::vector<std::byte> bytes(static_cast<std::size_t>(size()) * sizeof(T));
  copy_to(bytes);
  std::vector<T> out(static_cast<std::size_t>(size()));
  if constexpr (std::is_same_v<T, bool>) {
    for (std::size_t i = 0; i < out.size(); ++i) out[i] = bytes[i] != std::byte{0};
  } else if (!out.empty()) {
    std::memcpy(out.data(), bytes.data(), bytes.size());
  }
  return out;
}

}  // namespace nxv
