// The reference (CPU) kernels: one function per kernel family, called from ReferenceBackend::execute's switch.
//
// Inputs arrive validated and typed by the front end (src/ops): kernels only compute. Each kernel writes the
// row-major elements of a result of type `out` into `dst`, which holds exactly that many bytes.
#pragma once
#include <cstddef>
#include <span>
#include <vector>

#include "nxv/tensor.hpp"
#include "ops/op.hpp"

namespace nxv::reference {

// A tensor's elements in host memory, row-major.
struct HostStorage : Storage {
  std::vector<std::byte> bytes;
};

// The element bytes of `t`; throws nxv::Error when `t` is not on the reference backend.
const std::byte* host_bytes(const Tensor& t);

using Inputs = std::span<const Tensor>;

// elementwise.cpp (inputs broadcast to out.shape)
void unary(const UnaryAttrs& attrs, const Tensor& x, const TensorType& out, std::byte* dst);
void unary_test(const UnaryAttrs& attrs, const Tensor& x, const TensorType& out, std::byte* dst);
void binary(const BinaryAttrs& attrs, const Tensor& a, const Tensor& b, const TensorType& out, std::byte* dst);
void binary_test(const BinaryAttrs& attrs, const Tensor& a, const Tensor& b, const TensorType& out, std::byte* dst);
void select(const Tensor& pred, const Tensor& on_true, const Tensor& on_false, const TensorType& out, std::byte* dst);
void clip(const Tensor& x, const Tensor& low, const Tensor& high, const TensorType& out, std::byte* dst);
void cast(const Tensor& x, const TensorType& out, std::byte* dst);

// reduce.cpp
void reduce(const ReduceAttrs& attrs, const Tensor& x, const TensorType& out, std::byte* dst);
void arg_reduce(const ArgReduceAttrs& attrs, const Tensor& x, const TensorType& out, std::byte* dst);

// movement.cpp
void transpose(const TransposeAttrs& attrs, const Tensor& x, const TensorType& out, std::byte* dst);
void broadcast(const BroadcastAttrs& attrs, const Tensor& x, const TensorType& out, std::byte* dst);
void slice(const SliceAttrs& attrs, const Tensor& x, const TensorType& out, std::byte* dst);
void pad(const PadAttrs& attrs, const Tensor& x, const TensorType& out, std::byte* dst);
void concatenate(const AxisAttrs& attrs, Inputs xs, const TensorType& out, std::byte* dst);
void reverse(const ReverseAttrs& attrs, const Tensor& x, const TensorType& out, std::byte* dst);

// dot.cpp
void dot(const DotAttrs& attrs, const Tensor& a, const Tensor& b, const TensorType& out, std::byte* dst);

// creation.cpp
void iota(const AxisAttrs& attrs, const TensorType& out, std::byte* dst);
void eye(const TensorType& out, std::byte* dst);
void full(const FullAttrs& attrs, const TensorType& out, std::byte* dst);
void random_uniform(const UniformAttrs& attrs, const TensorType& out, std::byte* dst);
void random_normal(const NormalAttrs& attrs, const TensorType& out, std::byte* dst);

// indexing_ops.cpp: reads clamp indices into range, writes drop out-of-range updates (include/nxv/indexing.hpp)
void take(const AxisAttrs& attrs, const Tensor& x, const Tensor& indices, const TensorType& out, std::byte* dst);
void take_along_axis(const AxisAttrs& attrs, const Tensor& x, const Tensor& indices, const TensorType& out,
                     std::byte* dst);
void gather(const Tensor& x, const Tensor& indices, const TensorType& out, std::byte* dst);
void indexed_add(const Tensor& x, const Tensor& indices, const Tensor& updates, const TensorType& out, std::byte* dst);
void indexed_put(const Tensor& x, const Tensor& indices, const Tensor& updates, const TensorType& out, std::byte* dst);
void put_slice(const PutSliceAttrs& attrs, const Tensor& x, const Tensor& slice, const TensorType& out, std::byte* dst);

// sort.cpp: stable sort and argsort along attrs.axis; sequential cumulative scans
void sort(const SortAttrs& attrs, const Tensor& x, const TensorType& out, std::byte* dst);
void argsort(const SortAttrs& attrs, const Tensor& x, const TensorType& out, std::byte* dst);
void cumulative(const CumulativeAttrs& attrs, const Tensor& x, const TensorType& out, std::byte* dst);

// linalg.cpp: f32/f64 matrices in the last two axes, one at a time (layouts in ops/op.hpp)
void cholesky(const Tensor& a, const TensorType& out, std::byte* dst);
void triangular_solve(const TriangularSolveAttrs& attrs, const Tensor& a, const Tensor& b, const TensorType& out,
                      std::byte* dst);
void lu(const Tensor& a, const TensorType& out, std::byte* dst);
// linalg_orthogonal.cpp
void qr(const QrAttrs& attrs, const Tensor& a, const TensorType& out, std::byte* dst);
void eigh(const Tensor& a, const TensorType& out, std::byte* dst);
void svd(const Tensor& a, const TensorType& out, std::byte* dst);

// fft.cpp
void fft(const FftAttrs& attrs, const Tensor& x, const TensorType& out, std::byte* dst);

// conv.cpp, window.cpp: the CNN ops (include/nxv/conv.hpp defines their orders)
void conv(const ConvAttrs& attrs, const Tensor& x, const Tensor& w, const TensorType& out, std::byte* dst);
void window_reduce(const WindowAttrs& attrs, const Tensor& x, const TensorType& out, std::byte* dst);
void window_scatter(const WindowAttrs& attrs, const Tensor& x, const Tensor& source, const Tensor& init,
                    const TensorType& out, std::byte* dst);

}  // namespace nxv::reference
