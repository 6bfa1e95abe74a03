// Movement ops as byte moves (src/vulkan/kernels/copy.comp, fill.comp): each is one strided copy over an index space of
// rank <= 8 -- transpose permutes the input strides, broadcast zeroes them, slice scales them by the step and
// starts at an offset, reverse negates them -- or a fill plus a copy (pad), or one copy per input (concatenate).
#include <array>

#include "vulkan/kernels/kernels.hpp"
#include "vulkan/kernels/layout.hpp"
#include "vulkan/runtime/storage.hpp"

namespace nxv::vulkan::kernels {
namespace {

struct CopyPush {
  std::uint32_t count, rank, in_offset, out_offset;
  std::uint32_t shape[8];
  std::int32_t in_stride[8], out_stride[8];
};

struct FillPush {
  std::uint32_t count, low, high;
};

// `contiguous` selects copy.comp's CONTIGUOUS fast path (a specialization constant).
const Pipeline* byte_pipeline(const char* family, std::size_t bytes, bool contiguous = false) {
  static PipelineCache cache;
  const std::uint64_t key = (family[0] == 'c' ? 0 : 16) + (contiguous ? 32 : 0) + bytes;
  const std::int32_t spec[] = {1};
  return cache.get(
      key, [&] { return std::string(family) + "_" + std::to_string(bytes); },
      contiguous ? std::span<const std::int32_t>(spec) : std::span<const std::int32_t>());
}

// Offsets and strides are stored modulo 2^32: the shader's int arithmetic wraps alike, and every address it
// finally forms is in range, so large buffers (more than 2^31 bytes) still copy right.
void strided_copy(const BufferPtr& src, const BufferPtr& dst, DType dtype, Shape shape, Shape in_strides,
                  Shape out_strides, std::int64_t in_offset, std::int64_t out_offset) {
  CopyPush push{};
  push.count = static_cast<std::uint32_t>(num_elements(shape));
  if (push.count == 0) return;
  std::array<Shape, 2> strides{in_strides, out_strides};
  collapse(shape, strides);
  push.rank = static_cast<std::uint32_t>(shape.size());
  push.in_offset = static_cast<std::uint32_t>(in_offset);
  push.out_offset = static_cast<std::uint32_t>(out_offset);
  for (int d = 0; d < shape.size(); ++d) {
    push.shape[d] = static_cast<std::uint32_t>(shape[d]);
    push.in_stride[d] = static_cast<std::int32_t>(strides[0][d]);
    push.out_stride[d] = static_cast<std::int32_t>(strides[1][d]);
  }
  // A plain run whose both ends are 16-byte aligned (a full or leading slice, a materialised contiguous view,
  // a concatenation part, ...) moves 16 bytes per invocation: one uvec4 per invocation, then the tail elements.
  const std::size_t bytes = size_of(dtype);
  const std::int64_t per = 16 / static_cast<std::int64_t>(bytes);
  const bool contiguous =
      shape.size() == 1 && strides[0][0] == 1 && strides[1][0] == 1 && in_offset % per == 0 && out_offset % per == 0;
  const std::uint64_t items = contiguous ? push.count / per + push.count % per : push.count;
  const Grid g = grid_for_items(items);
  runtime().dispatch(byte_pipeline("copy", bytes, contiguous), {{&src, false}, {&dst, true}}, push_bytes(push), g.x,
                     g.y);
}

void copy_concatenated(Inputs in, int axis, const TensorType& out, const BufferPtr& dst) {
  const Shape out_strides = row_major(out.shape);
  std::int64_t position = 0;
  for (const Tensor& x : in) {
    strided_copy(buffer_of(x), dst, out.dtype, x.shape(), row_major(x.shape()), out_strides, 0,
                 position * out_strides[axis]);
    position += x.shape()[axis];
  }
}

// Input element i of an axis lands at low + i * (interior + 1); negative low/high cut elements off.
void copy_padded(const PadAttrs& attrs, const Tensor& x, const TensorType& out, const BufferPtr& dst) {
  fill(dst, out.dtype, static_cast<std::uint64_t>(num_elements(out.shape)), element_bits(attrs.value, out.dtype));
  const Shape in_strides = row_major(x.shape());
  const Shape out_row = row_major(out.shape);
  Shape shape, out_strides;
  std::int64_t in_offset = 0, out_offset = 0;
  for (int d = 0; d < x.rank(); ++d) {
    const std::int64_t low = attrs.low[d], step = attrs.interior[d] + 1, n = x.shape()[d];
    const std::int64_t first = low >= 0 ? 0 : (-low + step - 1) / step;
    const std::int64_t room = out.shape[d] - 1 - low;  // the last output position an input element may take, - low
    const std::int64_t last = room < 0 ? -1 : std::min(n - 1, room / step);
    if (last < first) return;  // nothing of the input survives: the fill is the result
    shape.push_back(last - first + 1);
    out_strides.push_back(out_row[d] * step);
    in_offset += first * in_strides[d];
    out_offset += (low + first * step) * out_row[d];
  }
  strided_copy(buffer_of(x), dst, out.dtype, shape, in_strides, out_strides, in_offset, out_offset);
}

}  // namespace

BufferPtr materialize(const BufferPtr& src, DType dtype, const Shape& shape, const Shape& strides,
                      std::int64_t offset) {
  BufferPtr dst = allocate({shape, dtype});
  strided_copy(src, dst, dtype, shape, strides, row_major(shape), offset, 0);
  return dst;
}

void fill(const BufferPtr& dst, DType dtype, std::uint64_t count, std::uint64_t bits) {
  if (count == 0) return;
  const FillPush push{static_cast<std::uint32_t>(count), static_cast<std::uint32_t>(bits),
                      static_cast<std::uint32_t>(bits >> 32)};
  const Grid g = grid_for_items(count);
  runtime().dispatch(byte_pipeline("fill", size_of(dtype)), {{&dst, true}}, push_bytes(push), g.x, g.y);
}

bool movement(const OpCall& call, Inputs in, const TensorType& out, BufferPtr& result) {
  if (!fits_u32(num_elements(out.shape))) return false;
  for (const Tensor& x : in)
    if (!fits_u32(x.size()) || x.dtype() != out.dtype) return false;
  const Tensor& x = in[0];
  const Shape strides = row_major(x.shape());
  Shape in_strides;
  std::int64_t offset = 0;
  switch (call.code) {
    case OpCode::transpose: {
      const Axes& permutation = call.attrs_as<TransposeAttrs>().permutation;
      for (int i = 0; i < out.shape.size(); ++i) in_strides.push_back(strides[static_cast<int>(permutation[i])]);
      break;
    }
    case OpCode::broadcast: {
      const Axes& axes = call.attrs_as<BroadcastAttrs>().axes;
      in_strides = Shape::filled(out.shape.size(), 0);
      for (int i = 0; i < x.rank(); ++i)
        if (x.shape()[i] != 1) in_strides[static_cast<int>(axes[i])] = strides[i];
      break;
    }
    case OpCode::slice: {
      const SliceAttrs& attrs = call.attrs_as<SliceAttrs>();
      for (int i = 0; i < x.rank(); ++i) {
        in_strides.push_back(strides[i] * (attrs.strides.empty() ? 1 : attrs.strides[i]));
        offset += attrs.starts[i] * strides[i];
      }
      break;
    }
    case OpCode::reverse:
      in_strides = strides;
      for (std::int64_t a : call.attrs_as<ReverseAttrs>().axes) {
        const int axis = static_cast<int>(a);
        in_strides[axis] = -strides[axis];
        if (x.shape()[axis] > 0) offset += (x.shape()[axis] - 1) * strides[axis];
      }
      break;
    case OpCode::concatenate:
      result = allocate(out);
      copy_concatenated(in, static_cast<int>(call.attrs_as<AxisAttrs>().axis), out, result);
      return true;
    case OpCode::pad:
      result = allocate(out);
      copy_padded(call.attrs_as<PadAttrs>(), x, out, result);
      return true;
    default:
      return false;
  }
  result = allocate(out);
  strided_copy(buffer_of(x), result, out.dtype, out.shape, in_strides, row_major(out.shape), offset, 0);
  return true;
}

}  // namespace nxv::vulkan::kernels
