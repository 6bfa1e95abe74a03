// The variants of the Vulkan dot kernel and how one is picked per problem (src/vulkan/kernels/dot.cpp).
#pragma once
#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

#include "nxv/dtype.hpp"
#include "nxv/tensor.hpp"
#include "ops/op.hpp"
#include "vulkan/runtime/runtime.hpp"

namespace nxv::vulkan::kernels {

// tiled: src/vulkan/kernels/dot.comp, 64 x 64 tiles of 4 x 4 scalar blocks, every dtype.
// mid, big: src/vulkan/kernels/dot_blocked.comp (the float dtypes; integers always run `tiled`): vector loads, register
// double buffering, 64 x 64 tiles (mid) or 128 x 128 (big f32, f16, bf16) / 128 x 64 (big f64). f16 and bf16 load
// 16 bits, tile and accumulate in f32 and round once.
// tensor: src/vulkan/kernels/dot_tensor.comp, f16 in Precision::fast only, on devices with tensor cores
// (DeviceFeatures::tensor_cores_f16): 16x16x16 cooperative matrices accumulating in f32, 128 x 128 tiles
// (NXV_TENSOR_TILE: 128x256 for large problems), each result rounded once to f16.
// tiled, mid and big compute the reference backend's accumulation order, in Precision::exact as a rounded product
// and sum per step (the reference's bits on every device, once dot_blocked.comp is compiled without glslc -O:
// tests/vulkan/kernels/contraction_test.cpp), in Precision::fast as one fma per step (the same bits for all three
// on one device). tensor sums in the tensor
// cores' order (its own bits, the same run after run; include/nxv/precision.hpp gives the bound).
enum class DotKernel { tiled, mid, big, tensor };

const char* dot_kernel_name(DotKernel kernel);
// "tiled", "mid", "big" or "tensor"; nullopt for anything else.
std::optional<DotKernel> parse_dot_kernel(std::string_view name);

// The variant that dot runs for this problem when nothing forces one: for large float problems `mid` (in fast, for
// f16 on a device with tensor cores, `tensor`); `tiled` for the rest (see dot.cpp).
DotKernel choose_dot_kernel(Precision precision, DType dtype, std::int64_t batches, std::int64_t m, std::int64_t n,
                            std::int64_t k, bool tensor_cores = false);
// Whether the `tensor` variant can run a dot of this mode and dtype on this device (f16, fast, tensor cores);
// where it cannot, a forced `tensor` runs `mid`. Where it can, the size rule takes it for large problems.
bool tensor_dot_possible(Precision precision, DType dtype);

// In fast, a float dot of one matrix product whose result fills few 64 x 64 tiles and whose K is long splits K into
// this many chunks (1: no split): each chunk's product is one batch of the same kernel (fma steps over its part of
// K), then the partials are summed in reduce.comp's order. A fixed summation tree chosen by shape alone -- the same
// for every variant and device, so results stay deterministic -- and within fast's bound (its error is that of
// K / chunks + 6 steps, not K). Exact never splits (the reference sums in k order), nor do f16 and bf16 (their
// partials would round to 16 bits).
std::int64_t dot_k_splits(Precision precision, DType dtype, std::int64_t batches, std::int64_t m, std::int64_t n,
                          std::int64_t k);

// The variant every float dot runs regardless of size: the one set here (tests), else NXV_DOT_KERNEL (a
// benchmarking knob: tiled | mid | big | tensor | auto; anything else is an nxv::Error at the first dot), else
// nullopt.
std::optional<DotKernel> forced_dot_kernel();
// Forces a variant (nullopt: back to NXV_DOT_KERNEL / the size rule). Not for concurrent use with dot.
void force_dot_kernel(std::optional<DotKernel> kernel);

// The `tiled` kernel's launch of a dot, for the fusion compiler's generated copies of dot.comp (which add an
// epilogue after the store of each output; codegen.hpp's generate_dot_glsl).
struct DotLaunch {
  BufferPtr a, b;  // the operands as dot.comp reads them (materialised where strides do not collapse)
  std::array<std::int32_t, 3> specialization{};  // A_ALONG_K, B_ALONG_K, FAST
  // dot.comp's push block: m, n, k, batch_base, then the batch, row and column strides of a and of b.
  std::array<std::uint32_t, 10> push{};
  std::uint32_t tiles_n = 0, tiles_m = 0;
  std::int64_t batches = 0;
};
// Whether dot() would run this call with the `tiled` kernel on a non-empty result (types only, no device work).
bool runs_tiled_dot(const OpCall& call, const TensorType& a, const TensorType& b, const TensorType& out);
// The launch of such a call (materialising an operand when needed).
DotLaunch tiled_dot_launch(const OpCall& call, const Tensor& a, const Tensor& b, const TensorType& out);
// Dispatches `launch` with `pipeline` (dot.comp's layout, then `extra` bindings), pushing dot.comp's block and
// then `extra_push`.
void dispatch_dot(const Pipeline* pipeline, const DotLaunch& launch, const BufferPtr& result,
                  std::span<const Binding> extra = {}, std::span<const std::uint32_t> extra_push = {});

}  // namespace nxv::vulkan::kernels
