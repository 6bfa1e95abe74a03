// OpCode::dot (src/vulkan/kernels/dot.comp): each operand is read as a batch of matrices through three strides --
// batch, free (M or N) and contracting (K) -- so every orientation of 2-D operands and batched operands runs in one
// dispatch. Only an operand whose batch, free or contracting axes cannot be walked with one stride each (in the
// order the result and contract_a/contract_b prescribe) is first materialised by a transposing copy.
// Three shader variants compute the same bits (dot.hpp): `tiled` (dot.comp, every dtype) and the register-blocked
// `mid` and `big` (dot_blocked.comp, f32/f64); the grid is (N tiles, M tiles, batches) of the variant's tile.
#include "vulkan/kernels/dot.hpp"

#include <atomic>
#include <cmath>
#include <cstdlib>
#include <optional>
#include <vector>

#include "core/settings.hpp"
#include "vulkan/kernels/kernels.hpp"
#include "vulkan/kernels/layout.hpp"
#include "vulkan/runtime/runtime_shaders.hpp"
#include "vulkan/runtime/storage.hpp"

namespace nxv::vulkan::kernels {
namespace {

constexpr std::int64_t kMaxGroups = 65535;  // the guaranteed minimum of maxComputeWorkGroupCount[1], [2]

Axes free_axes(int rank, const Axes& contract, const Axes& batch) {
  Axes free;
  for (int axis = 0; axis < rank; ++axis)
    if (!contract.contains(axis) && !batch.contains(axis)) free.push_back(axis);
  return free;
}

std::int64_t extent(const Shape& shape, const Axes& axes) {
  std::int64_t n = 1;
  for (std::int64_t a : axes) n *= shape[static_cast<int>(a)];
  return n;
}

// The one stride that walks `axes` row-major in the given order, or nullopt when they do not collapse.
std::optional<std::int64_t> group_stride(const Shape& shape, const Shape& strides, const Axes& axes) {
  std::optional<std::int64_t> stride;
  for (std::int64_t a : axes) {
    const int axis = static_cast<int>(a);
    if (shape[axis] == 1) continue;
    if (stride && *stride != strides[axis] * shape[axis]) return std::nullopt;
    stride = strides[axis];
  }
  return stride.value_or(0);
}

// An operand as [batch, rows, cols] strides, for the axis groups (batch, rows, cols) in that order.
struct Operand {
  BufferPtr buffer;
  std::uint32_t batch = 0, rows = 0, cols = 0;
};

Operand view(const Tensor& t, const Axes& batch, const Axes& rows, const Axes& cols) {
  const Shape strides = row_major(t.shape());
  const auto sb = group_stride(t.shape(), strides, batch);
  const auto sr = group_stride(t.shape(), strides, rows);
  const auto sc = group_stride(t.shape(), strides, cols);
  if (sb && sr && sc)
    return {buffer_of(t), static_cast<std::uint32_t>(*sb), static_cast<std::uint32_t>(*sr),
            static_cast<std::uint32_t>(*sc)};
  Shape perm_shape, perm_strides;
  for (const Axes* group : {&batch, &rows, &cols})
    for (std::int64_t a : *group) {
      perm_shape.push_back(t.shape()[static_cast<int>(a)]);
      perm_strides.push_back(strides[static_cast<int>(a)]);
    }
  const std::int64_t nr = extent(t.shape(), rows), nc = extent(t.shape(), cols);
  return {materialize(buffer_of(t), t.dtype(), perm_shape, perm_strides), static_cast<std::uint32_t>(nr * nc),
          static_cast<std::uint32_t>(nc), 1};
}

struct Tile {
  std::int64_t m, n;
};

// The tensor kernel's M x N tile (its specialization constants 3 and 4): NXV_TENSOR_TILE where set, else by size.
// On the H100 (bench/RESULTS.md) 128x256 ran f16 GEMM at 109 TFLOP/s at 4096^3 and 135 at 8192^3 against 93 and
// 107 for 128x128; it has half as many workgroups, so a problem of fewer than 256 of its tiles (below ~2900^2) keeps
// 128x128 to fill the device's multiprocessors.
Tile tensor_tile(std::int64_t batches, std::int64_t m, std::int64_t n) {
  static const std::string forced_tile = settings::value(settings::Id::TENSOR_TILE);
  if (forced_tile == "128x256") return {128, 256};
  if (forced_tile == "256x128") return {256, 128};
  if (forced_tile == "128x128") return {128, 128};
  const std::int64_t wide_tiles = batches * ((m + 127) / 128) * ((n + 255) / 256);
  return wide_tiles >= 256 ? Tile{128, 256} : Tile{128, 128};
}

Tile tile_of(DotKernel kernel, DType dtype, std::int64_t batches, std::int64_t m, std::int64_t n) {
  if (kernel == DotKernel::tensor) return tensor_tile(batches, m, n);
  if (kernel != DotKernel::big) return {64, 64};
  return dtype == DType::f64 ? Tile{128, 64} : Tile{128, 128};
}

std::optional<DotKernel> env_dot_kernel() {
  static const std::optional<DotKernel> kernel = []() -> std::optional<DotKernel> {
    const std::string v = settings::value(settings::Id::DOT_KERNEL);
    return v == "auto" ? std::nullopt : parse_dot_kernel(v);
  }();
  return kernel;
}

std::atomic<int> forced{-1};  // force_dot_kernel's choice, -1: none

const Pipeline* tiled_pipeline(DType dtype, std::span<const std::int32_t, 3> spec) {
  static PipelineCache cache;
  const auto key = static_cast<std::uint64_t>(dtype) | static_cast<std::uint64_t>(spec[0]) << 8 |
                   static_cast<std::uint64_t>(spec[1]) << 9 | static_cast<std::uint64_t>(spec[2]) << 11;
  return cache.get(
      key, [&] { return std::string("dot_") + variant_name(dtype); }, spec);
}

const Pipeline* blocked_pipeline(DotKernel kernel, DType dtype, std::span<const std::int32_t, 3> spec) {
  static PipelineCache cache;
  const auto key = static_cast<std::uint64_t>(dtype) | static_cast<std::uint64_t>(spec[0]) << 8 |
                   static_cast<std::uint64_t>(spec[1]) << 9 | static_cast<std::uint64_t>(kernel) << 10 |
                   static_cast<std::uint64_t>(spec[2]) << 12;
  return cache.get(
      key, [&] { return std::string("dot_") + dot_kernel_name(kernel) + "_" + variant_name(dtype); }, spec);
}

const Pipeline* tensor_pipeline(std::span<const std::int32_t, 3> spec, Tile tile) {
  static PipelineCache cache;
  const std::array<std::int32_t, 5> full{spec[0], spec[1], 1, static_cast<std::int32_t>(tile.m),
                                         static_cast<std::int32_t>(tile.n)};
  const auto key = static_cast<std::uint64_t>(spec[0]) | static_cast<std::uint64_t>(spec[1]) << 1 |
                   static_cast<std::uint64_t>(tile.m) << 2 | static_cast<std::uint64_t>(tile.n) << 16;
  return cache.get(
      key, [] { return std::string("dot_tensor_f16"); }, full);
}

}  // namespace

const char* dot_kernel_name(DotKernel kernel) {
  switch (kernel) {
    case DotKernel::tiled:
      return "tiled";
    case DotKernel::mid:
      return "mid";
    case DotKernel::big:
      return "big";
    case DotKernel::tensor:
      return "tensor";
  }
  return "?";
}

std::optional<DotKernel> parse_dot_kernel(std::string_view name) {
  for (DotKernel k : {DotKernel::tiled, DotKernel::mid, DotKernel::big, DotKernel::tensor})
    if (name == dot_kernel_name(k)) return k;
  return std::nullopt;
}

bool tensor_dot_possible(Precision precision, DType dtype) {
  return precision == Precision::fast && dtype == DType::f16 && runtime().features().tensor_cores_f16;
}

DotKernel choose_dot_kernel(Precision precision, DType dtype, std::int64_t batches, std::int64_t m, std::int64_t n,
                            std::int64_t k, bool tensor_cores) {
  // Measured on the H200 (bench/RESULTS.md, `nxv-bench --gemm-only --dot-kernels tiled,mid,big`): f32 mid 29.8
  // TFLOP/s at 4096^3 against tiled 16.8 and big 2.2, mid 14.8 against tiled 9.5 at 1024^3. On the H100 in exact
  // (2026-12-06): mid 23.3 against tiled 17.1 (f32), 20.4 against 17.0 (bf16), 16.7 against 13.8 (f16) at 4096^3,
  // now that dot_blocked.comp's exact steps stay a rounded product and sum (compiled without glslc -O); f64 is
  // ~1.0 TFLOP/s in every variant and mode (within 3%). So both modes take mid where a 64 x 64 tile is filled and
  // the problem is large enough (>= 2^27 multiply-adds, 512^3) for its longer set-up per tile to pay; below,
  // tiled, which the fusion compiler can also give an epilogue (LeNet-sized dots). Every variant is bit-identical
  // to the reference in exact and sums in k order with fmas in fast, so the choice changes speed only.
  // bf16 as f32 (their tiles are f32, their loads half the bytes); f16 the same, except in fast on a device with
  // tensor cores: `tensor` at the same sizes.
  if (!is_float(dtype)) return DotKernel::tiled;
  const double work =
      static_cast<double>(batches) * static_cast<double>(m) * static_cast<double>(n) * static_cast<double>(k);
  if (m < 64 || n < 64 || work < 0x1p27) return DotKernel::tiled;
  return tensor_cores && precision == Precision::fast && dtype == DType::f16 ? DotKernel::tensor : DotKernel::mid;
}

std::int64_t dot_k_splits(Precision precision, DType dtype, std::int64_t batches, std::int64_t m, std::int64_t n,
                          std::int64_t k) {
  // Aimed at ~256 workgroups, at least 256 steps of K per chunk, at most 32 chunks (the reduce kernel's short rows),
  // for problems of fewer than 128 tiles with K >= 1024: the gradient of a likelihood over 10^4 observations for
  // 1024 chains ([1024, 10^4] x [10^4, 100]) is 32 tiles that each walked all 10^4 steps.
  if (precision != Precision::fast || (dtype != DType::f32 && dtype != DType::f64) || batches != 1 || k < 1024)
    return 1;
  const std::int64_t tiles = ((m + 63) / 64) * ((n + 63) / 64);
  if (tiles >= 128) return 1;
  const std::int64_t splits = std::min<std::int64_t>({(256 + tiles - 1) / tiles, k / 256, 32});
  return std::max<std::int64_t>(splits, 1);
}

std::optional<DotKernel> forced_dot_kernel() {
  const int f = forced.load(std::memory_order_relaxed);
  return f >= 0 ? std::optional<DotKernel>(static_cast<DotKernel>(f)) : env_dot_kernel();
}

void force_dot_kernel(std::optional<DotKernel> kernel) {
  forced.store(kernel ? static_cast<int>(*kernel) : -1, std::memory_order_relaxed);
}

namespace {

// The problem a dot call poses and the variant that runs it; nullopt when no kernel takes it.
struct Problem {
  Axes free_a, free_b;
  std::int64_t batches = 0, m = 0, n = 0, k = 0;
  DotKernel kernel = DotKernel::tiled;
  bool fast = false;  // fma steps (FAST = 1)
  Tile tile{64, 64};
  std::int64_t tiles_n = 0, tiles_m = 0;
  std::int64_t splits = 1;  // dot_k_splits: K in this many chunks of `chunk` (the last one shorter)
  std::int64_t chunk = 0;
};

std::optional<Problem> problem_of(const OpCall& call, const TensorType& a, const TensorType& b, const TensorType& out) {
  const DotAttrs& at = call.attrs_as<DotAttrs>();
  if (out.dtype == DType::pred || a.dtype != out.dtype || b.dtype != out.dtype) return std::nullopt;
  if (!fits_u32(num_elements(a.shape)) || !fits_u32(num_elements(b.shape)) || !fits_u32(num_elements(out.shape)))
    return std::nullopt;
  Problem p;
  p.free_a = free_axes(a.shape.size(), at.contract_a, at.batch_a);
  p.free_b = free_axes(b.shape.size(), at.contract_b, at.batch_b);
  p.batches = extent(a.shape, at.batch_a);
  p.m = extent(a.shape, p.free_a);
  p.k = extent(a.shape, at.contract_a);
  p.n = extent(b.shape, p.free_b);
  const bool blocked_dtype = is_float(out.dtype);
  p.fast = at.precision == Precision::fast && is_float(out.dtype);
  const bool tensor = tensor_dot_possible(at.precision, out.dtype);
  p.kernel = forced_dot_kernel().value_or(choose_dot_kernel(at.precision, out.dtype, p.batches, p.m, p.n, p.k, tensor));
  if (p.kernel == DotKernel::tensor && !tensor) p.kernel = DotKernel::mid;
  if (!blocked_dtype) p.kernel = DotKernel::tiled;
  // The register-blocked and tensor-core variants take 256 invocations and up to 40 KiB of shared memory; tiled
  // fits Vulkan's minimum, and every variant gives the same bits.
  if (p.kernel != DotKernel::tiled &&
      !fits_device(p.kernel == DotKernel::tensor
                       ? std::string("dot_tensor_f16")
                       : std::string("dot_") + dot_kernel_name(p.kernel) + "_" + variant_name(out.dtype)))
    p.kernel = DotKernel::tiled;
  p.splits = dot_k_splits(at.precision, out.dtype, p.batches, p.m, p.n, p.k);
  p.chunk = (p.k + p.splits - 1) / p.splits;
  p.splits = p.splits > 1 ? (p.k + p.chunk - 1) / p.chunk : 1;
  p.tile = tile_of(p.kernel, out.dtype, p.batches, p.m, p.n);
  p.tiles_n = (p.n + p.tile.n - 1) / p.tile.n;
  p.tiles_m = (p.m + p.tile.m - 1) / p.tile.m;
  if (p.tiles_n > runtime().features().max_workgroup_count_x || p.tiles_m > kMaxGroups || !fits_u32(p.k))
    return std::nullopt;
  return p;
}

DotLaunch launch_of(const OpCall& call, const Tensor& a, const Tensor& b, const Problem& p) {
  const DotAttrs& at = call.attrs_as<DotAttrs>();
  const Operand va = view(a, at.batch_a, p.free_a, at.contract_a);
  const Operand vb = view(b, at.batch_b, at.contract_b, p.free_b);
  DotLaunch l;
  l.a = va.buffer;
  l.b = vb.buffer;
  // Consecutive invocations load along K where the operand is contiguous along K (see dot.comp).
  l.specialization = {va.cols == 1 && va.rows != 1 ? 1 : 0, vb.rows == 1 && vb.cols != 1 ? 1 : 0, p.fast ? 1 : 0};
  l.push = {static_cast<std::uint32_t>(p.m),
            static_cast<std::uint32_t>(p.n),
            static_cast<std::uint32_t>(p.k),
            0,
            va.batch,
            va.rows,
            va.cols,
            vb.batch,
            vb.rows,
            vb.cols};
  l.tiles_n = static_cast<std::uint32_t>(p.tiles_n);
  l.tiles_m = static_cast<std::uint32_t>(p.tiles_m);
  l.batches = p.batches;
  return l;
}

}  // namespace

bool runs_tiled_dot(const OpCall& call, const TensorType& a, const TensorType& b, const TensorType& out) {
  if (!available()) return false;
  const auto p = problem_of(call, a, b, out);
  return p && p->kernel == DotKernel::tiled && p->splits == 1 && p->batches * p->m * p->n > 0;
}

DotLaunch tiled_dot_launch(const OpCall& call, const Tensor& a, const Tensor& b, const TensorType& out) {
  const auto p = problem_of(call, a.type(), b.type(), out);
  if (!p || p->kernel != DotKernel::tiled || p->splits != 1)
    detail::fail(describe(call), "does not run the tiled dot kernel");
  return launch_of(call, a, b, *p);
}

void dispatch_dot(const Pipeline* pipeline, const DotLaunch& l, const BufferPtr& result, std::span<const Binding> extra,
                  std::span<const std::uint32_t> extra_push) {
  std::vector<Binding> bindings{{&l.a, false}, {&l.b, false}, {&result, true}};
  bindings.insert(bindings.end(), extra.begin(), extra.end());
  std::vector<std::uint32_t> push(l.push.begin(), l.push.end());
  push.insert(push.end(), extra_push.begin(), extra_push.end());
  for (std::int64_t base = 0; base < l.batches; base += kMaxGroups) {
    push[3] = static_cast<std::uint32_t>(base);  // batch_base
    dispatch_bindings(runtime(), pipeline, bindings, std::as_bytes(std::span(push)), l.tiles_n, l.tiles_m,
                      static_cast<std::uint32_t>(std::min(kMaxGroups, l.batches - base)));
  }
}

bool dot(const OpCall& call, Inputs in, const TensorType& out, BufferPtr& result) {
  const Tensor& a = in[0];
  const Tensor& b = in[1];
  const auto p = problem_of(call, a.type(), b.type(), out);
  if (!p) return false;
  result = allocate(out);
  if (p->batches * p->m * p->n == 0) return true;
  DotLaunch l = launch_of(call, a, b, *p);
  // (The blocked shader decides vector loads itself from the strides.)
  const Pipeline* pipeline = p->kernel == DotKernel::tiled ? tiled_pipeline(out.dtype, l.specialization)
                             : p->kernel == DotKernel::tensor
                                 ? tensor_pipeline(l.specialization, p->tile)
                                 : blocked_pipeline(p->kernel, out.dtype, l.specialization);
  if (p->splits == 1) {
    dispatch_dot(pipeline, l, result);
    return true;
  }
  // A split K: chunk c of K is batch c (its operands `chunk` steps further along K, its partial product the c-th
  // [m, n] of the partials); the full chunks in one dispatch, a shorter last one in another; then their sum.
  const std::int64_t full = p->k / p->chunk, last = p->k - full * p->chunk;
  const BufferPtr partials = runtime().allocate(static_cast<std::size_t>(p->splits * p->m * p->n) * size_of(out.dtype));
  l.push[2] = static_cast<std::uint32_t>(p->chunk);
  l.push[4] = static_cast<std::uint32_t>(p->chunk * l.push[6]);  // a's batch stride: chunk steps of its K stride
  l.push[7] = static_cast<std::uint32_t>(p->chunk * l.push[8]);  // b's
  l.batches = full;
  dispatch_dot(pipeline, l, partials);
  if (last > 0) {
    std::vector<Binding> bindings{{&l.a, false}, {&l.b, false}, {&partials, true}};
    l.push[2] = static_cast<std::uint32_t>(last);
    l.push[3] = static_cast<std::uint32_t>(full);  // batch_base
    dispatch_bindings(runtime(), pipeline, bindings, std::as_bytes(std::span(l.push)), l.tiles_n, l.tiles_m, 1);
  }
  result = sum_leading_axis(partials, p->splits, out);
  return true;
}

}  // namespace nxv::vulkan::kernels
