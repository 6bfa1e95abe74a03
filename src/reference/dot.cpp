// The dot reference kernel (Nx's dot/6): contraction over contract_a/contract_b with batching over
// batch_a/batch_b. Result axes: the batch axes, then a's free axes in order, then b's free axes in order.
//
// Each output element is acc = 0; for k = 0 .. K-1: acc = acc + a_k * b_k, where k runs row-major over the
// contracting axes in the order contract_a lists them (contract_b paired position by position); the product and
// the sum are each rounded (no fma: Vulkan allows fma to be split, and lavapipe splits it), integers wrap in the
// compute type. The Vulkan kernels accumulate in exactly this order, so results are bit-identical.
#include <cmath>
#include <type_traits>

#include "reference/dtype_dispatch.hpp"
#include "reference/indexing.hpp"
#include "reference/kernels.hpp"

namespace nxv::reference {
namespace {

// The axes of a rank-`rank` operand that are neither contracted nor batched, in increasing order.
Axes free_axes(int rank, const Axes& contract, const Axes& batch) {
  Axes free;
  for (int axis = 0; axis < rank; ++axis)
    if (!contract.contains(axis) && !batch.contains(axis)) free.push_back(axis);
  return free;
}

template <class C>
C multiply_add(C a, C b, C acc) {
  // A rounded product, then a rounded sum (no fma): the one definition every Vulkan device reproduces.
  return C(acc + C(a * b));
}

}  // namespace

void dot(const DotAttrs& attrs, const Tensor& a, const Tensor& b, const TensorType& out, std::byte* dst) {
  const Shape a_strides = contiguous_strides(a.shape());
  const Shape b_strides = contiguous_strides(b.shape());
  // Each operand's stride along every output axis (0 along the other operand's free axes)...
  Shape a_out, b_out;
  for (int j = 0; j < attrs.batch_a.size(); ++j) {
    a_out.push_back(a_strides[static_cast<int>(attrs.batch_a[j])]);
    b_out.push_back(b_strides[static_cast<int>(attrs.batch_b[j])]);
  }
  for (std::int64_t axis : free_axes(a.rank(), attrs.contract_a, attrs.batch_a)) {
    a_out.push_back(a_strides[static_cast<int>(axis)]);
    b_out.push_back(0);
  }
  for (std::int64_t axis : free_axes(b.rank(), attrs.contract_b, attrs.batch_b)) {
    a_out.push_back(0);
    b_out.push_back(b_strides[static_cast<int>(axis)]);
  }
  // ...and along every contracting axis, walked row-major in contract_a's order.
  Shape contract_shape, a_k, b_k;
  for (int j = 0; j < attrs.contract_a.size(); ++j) {
    contract_shape.push_back(a.dim(static_cast<int>(attrs.contract_a[j])));
    a_k.push_back(a_strides[static_cast<int>(attrs.contract_a[j])]);
    b_k.push_back(b_strides[static_cast<int>(attrs.contract_b[j])]);
  }

  const std::byte* a_src = host_bytes(a);
  const std::byte* b_src = host_bytes(b);
  visit_dtype(out.dtype, [&]<class S, class C>() {
    std::int64_t i = 0;
    for_each_index(out.shape, [&](const Shape& index) {
      const std::int64_t a_base = offset_of(index, a_out);
      const std::int64_t b_base = offset_of(index, b_out);
      C acc = C(0);
      for_each_index(contract_shape, [&](const Shape& k) {
        const C x = load<S, C>(a_src, a_base + offset_of(k, a_k));
        const C y = load<S, C>(b_src, b_base + offset_of(k, b_k));
        acc = multiply_add(x, y, acc);
      });
      store<S, C>(dst, i++, acc);
    });
  });
}

}  // namespace nxv::reference
