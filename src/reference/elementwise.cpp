// Elementwise reference kernels: unary, binary (and their pred-valued _test forms), select, clip and cast.
// Every input is read through broadcast strides, so an input of shape [3, 1] feeds an output of [2, 3, 4]
// without being materialised. Values are loaded into the compute type (dtype_dispatch.hpp), evaluated by the
// expressions of shared/elementwise.def (through ops/elementwise_eval.hpp) and stored back truncated.
#include <array>

#include "ops/elementwise_eval.hpp"
#include "reference/dtype_dispatch.hpp"
#include "reference/indexing.hpp"
#include "reference/kernels.hpp"

namespace nxv::reference {

namespace {

// Calls f(i, offsets) for each element i (row-major) of an output of shape `out`, where offsets[k] is the
// element of inputs[k] that broadcasts to it.
template <std::size_t N, class F>
void for_each_element(const Shape& out, const std::array<const Tensor*, N>& inputs, F&& f) {
  std::array<Shape, N> strides;
  for (std::size_t k = 0; k < N; ++k) strides[k] = broadcast_strides(inputs[k]->shape(), out);
  std::int64_t i = 0;
  for_each_index(out, [&](const Shape& index) {
    std::array<std::int64_t, N> offsets;
    for (std::size_t k = 0; k < N; ++k) offsets[k] = offset_of(index, strides[k]);
    f(i++, offsets);
  });
}

}  // namespace

void unary(const UnaryAttrs& attrs, const Tensor& x, const TensorType& out, std::byte* dst) {
  const UnaryFn fn = attrs.fn;
  const std::byte* src = host_bytes(x);
  visit_dtype(out.dtype, [&]<class S, class C>() {
    for_each_element<1>(out.shape, {&x}, [&](std::int64_t i, const auto& at) {
      store<S, C>(dst, i, eval_unary<C>(fn, load<S, C>(src, at[0]), 8 * sizeof(S)));
    });
  });
}

void unary_test(const UnaryAttrs& attrs, const Tensor& x, const TensorType& out, std::byte* dst) {
  const UnaryFn fn = attrs.fn;
  const std::byte* src = host_bytes(x);
  visit_dtype(x.dtype(), [&]<class S, class C>() {
    for_each_element<1>(out.shape, {&x}, [&](std::int64_t i, const auto& at) {
      store<std::uint8_t, std::uint32_t>(dst, i, eval_unary_test<C>(fn, load<S, C>(src, at[0])));
    });
  });
}

void binary(const BinaryAttrs& attrs, const Tensor& a, const Tensor& b, const TensorType& out, std::byte* dst) {
  const BinaryFn fn = attrs.fn;
  const std::byte* a_src = host_bytes(a);
  const std::byte* b_src = host_bytes(b);
  visit_dtype(out.dtype, [&]<class S, class C>() {
    for_each_element<2>(out.shape, {&a, &b}, [&](std::int64_t i, const auto& at) {
      store<S, C>(dst, i, eval_binary<C>(fn, load<S, C>(a_src, at[0]), load<S, C>(b_src, at[1])));
    });
  });
}

void binary_test(const BinaryAttrs& attrs, const Tensor& a, const Tensor& b, const TensorType& out, std::byte* dst) {
  const BinaryFn fn = attrs.fn;
  const std::byte* a_src = host_bytes(a);
  const std::byte* b_src = host_bytes(b);
  visit_dtype(a.dtype(), [&]<class S, class C>() {
    for_each_element<2>(out.shape, {&a, &b}, [&](std::int64_t i, const auto& at) {
      const std::uint32_t r = eval_binary_test<C>(fn, load<S, C>(a_src, at[0]), load<S, C>(b_src, at[1]));
      store<std::uint8_t, std::uint32_t>(dst, i, r);
    });
  });
}

// select(pred, on_true, on_false) = pred != 0 ? on_true : on_false, elementwise after broadcasting.
void select(const Tensor& pred, const Tensor& on_true, const Tensor& on_false, const TensorType& out, std::byte* dst) {
  const std::byte* p_src = host_bytes(pred);
  const std::byte* t_src = host_bytes(on_true);
  const std::byte* f_src = host_bytes(on_false);
  visit_dtype(out.dtype, [&]<class S, class C>() {
    for_each_element<3>(out.shape, {&pred, &on_true, &on_false}, [&](std::int64_t i, const auto& at) {
      const bool p = load<std::uint8_t, std::uint32_t>(p_src, at[0]) != 0;
      store<S, S>(dst, i, p ? load<S, S>(t_src, at[1]) : load<S, S>(f_src, at[2]));
    });
  });
}

// clip(x, low, high) = eval_min(eval_max(x, low), high): a NaN in x (or in a bound) propagates, and when
// low > high the result is high. The Vulkan kernel must evaluate exactly this expression.
void clip(const Tensor& x, const Tensor& low, const Tensor& high, const TensorType& out, std::byte* dst) {
  const std::byte* x_src = host_bytes(x);
  const std::byte* lo_src = host_bytes(low);
  const std::byte* hi_src = host_bytes(high);
  visit_dtype(out.dtype, [&]<class S, class C>() {
    for_each_element<3>(out.shape, {&x, &low, &high}, [&](std::int64_t i, const auto& at) {
      const C clipped =
          eval_min<C>(eval_max<C>(load<S, C>(x_src, at[0]), load<S, C>(lo_src, at[1])), load<S, C>(hi_src, at[2]));
      store<S, C>(dst, i, clipped);
    });
  });
}

// The conversion rules are convert() and to_pred() in dtype_dispatch.hpp.
void cast(const Tensor& x, const TensorType& out, std::byte* dst) {
  const std::byte* src = host_bytes(x);
  const std::int64_t n = num_elements(out.shape);
  visit_dtype(x.dtype(), [&]<class From, class FromCompute>() {
    visit_dtype(out.dtype, [&]<class To, class ToCompute>() {
      for (std::int64_t i = 0; i < n; ++i) {
        const From v = load<From, From>(src, i);
        store<To, To>(dst, i, out.dtype == DType::pred ? convert<To>(to_pred(v)) : convert<To>(v));
      }
    });
  });
}

}  // namespace nxv::reference
