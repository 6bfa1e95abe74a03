// OpCode::reduce and OpCode::arg_reduce (src/vulkan/kernels/reduce.comp, arg_reduce.comp).
//
// reduce: the kept and the reduced axes are each collapsed into groups of neighbouring axes read through strides;
// at rank <= 8, with size-1 axes dropped, they alternate at most 4 times each (reduce.comp's push constants). One
// workgroup per (output, chunk of 16384 reduced elements); when there is more than one chunk the partials, [outputs,
// chunks] in the output dtype (f32 for f16 and bf16, which accumulate in f32), are reduced again by the same shader
// until one chunk remains -- the order reference/reduce.cpp defines. A contiguous reduced run (see vectorisable())
// takes the reduce_vec4_* variant: same lanes and order, vector loads. Rows of at most kShortRow elements take the
// scalar variant's SHORT path: one invocation per output, the same tree in registers.
#include <algorithm>
#include <map>
#include <mutex>
#include <string>
#include <utility>

#include "vulkan/kernels/kernels.hpp"
#include "vulkan/kernels/layout.hpp"
#include "vulkan/runtime/capabilities.hpp"
#include "vulkan/runtime/storage.hpp"

namespace nxv::vulkan::kernels {
namespace {

constexpr std::uint64_t kChunk = 256 * 64;  // reduced elements per workgroup (reduce.comp's CHUNK)
constexpr std::int64_t kShortRow = 32;      // reduce.comp's SHORT_ROW (its invocations: layout.hpp's kGroupSize)
static_assert(kMaxRank <= 8, "reduce.comp holds 4 kept and 4 reduced axis groups");

struct AxisGroups {
  Shape shape, strides;
};

struct ReducePush {
  std::uint32_t outputs, reduced, chunks, kept_rank, reduced_rank;
  std::uint32_t kept_shape[4], kept_stride[4], reduced_shape[4], reduced_stride[4];
};

// Splits a contiguous tensor's non-unit axes into kept and reduced groups, merging neighbours of one kind.
void split_axes(const Shape& shape, const Axes& axes, AxisGroups& kept, AxisGroups& reduced) {
  const Shape strides = row_major(shape);
  int previous = -1;  // the kind of the previous non-unit axis: 0 kept, 1 reduced
  for (int d = 0; d < shape.size(); ++d) {
    if (shape[d] == 1) continue;
    const int kind = axes.contains(d) ? 1 : 0;
    AxisGroups& g = kind == 1 ? reduced : kept;
    if (kind == previous) {
      g.shape.back() *= shape[d];
      g.strides.back() = strides[d];
    } else {
      g.shape.push_back(shape[d]);
      g.strides.push_back(strides[d]);
    }
    previous = kind;
  }
}

void fill_groups(std::uint32_t (&shape)[4], std::uint32_t (&stride)[4], std::uint32_t& rank, const AxisGroups& g) {
  rank = static_cast<std::uint32_t>(g.shape.size());
  for (int i = 0; i < g.shape.size(); ++i) {
    shape[i] = static_cast<std::uint32_t>(g.shape[i]);
    stride[i] = static_cast<std::uint32_t>(g.strides[i]);
  }
}

// Whether reduce.comp's VEC4 fast path applies: one contiguous reduced run whose length and every kept stride
// are multiples of 4, so that each lane's quadruple of elements is one aligned vector load (the same lanes,
// order and tree as the scalar path).
bool vectorisable(const AxisGroups& kept, const AxisGroups& reduced) {
  if (reduced.shape.size() != 1 || reduced.strides[0] != 1 || reduced.shape[0] % 4 != 0) return false;
  return std::all_of(kept.strides.begin(), kept.strides.end(), [](std::int64_t s) { return s % 4 == 0; });
}

// Reduces `src` (of `src_dtype`; `length` elements of each of `outputs` rows, laid out as `kept` and `reduced`) into a
// new buffer of `out`, chunk by chunk and then over the partials, in reference/reduce.cpp's order.
BufferPtr reduce_groups(BufferPtr src, DType src_dtype, ReduceFn fn, AxisGroups kept, AxisGroups reduced,
                        std::int64_t outputs, std::int64_t length, const TensorType& out) {
  const bool logical = fn == ReduceFn::all || fn == ReduceFn::any;
  // f16 and bf16 accumulate in f32 (as the reference does): their partials are f32, from reduce_<t>_to_f32, and the
  // last pass's f32 result is rounded once by the cast kernel.
  const DType partial_dtype = !logical && is_half_float(out.dtype) ? DType::f32 : out.dtype;
  static PipelineCache cache;
  for (;;) {
    const std::uint64_t chunks = std::max<std::uint64_t>(1, (static_cast<std::uint64_t>(length) + kChunk - 1) / kChunk);
    const bool short_rows = length <= kShortRow;
    const DType pass_dtype = chunks == 1 && src_dtype == out.dtype ? out.dtype : partial_dtype;
    const bool widening = !logical && pass_dtype != src_dtype;  // a 16-bit float's first pass into f32 partials
    const std::int32_t spec[] = {static_cast<std::int32_t>(fn), src_dtype == DType::pred ? 1 : 255, short_rows};
    const bool vec4 = !logical && !short_rows && vectorisable(kept, reduced);
    const auto key = static_cast<std::uint64_t>(src_dtype) | static_cast<std::uint64_t>(fn) << 8 |
                     static_cast<std::uint64_t>(vec4) << 16 | static_cast<std::uint64_t>(short_rows) << 17 |
                     static_cast<std::uint64_t>(widening) << 18;
    const Pipeline* p = cache.get(
        key,
        [&] {
          return std::string(logical ? "reduce_bool_"
                             : vec4  ? "reduce_vec4_"
                                     : "reduce_") +
                 variant_name(src_dtype) + (widening ? "_to_f32" : "");
        },
        spec);
    BufferPtr dst = chunks == 1 && pass_dtype == out.dtype
                        ? allocate(out)
                        : runtime().allocate(static_cast<std::size_t>(outputs) * chunks * size_of(pass_dtype));
    if (outputs == 0) return chunks == 1 && pass_dtype == out.dtype ? dst : allocate(out);
    ReducePush push{};
    push.outputs = static_cast<std::uint32_t>(outputs);
    push.reduced = static_cast<std::uint32_t>(length);
    push.chunks = static_cast<std::uint32_t>(chunks);
    fill_groups(push.kept_shape, push.kept_stride, push.kept_rank, kept);
    fill_groups(push.reduced_shape, push.reduced_stride, push.reduced_rank, reduced);
    const Grid g = short_rows ? grid_for_items(static_cast<std::uint64_t>(outputs))
                              : grid_for_groups(static_cast<std::uint64_t>(outputs) * chunks);
    runtime().dispatch(p, {{&src, false}, {&dst, true}}, push_bytes(push), g.x, g.y);
    if (chunks == 1)
      return pass_dtype == out.dtype ? dst
                                     : cast_buffer(dst, pass_dtype, out.dtype, static_cast<std::uint32_t>(outputs));
    // Partials [outputs, chunks] in the output dtype (f32 for f16 and bf16), reduced again along their last axis.
    src = dst;
    src_dtype = pass_dtype;
    length = static_cast<std::int64_t>(chunks);
    kept = {{outputs}, {length}};
    reduced = {{length}, {1}};
  }
}

bool run_reduce(const OpCall& call, const Tensor& x, const TensorType& out, BufferPtr& result) {
  const ReduceAttrs& attrs = call.attrs_as<ReduceAttrs>();
  const bool logical = attrs.fn == ReduceFn::all || attrs.fn == ReduceFn::any;
  if (out.dtype != (logical ? DType::pred : x.dtype())) return false;
  AxisGroups kept, reduced;
  split_axes(x.shape(), attrs.axes, kept, reduced);
  const std::int64_t outputs = num_elements(out.shape);
  const std::int64_t length = outputs == 0 ? 0 : num_elements(x.shape()) / std::max<std::int64_t>(outputs, 1);
  result = reduce_groups(buffer_of(x), x.dtype(), attrs.fn, kept, reduced, outputs, length, out);
  return true;
}

struct ArgPush {
  std::uint32_t outputs, reduced, inner;
};

bool run_arg_reduce(const OpCall& call, const Tensor& x, const TensorType& out, BufferPtr& result) {
  if (out.dtype != DType::s64) return false;
  const ArgReduceAttrs& attrs = call.attrs_as<ArgReduceAttrs>();
  std::int64_t length = x.size(), inner = 1;
  if (attrs.axis) {
    const int axis = static_cast<int>(*attrs.axis);
    length = x.shape()[axis];
    for (int d = axis + 1; d < x.rank(); ++d) inner *= x.shape()[d];
  }
  static PipelineCache cache;
  const std::int32_t spec[] = {static_cast<std::int32_t>(attrs.fn)};
  const auto key = static_cast<std::uint64_t>(x.dtype()) | static_cast<std::uint64_t>(attrs.fn) << 8;
  const Pipeline* p = cache.get(
      key, [&] { return std::string("arg_reduce_") + variant_name(x.dtype()); }, spec);
  result = allocate(out);
  ArgPush push{static_cast<std::uint32_t>(num_elements(out.shape)), static_cast<std::uint32_t>(length),
               static_cast<std::uint32_t>(inner)};
  if (push.outputs == 0) return true;
  const Grid g = grid_for_groups(push.outputs);
  runtime().dispatch(p, {{&buffer_of(x), false}, {&result, true}}, push_bytes(push), g.x, g.y);
  return true;
}

}  // namespace

BufferPtr sum_leading_axis(const BufferPtr& partials, std::int64_t parts, const TensorType& out) {
  const std::int64_t count = num_elements(out.shape);
  AxisGroups kept{{count}, {1}}, reduced{{parts}, {count}};
  return reduce_groups(partials, out.dtype, ReduceFn::sum, kept, reduced, count, parts, out);
}

bool reduce_native(ReduceFn fn, DType dtype) {
  const DeviceFeatures& f = runtime().features();
  if (f.float64 && f.int64 && f.int16 && f.int8_arithmetic && f.storage8 && f.storage16) return true;
  static std::mutex mutex;
  static std::map<std::pair<ReduceFn, DType>, bool> known;
  const std::lock_guard lock(mutex);
  const auto [it, fresh] = known.try_emplace({fn, dtype}, true);
  if (!fresh) return it->second;
  const bool logical = fn == ReduceFn::all || fn == ReduceFn::any;
  // The scalar variant: the vec4 and short forms compute the same functions of the same types.
  const std::int32_t spec[] = {static_cast<std::int32_t>(fn), dtype == DType::pred ? 1 : 255, 0};
  try {
    runtime().pipeline(std::string(logical ? "reduce_bool_" : "reduce_") + variant_name(dtype), spec);
  } catch (const DeviceLacks&) {
    it->second = false;
  }
  return it->second;
}

bool reduce(const OpCall& call, Inputs in, const TensorType& out, BufferPtr& result) {
  if (!fits_u32(in[0].size())) return false;
  if (call.code == OpCode::reduce) return run_reduce(call, in[0], out, result);
  if (call.code == OpCode::arg_reduce) return run_arg_reduce(call, in[0], out, result);
  return false;
}

}  // namespace nxv::vulkan::kernels
