// The kernel families of the Vulkan backend, called from VulkanBackend::execute's one switch over OpCode.
// Each runs the call natively, setting `result` to the new buffer, or returns false without side effects, and
// the backend takes the host-fallback choke point (src/vulkan/runtime/fallback.hpp).
#pragma once
#include <cstdint>
#include <span>

#include "nxv/tensor.hpp"
#include "ops/op.hpp"
#include "vulkan/runtime/runtime.hpp"

namespace nxv::vulkan::kernels {

using Inputs = std::span<const Tensor>;

bool elementwise(const OpCall& call, Inputs in, const TensorType& out, BufferPtr& result);  // unary, binary,
                                                                                            // their _test, select, clip
// Whether the device runs elementwise function `fn` of `code` (unary, binary or their _test) on `dtype` natively:
// false where its kernel needs a feature the device lacks even specialized to that function (f32 exp without
// f64). The fusion compiler leaves such nodes eager (each takes the counted fallback) instead of failing its kernel.
bool elementwise_native(OpCode code, std::int32_t fn, DType dtype);
bool cast(const OpCall& call, Inputs in, const TensorType& out, BufferPtr& result);
// `count` elements of `src` converted from `from` to `to` (cast.comp), in a new buffer.
BufferPtr cast_buffer(const BufferPtr& src, DType from, DType to, std::uint32_t count);
bool reduce(const OpCall& call, Inputs in, const TensorType& out, BufferPtr& result);  // reduce, arg_reduce
// Whether the device runs reduction `fn` of `dtype` natively (reduce.comp specialized to it): false where it needs a
// feature the device lacks (an f64 sum without f64, any/all of pred without 8-bit storage). The fusion compiler
// leaves such reductions eager, as elementwise_native's nodes.
bool reduce_native(ReduceFn fn, DType dtype);
bool movement(const OpCall& call, Inputs in, const TensorType& out, BufferPtr& result);  // transpose, broadcast,
                                                                                         // slice, pad, concatenate,
                                                                                         // reverse
bool dot(const OpCall& call, Inputs in, const TensorType& out, BufferPtr& result);
bool creation(const OpCall& call, Inputs in, const TensorType& out, BufferPtr& result);  // iota, eye, full, random
bool indexing(const OpCall& call, Inputs in, const TensorType& out, BufferPtr& result);  // take, take_along_axis,
                                                                                         // gather, indexed_add/put,
                                                                                         // put_slice
bool sorting(const OpCall& call, Inputs in, const TensorType& out, BufferPtr& result);   // sort, argsort, cumulative
bool conv(const OpCall& call, Inputs in, const TensorType& out, BufferPtr& result);
bool fft(const OpCall& call, Inputs in, const TensorType& out, BufferPtr& result);  // through VkFFT (fft.cpp)
// Whether conv splits its contraction by chunks (conv.cpp): by size (the default), or always/never where it has
// more than one chunk -- for tests and A/B measurements; every choice gives the same bits.
enum class ConvSplit { automatic, always, never };
void set_conv_split(ConvSplit policy);
bool window(const OpCall& call, Inputs in, const TensorType& out, BufferPtr& result);  // window_reduce,
                                                                                       // window_scatter
bool linalg(const OpCall& call, Inputs in, const TensorType& out, BufferPtr& result);  // cholesky,
                                                                                       // triangular_solve, lu,
                                                                                       // qr, eigh

// ---- shared between families ---------------------------------------------------------------------------------
// movement.cpp: a contiguous copy of the `shape` elements of `src` read at offset + sum(index * strides) (strides
// in elements, any sign, 0 to broadcast): materialises a view for kernels that need plain layouts.
BufferPtr materialize(const BufferPtr& src, DType dtype, const Shape& shape, const Shape& strides,
                      std::int64_t offset = 0);
// copy_many.cpp: the first `bytes` of each `src` copied to the start of its `dst`, up to 8 copies per dispatch
// (fewer commands than one transfer per buffer where many small buffers move at once: a compiled call's inputs
// and outputs).
struct BufferCopy {
  BufferPtr src, dst;
  std::size_t bytes = 0;
};
void copy_buffers(std::span<const BufferCopy> copies);
inline constexpr std::size_t kCopiesPerDispatch = 8;  // copy_buffers' pairs per dispatch of copy_many.comp
// reduce.cpp: the sums over the leading axis of `parts` contiguous partial results [parts, count] of out.dtype
// (count = out's elements), in reduce.comp's order, into a new buffer of `out` (dot's split contractions).
BufferPtr sum_leading_axis(const BufferPtr& partials, std::int64_t parts, const TensorType& out);
// movement.cpp: elements [0, count) of `dst` set to one element's bits (see element_bits).
void fill(const BufferPtr& dst, DType dtype, std::uint64_t count, std::uint64_t bits);
// creation.cpp: `value` converted to `dtype` by the cast rule (reference/dtype_dispatch.hpp's convert and
// to_pred), as the little-endian bits of one element.
std::uint64_t element_bits(double value, DType dtype);
// sort.cpp: the stable sort of `lines` contiguous lines of `n` elements of `src` (order of include/nxv/indexing.hpp):
// the sorted values and the s64 positions they came from, both [lines, n].
struct SortedLines {
  BufferPtr values, positions;
};
SortedLines sort_lines(const BufferPtr& src, DType dtype, std::int64_t lines, std::int64_t n, bool descending);

}  // namespace nxv::vulkan::kernels
