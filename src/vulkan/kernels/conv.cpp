// OpCode::conv (src/vulkan/kernels/conv.comp): an implicit GEMM per feature or batch group, register-blocked, in the
// canonical layouts the front end guarantees. Grid (column blocks of 64 * RN, row blocks of RM output channels,
// groups); RM = the channels per group up to 8 (no empty rows for LeNet's 6), RN = 4 columns unless there are
// at most 64. A conv with more than one chunk of terms (include/nxv/conv.hpp's order) is split: one workgroup
// per (block, chunk) writes the chunk sums, and conv_combine.comp adds them in order -- the same result with
// chunks times the parallelism (the kernel gradients' few outputs with long contractions need it).
#include <algorithm>
#include <array>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <vector>

#include "nxv/conv.hpp"
#include "vulkan/kernels/conv.hpp"
#include "vulkan/kernels/kernels.hpp"
#include "vulkan/kernels/layout.hpp"
#include "vulkan/runtime/runtime_shaders.hpp"
#include "vulkan/runtime/storage.hpp"

namespace nxv::vulkan::kernels {
namespace {

constexpr std::int64_t kLanes = 64;         // conv.comp's local_size_x
constexpr std::int64_t kMaxGroups = 65535;  // the guaranteed minimum of maxComputeWorkGroupCount[1], [2]

struct ConvPush {
  std::uint32_t batch_out, channels, out_channels, group_rows, in_per_group, group_channel_step, group_batch_step;
  std::uint32_t in_size[3], kernel[3], out_size[3], stride[3];
  std::int32_t low[3];
  std::uint32_t dilation[3];  // input dilation | kernel dilation << 16
};
static_assert(sizeof(ConvPush) == 4 * kConvPushWords, "conv.hpp's kConvPushWords is conv.comp's push block");

struct CombinePush {
  std::uint32_t outputs, chunks;
};

// Below this many invocations a conv leaves most of a large GPU idle (an H200 keeps ~270k resident), so a split
// conv also narrows its register blocks.
constexpr std::int64_t kFewInvocations = 32768;
constexpr double kMaxPartialBytes = 256.0 * 1024 * 1024;

std::atomic<ConvSplit> g_split{ConvSplit::automatic};

bool fits_i32(std::int64_t v) { return v >= -0x7fffffffLL && v <= 0x7fffffffLL; }

std::int64_t dim(const TensorType& t, int axis) { return t.shape[axis]; }

// A conv call's push block, specialization and grid as conv() dispatches it; nullopt when the kernel does not
// take the call.
struct Plan {
  ConvPush push{};
  std::array<std::int32_t, 7> spec{};  // RM, RN, CHUNK, SPLIT, KB, DILATED, FAST
  std::array<std::uint32_t, 3> groups{};
  bool split = false;
  std::int64_t chunks = 1, outputs = 0;
};

std::optional<Plan> plan_conv(const OpCall& call, const TensorType& x, const TensorType& w, const TensorType& out) {
  const ConvAttrs& a = call.attrs_as<ConvAttrs>();
  if (!is_float(out.dtype) || x.dtype != out.dtype || w.dtype != out.dtype) return std::nullopt;
  if (!fits_u32(num_elements(x.shape)) || !fits_u32(num_elements(w.shape)) || !fits_u32(num_elements(out.shape)))
    return std::nullopt;
  const int spatial = x.shape.size() - 2, shift = 3 - spatial;
  if (spatial < 1 || spatial > 3) return std::nullopt;

  ConvPush push{};
  const std::int64_t groups = std::max(a.feature_groups, a.batch_groups);
  push.batch_out = static_cast<std::uint32_t>(out.shape[0]);
  push.channels = static_cast<std::uint32_t>(dim(x, 1));
  push.out_channels = static_cast<std::uint32_t>(dim(w, 0));
  push.group_rows = static_cast<std::uint32_t>(dim(w, 0) / groups);
  push.in_per_group = static_cast<std::uint32_t>(dim(w, 1));
  push.group_channel_step = a.feature_groups > 1 ? push.in_per_group : 0;
  push.group_batch_step = a.batch_groups > 1 ? push.batch_out : 0;
  std::int64_t out_spatial = 1;
  for (int d = 0; d < 3; ++d) {
    const int s = d - shift;
    push.in_size[d] = static_cast<std::uint32_t>(s < 0 ? 1 : dim(x, s + 2));
    push.kernel[d] = static_cast<std::uint32_t>(s < 0 ? 1 : dim(w, s + 2));
    push.out_size[d] = static_cast<std::uint32_t>(s < 0 ? 1 : out.shape[s + 2]);
    push.stride[d] = static_cast<std::uint32_t>(s < 0 ? 1 : a.strides[s]);
    const std::int64_t in_dilation = s < 0 ? 1 : a.input_dilation[s],
                       kernel_dilation = s < 0 ? 1 : a.kernel_dilation[s];
    if (in_dilation > 0xffff || kernel_dilation > 0xffff) return std::nullopt;  // (packed in 16 bits each)
    push.dilation[d] = static_cast<std::uint32_t>(in_dilation | kernel_dilation << 16);
    const std::int64_t low = s < 0 ? 0 : a.pad_low[s];
    // The shader's int coordinates: the dilated input and every window origin must fit.
    const std::int64_t reach =
        (push.out_size[d] - 1) * static_cast<std::int64_t>(push.stride[d]) + (push.kernel[d] - 1) * kernel_dilation;
    const std::int64_t dilated = (push.in_size[d] - 1) * in_dilation + 1;
    if (!fits_i32(low) || !fits_i32(reach + std::abs(low)) || !fits_i32(dilated)) return std::nullopt;
    push.low[d] = static_cast<std::int32_t>(low);
    out_spatial *= push.out_size[d];
  }
  const std::int64_t columns = out.shape[0] * out_spatial;
  const std::int64_t rows = push.group_rows;
  const std::int64_t terms =
      static_cast<std::int64_t>(push.in_per_group) * push.kernel[0] * push.kernel[1] * push.kernel[2];
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
  const bool partials_fit =
      static_cast<double>(outputs) * static_cast<double>(chunks) * static_cast<double>(size_of(out.dtype)) <=
      static_cast<double>(kMaxPartialBytes);
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
    return std::nullopt;
  bool dilated = false;  // any input or kernel dilation other than 1
  for (std::uint32_t packed : push.dilation) dilated = dilated || packed != (1u | 1u << 16);
  Plan plan;
  plan.push = push;
  plan.spec = {static_cast<std::int32_t>(rm),
               static_cast<std::int32_t>(rn),
               static_cast<std::int32_t>(kConvChunkTerms),
               split ? 1 : 0,
               static_cast<std::int32_t>(kb),
               dilated ? 1 : 0,
               a.precision == Precision::fast ? 1 : 0};
  plan.groups = {static_cast<std::uint32_t>(col_groups()), static_cast<std::uint32_t>(row_groups()),
                 static_cast<std::uint32_t>(split ? groups * chunks : groups)};
  plan.split = split;
  plan.chunks = chunks;
  plan.outputs = outputs;
  return plan;
}

}  // namespace

void set_conv_split(ConvSplit policy) { g_split = policy; }

bool runs_unsplit_conv(const OpCall& call, const TensorType& x, const TensorType& w, const TensorType& out) {
  if (!available()) return false;
  const auto plan = plan_conv(call, x, w, out);
  return plan && !plan->split && plan->outputs > 0;
}

ConvLaunch unsplit_conv_launch(const OpCall& call, const TensorType& x, const TensorType& w, const TensorType& out) {
  const auto plan = plan_conv(call, x, w, out);
  if (!plan || plan->split) detail::fail(describe(call), "does not run the unsplit conv kernel");
  ConvLaunch l;
  l.specialization = plan->spec;
  std::memcpy(l.push.data(), &plan->push, sizeof(ConvPush));
  l.groups = plan->groups;
  return l;
}

void dispatch_conv(const Pipeline* pipeline, const ConvLaunch& l, const BufferPtr& x, const BufferPtr& w,
                   const BufferPtr& result, std::span<const Binding> extra, std::span<const std::uint32_t> extra_push) {
  std::vector<Binding> bindings{{&x, false}, {&w, false}, {&result, true}};
  bindings.insert(bindings.end(), extra.begin(), extra.end());
  std::vector<std::uint32_t> push(l.push.begin(), l.push.end());
  push.insert(push.end(), extra_push.begin(), extra_push.end());
  dispatch_bindings(runtime(), pipeline, bindings, std::as_bytes(std::span(push)), l.groups[0], l.groups[1],
                    l.groups[2]);
}

bool conv(const OpCall& call, Inputs in, const TensorType& out, BufferPtr& result) {
  const Tensor& x = in[0];
  const Tensor& w = in[1];
  const auto plan = plan_conv(call, x.type(), w.type(), out);
  if (!plan) return false;
  const ConvPush& push = plan->push;
  const std::int64_t outputs = plan->outputs, chunks = plan->chunks;
  const bool split = plan->split;
  const std::uint32_t rm = static_cast<std::uint32_t>(plan->spec[0]), rn = static_cast<std::uint32_t>(plan->spec[1]),
                      kb = static_cast<std::uint32_t>(plan->spec[4]),
                      dilated = static_cast<std::uint32_t>(plan->spec[5]),
                      fast = static_cast<std::uint32_t>(plan->spec[6]);
  result = allocate(out);
  if (outputs == 0) return true;
  static PipelineCache cache;
  const std::span<const std::int32_t> spec(plan->spec);
  const Pipeline* p = cache.get(
      static_cast<std::uint64_t>(out.dtype) | static_cast<std::uint64_t>(rm) << 8 |
          static_cast<std::uint64_t>(rn) << 16 | static_cast<std::uint64_t>(split) << 24 |
          static_cast<std::uint64_t>(kb) << 32 | static_cast<std::uint64_t>(dilated) << 40 |
          static_cast<std::uint64_t>(fast) << 41,
      [&] { return std::string("conv_") + variant_name(out.dtype); }, spec);
  const auto [gx, gy, z] = plan->groups;
  // Split: the chunk sums go to partials [chunks, outputs], which the combine pass adds into the result.
  const BufferPtr target =
      split ? runtime().allocate(static_cast<std::size_t>(outputs * chunks) * size_of(out.dtype)) : result;
  runtime().dispatch(p, {{&buffer_of(x), false}, {&buffer_of(w), false}, {&target, true}}, push_bytes(push), gx, gy, z);
  if (!split) return true;
  static PipelineCache combine_cache;
  const Pipeline* combine =
      combine_cache.get(static_cast<std::uint64_t>(out.dtype),
                        [&] { return std::string("conv_combine_") + variant_name(out.dtype); }, {});
  const CombinePush combine_push{static_cast<std::uint32_t>(outputs), static_cast<std::uint32_t>(chunks)};
  const Grid g = grid_for_items(static_cast<std::uint64_t>(outputs));
  runtime().dispatch(combine, {{&target, false}, {&result, true}}, push_bytes(combine_push), g.x, g.y);
  return true;
}

}  // namespace nxv::vulkan::kernels
