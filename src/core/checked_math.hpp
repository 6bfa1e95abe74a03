// Shape, size and offset arithmetic that refuses to wrap. A wrapped int64 size or offset is the worst kind of
// bug: [2^32, 2^32] "has 0 elements" and a slice's last index wraps back into range, so bounds checks pass and
// kernels then read through null or past the end. Every shape rule computes with these instead of + and *.
#pragma once
#include <cstdint>
#include <string_view>
#include <type_traits>

#include "nxv/error.hpp"
#include "nxv/shape.hpp"

namespace nxv {

namespace detail {
// A context argument of the error message: a value, or a callable that makes one. These checks run on every op,
// so a context that costs something to format (to_string of a shape) is passed as a lambda and made only for the
// error: formatted eagerly, it doubled the host cost of recording an eager op.
template <class T>
decltype(auto) message_part(const T& part) {
  if constexpr (std::is_invocable_v<const T&>)
    return part();
  else
    return (part);
}
}  // namespace detail

// a + b, or nxv::Error "<op>: <context...>: a + b overflows int64 ..." when the sum is not representable.
template <class... Context>
std::int64_t checked_add(std::int64_t a, std::int64_t b, std::string_view op, const Context&... context) {
  std::int64_t r;
  if (__builtin_add_overflow(a, b, &r))
    detail::fail(op, ": ", detail::message_part(context)..., ": ", a, " + ", b,
                 " overflows int64 (expected a result below 2^63)");
  return r;
}

// a * b, or nxv::Error naming the op, as checked_add.
template <class... Context>
std::int64_t checked_mul(std::int64_t a, std::int64_t b, std::string_view op, const Context&... context) {
  std::int64_t r;
  if (__builtin_mul_overflow(a, b, &r))
    detail::fail(op, ": ", detail::message_part(context)..., ": ", a, " * ", b,
                 " overflows int64 (expected a result below 2^63)");
  return r;
}

// The element count of `s`, or nxv::Error naming `op` when a dimension is negative or the count (of the nonzero
// dimensions, so that every row-major stride fits too) passes int64. nxv::num_elements is this with op
// "num_elements"; shape rules call it with their op's name.
std::int64_t checked_num_elements(const Shape& s, std::string_view op);

// The bytes of a tensor of `count` elements of `element_bytes` each, or nxv::Error naming `op` past int64.
inline std::int64_t checked_bytes(std::int64_t count, std::size_t element_bytes, std::string_view op) {
  return checked_mul(count, static_cast<std::int64_t>(element_bytes), op, "the byte size");
}

}  // namespace nxv
