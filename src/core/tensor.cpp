#include "nxv/tensor.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ostream>
#include <sstream>
#include <type_traits>

#include "nxv/backend.hpp"

namespace nxv {

std::string to_string(const TensorType& t) { return std::string(name(t.dtype)) + to_string(t.shape); }

std::size_t byte_size(const TensorType& t) {
  return static_cast<std::size_t>(num_elements(t.shape)) * size_of(t.dtype);
}

Tensor::Tensor(TensorType type, Backend& backend, std::shared_ptr<Storage> storage, bool weak)
    : impl_(std::make_shared<const Impl>(Impl{std::move(type), &backend, std::move(storage), weak})) {}

std::int64_t Tensor::size() const { return num_elements(shape()); }

std::int64_t Tensor::dim(int axis) const {
  const int r = rank();
  NXV_CHECK(axis >= -r && axis < r, "dim", "axis ", axis, " is out of range for a tensor of rank ", r);
  return shape()[axis < 0 ? axis + r : axis];
}

void Tensor::copy_to(std::span<std::byte> dst) const {
  const std::size_t bytes = static_cast<std::size_t>(size()) * size_of(dtype());
  NXV_CHECK(dst.size() == bytes, "copy_to", "destination has ", dst.size(), " bytes, expected ", bytes, " for ",
            nxv::to_string(type()));
  backend().download(*this, dst);
}

Tensor Tensor::to(Backend& target) const {
  if (&target == &backend()) return *this;
  std::vector<std::byte> bytes(static_cast<std::size_t>(size()) * size_of(dtype()));
  copy_to(bytes);
  return Tensor(type(), target, target.upload(bytes, type()), weak());
}

Tensor Tensor::to_host() const { return to(reference_backend()); }

namespace {

// One element, read as its dtype's value type (the `value` column of shared/dtypes.def; memcpy: no alignment promise).
template <class V>
V element(const std::byte* p) {
  V v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

// An integer element in decimal (a float type's instantiation is never called: floats print as doubles).
template <class V>
std::string integer_string(const std::byte* p) {
  if constexpr (std::is_integral_v<V>)
    return std::to_string(element<V>(p));
  else
    return "?";
}

double element_as_double(const std::byte* p, DType t) {
  switch (t) {
#define NXV_DTYPE(name, bytes, kind, bits, value, ...) \
  case DType::name:                                    \
    return static_cast<double>(element<value>(p));
#define NXV_COMPLEX_DTYPE(name, bytes, bits, value, part) \
  case DType::name:                                       \
    return static_cast<double>(element<value>(p).real());
#include "shared/dtypes.def"
  }
  return 0;
}

// A float as printed: nan, inf, -inf or the digits that identify it in its dtype.
std::string format_float(double v, DType t) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  char buf[64];
  std::snprintf(buf, sizeof buf, t == DType::f64 ? "%.16g" : t == DType::f32 ? "%.7g" : "%.5g", v);
  return buf;
}

// A complex element as a+bi (NumPy's and Nx's form): the imaginary part always with its sign.
template <class V>
std::string complex_string(const std::byte* p, DType part) {
  const V z = element<V>(p);
  const std::string im = format_float(static_cast<double>(z.imag()), part);
  return format_float(static_cast<double>(z.real()), part) + (im[0] == '-' ? "" : "+") + im + "i";
}

std::string format_element(const std::byte* p, DType t) {
  if (t == DType::pred) return element<std::uint8_t>(p) ? "true" : "false";
  if (is_float(t)) return format_float(element_as_double(p, t), t);
  // Integers print exactly (a double would round u64 and s64 beyond 2^53).
  switch (t) {
#define NXV_DTYPE(name, bytes, kind, bits, value, ...) \
  case DType::name:                                    \
    return integer_string<value>(p);
#define NXV_COMPLEX_DTYPE(name, bytes, bits, value, part) \
  case DType::name:                                       \
    return complex_string<value>(p, DType::part);
#include "shared/dtypes.def"
  }
  return "?";
}

// NumPy-like nested brackets; axes longer than 2*kEdge+1 show only their first and last kEdge entries
// once the tensor has more than kThreshold elements.
constexpr std::int64_t kThreshold = 1000, kEdge = 3;

void print_axis(std::ostream& out, const std::vector<std::byte>& bytes, const TensorType& t, const Shape& strides,
                int axis, std::int64_t offset, bool summarise) {
  const std::size_t esize = size_of(t.dtype);
  if (axis == t.shape.size()) {
    out << format_element(bytes.data() + offset * esize, t.dtype);
    return;
  }
  const std::int64_t n = t.shape[axis];
  out << '[';
  for (std::int64_t i = 0; i < n; ++i) {
    if (summarise && n > 2 * kEdge + 1 && i == kEdge) {
      out << "...";
      i = n - kEdge - 1;
      out << (axis + 1 == t.shape.size() ? ", " : ",\n" + std::string(axis + 1, ' '));
      continue;
    }
    print_axis(out, bytes, t, strides, axis + 1, offset + i * strides[axis], summarise);
    if (i + 1 < n) out << (axis + 1 == t.shape.size() ? ", " : ",\n" + std::string(axis + 1, ' '));
  }
  out << ']';
}

}  // namespace

double Tensor::item() const {
  NXV_CHECK(size() == 1, "item", "tensor ", nxv::to_string(type()), " has ", size(), " elements, expected 1");
  NXV_CHECK(!is_complex(dtype()), "item", "tensor ", nxv::to_string(type()),
            " is complex, expected a real one (read it with to_vector<std::complex<...>>(), or item() its real())");
  std::vector<std::byte> bytes(size_of(dtype()));
  copy_to(bytes);
  return element_as_double(bytes.data(), dtype());
}

std::string Tensor::to_string() const {
  std::vector<std::byte> bytes(static_cast<std::size_t>(size()) * size_of(dtype()));
  copy_to(bytes);
  std::ostringstream out;
  out << nxv::to_string(type()) << '\n';
  print_axis(out, bytes, type(), contiguous_strides(shape()), 0, 0, size() > kThreshold);
  return out.str();
}

std::ostream& operator<<(std::ostream& os, const Tensor& t) { return os << t.to_string(); }

}  // namespace nxv
