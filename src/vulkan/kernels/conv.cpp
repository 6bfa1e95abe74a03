// OpCode::conv (shaders/conv.comp): an implicit GEMM per feature or batch group, register-blocked, in the
// canonical layouts the front end guarantees. Grid (column blocks of 64 * RN, row blocks of RM output channels,
// groups); RM = the channels per group up to 8 (no empty rows for LeNet's 6), RN = 4 columns unless there are
// at most 64. A conv with more than one chunk of terms (include/nxv/conv.hpp's order) is split: one workgroup
// per (block, chunk) writes the chunk sums, and conv_combine.comp adds them in order -- the same result with
// chunks times the parallelism (the kernel gradients' few outputs with long contractions need it).
#include <algorithm>
#include <atomic>
#include <cstdlib>

#include "nxv/conv.hpp"
#include "vulkan/backend.hpp"
#include "vulkan/kernels/kernels.hpp"
#include "vulkan/kernels/layout.hpp"

namespace nxv::vulkan::kernels {
namespace {

constexpr std::int64_t kLanes = 64;          // conv.comp's local_size_x
constexpr std::int64_t kMaxGroups = 65535;   // the guaranteed minimum of maxComputeWorkGroupCount[1], [2]

struct ConvPush {
  std::uint32_t batch_out, channels, out_channels, group_rows, in_per_group, group_channel_step, group_batch_step;
  std::uint32_t in_size[3], kernel[3], out_size[3], stride[3];
  std::int32_t low[3];
  std::uint32_t in_dilation[3], kernel_dilation[3];
};
static_assert(sizeof(ConvPush) <= 128, "conv.comp's push constants must fit the guaranteed 128 bytes");

struct CombinePush {
  std::uint32_t outputs, chunks;
};

// Below this many invocations a conv leaves most of a large GPU idle (an H200 keeps ~270k resident), so a split
// conv also narrows its register blocks.
constexpr std::int64_t kFewInvocations = 32768;
constexpr double kMaxPartialBytes = 256.0 * 1024 * 1024;

std::atomic<ConvSplit> g_split{ConvSplit::automatic};

bool fits_i32(std::int64_t v) { return v >= -0x7fffffffLL && v <= 0x7fffffffLL; }

}  // namespace

void set_conv_split(ConvSplit policy) { g_split = policy; }

bool conv(const OpCall& call, Inputs in, const TensorType& out, BufferPtr& result) {
  const Tensor& x = in[0];
  const Tensor& w = in[1];
  const OpAttrs& a = call.attrs;
  if (!is_float(out.dtype) || x.dtype() != out.dtype || w.dtype() != out.dtype) return false;
  if (!fits_u32(x.size()) || !fits_u32(w.size()) || !fits_u32(num_elements(out.shape))) return false;
  const int spatial = x.rank() - 2, shift = 3 - spatial;
  if (spatial < 1 || spatial > 3) return false;

  ConvPush push{};
  const std::int64_t groups = std::max(a.feature_groups, a.batch_groups);
  push.batch_out = static_cast<std::uint32_t>(out.shape[0]);
  push.channels = static_cast<std::uint32_t>(x.dim(1));
  push.out_channels = static_cast<std::uint32_t>(w.dim(0));
  push.group_rows = static_cast<std::uint32_t>(w.dim(0) / groups);
  push.in_per_group = static_cast<std::uint32_t>(w.dim(1));
  push.group_channel_step = a.feature_groups > 1 ? push.in_per_group : 0;
  push.group_batch_step = a.batch_groups > 1 ? push.batch_out : 0;
  std::int64_t out_spatial = 1;
  for (int d = 0; d < 3; ++d) {
    const int s = d - shift;
    push.in_size[d] = static_cast<std::uint32_t>(s < 0 ? 1 : x.dim(s + 2));
    push.kernel[d] = static_cast<std::uint32_t>(s < 0 ? 1 : w.dim(s + 2));
    push.out_size[d] = static_cast<std::uint32_t>(s < 0 ? 1 : out.shape[s + 2]);
    push.stride[d] = static_cast<std::uint32_t>(s < 0 ? 1 : a.strides[s]);
    push.in_dilation[d] = static_cast<std::uint32_t>(s < 0 ? 1 : a.input_dilation[s]);
    push.kernel_dilation[d] = static_cast<std::uint32_t>(s < 0 ? 1 : a.kernel_dilation[s]);
    const std::int64_t low = s < 0 ? 0 : a.pad_low[s];
    // The shader's int coordinates: the dilated input and every window origin must fit.
    const std::int64_t reach = (push.out_size[d] - 1) * static_cast<std::int64_t>(push.stride[d]) +
                               (push.kernel[d] - 1) * static_cast<std::int64_t>(push.kernel_dilation[d]);
    const std::int64_t dilated = (push.in_size[d] - 1) * static_cast<std::int64_t>(push.in_dilation[d]) + 1;
    if (!fits_i32(low) || !fits_i32(reach + std::abs(low)) || !fits_i32(dilated)) return false;
    push.low[d] = static_cast<std::int32_t>(low);
    out_spatial *= push.out_size[d];
  }
  const std::int64_t columns = out.shape[0] * out_spatial;
  const std::int64_t rows = push.group_rows;
  const std::int64_t terms = static_cast<std::int64_t>(push.in_per_group) * push.kernel[0] * push.kernel[1] *
                             push.kernel[2];
  const std::int64_t chunks = (terms + kConvChunkTerms - 1) / kConvChunkTerms;
  // Register blocks of rm output channels x rn columns. (Smaller blocks for more workgroups where there are few,
  // e.g. the kernel gradients' 150 and 2400 outputs in LeNet, cost lavapipe 1.5-4x more CPU time than two
  // threads win back; splitting by chunks does not add work.)
  std::uint32_t rn = columns <= kLanes ? 1 : 4;
  auto rm = static_cast<std::uint32_t>(std::clamp<std::int64_t>(rows, 1, 8));
  const auto col_groups = [&] { return (columns + kLanes * rn - 1) / (kLanes * rn); };
  const auto row_groups = [&] { return (rows + rm - 1) / rm; };
  // Split wherever there is more than one chunk: unsplit (each invocation folding its chunks, with a second set
  // of RM x RN accumulators) a 64 -> 64 3x3 layer ran 3x slower forward on the H200 (2.1 against 6.1 TFLOP/s
  // before chunking), while the split's partials cost one more pass over chunks x the output. Partials past
  // kMaxPartialBytes stay unsplit.
  const ConvSplit policy = g_split;
  const std::int64_t outputs = num_elements(out.shape);
  const bool partials_fit = static_cast<double>(outputs) * static_cast<double>(chunks) *
                                static_cast<double>(size_of(out.dtype)) <= static_cast<double>(kMaxPartialBytes);
  const bool split = policy != ConvSplit::never && (policy == ConvSplit::always || partials_fit) && chunks > 1 &&
                     groups * chunks <= kMaxGroups && fits_u32(outputs * chunks);
  const bool few = col_groups() * row_groups() * groups * kLanes < kFewInvocations;
  if (split && few) {
    // Few outputs (kernel gradients): narrower blocks for more workgroups; the chunks supply the rest.
    rn = 1;
    while (rm > 1 && col_groups() * row_groups() * groups * chunks < kFewInvocations / kLanes) rm /= 2;
  }
  // Few invocations wait on load latency: issue the loads of several terms at once (about 32 registers' worth).
  const auto kb = static_cast<std::uint32_t>(few ? std::clamp<std::int64_t>(32 / (rm + rn), 1, 8) : 1);
  if (col_groups() > runtime().features().max_workgroup_count_x || row_groups() > kMaxGroups || groups > kMaxGroups)
    return false;

  result = allocate(out);
  if (outputs == 0) return true;
  static PipelineCache cache;
  const std::int32_t spec[] = {static_cast<std::int32_t>(rm), static_cast<std::int32_t>(rn),
                               static_cast<std::int32_t>(kConvChunkTerms), split ? 1 : 0,
                               static_cast<std::int32_t>(kb)};
  const Pipeline* p = cache.get(static_cast<std::uint64_t>(out.dtype) | static_cast<std::uint64_t>(rm) << 8 |
                                    static_cast<std::uint64_t>(rn) << 16 | static_cast<std::uint64_t>(split) << 24 |
                                    static_cast<std::uint64_t>(kb) << 32,
                                [&] { return std::string("conv_") + variant_name(out.dtype); }, spec);
  const auto z = static_cast<std::uint32_t>(split ? groups * chunks : groups);
  if (!split) {
    runtime().dispatch(p, {{&buffer_of(x), false}, {&buffer_of(w), false}, {&result, true}}, push_bytes(push),
                       static_cast<std::uint32_t>(col_groups()), static_cast<std::uint32_t>(row_groups()), z);
    return true;
  }
  const BufferPtr partials =
      runtime().allocate(static_cast<std::size_t>(outputs * chunks) * size_of(out.dtype));
  runtime().dispatch(p, {{&buffer_of(x), false}, {&buffer_of(w), false}, {&partials, true}}, push_bytes(push),
                     static_cast<std::uint32_t>(col_groups()), static_cast<std::uint32_t>(row_groups()), z);
  static PipelineCache combine_cache;
  const Pipeline* combine = combine_cache.get(static_cast<std::uint64_t>(out.dtype), [&] {
    return std::string("conv_combine_") + variant_name(out.dtype);
  }, {});
  const CombinePush combine_push{static_cast<std::uint32_t>(outputs), static_cast<std::uint32_t>(chunks)};
  const Grid g = grid_for_items(static_cast<std::uint64_t>(outputs));
  runtime().dispatch(combine, {{&partials, false}, {&result, true}}, push_bytes(combine_push), g.x, g.y);
  return true;
}

}  // namespace nxv::vulkan::kernels
