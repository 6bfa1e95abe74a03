// OpCode::cholesky, triangular_solve, lu (src/vulkan/kernels/linalg.comp), qr and eigh (linalg_orthogonal.comp):
// one workgroup per matrix, the algorithms of the reference with a barrier between their steps. This is the kernel for
// many small matrices; a large one runs on a single workgroup (correct, but far from the device's speed: a blocked
// factorisation with GEMM trailing updates is the remedy, not built yet).
#include <algorithm>

#include "vulkan/kernels/kernels.hpp"
#include "vulkan/kernels/layout.hpp"
#include "vulkan/runtime/storage.hpp"

namespace nxv::vulkan::kernels {
namespace {

// linalg.comp's and linalg_orthogonal.comp's push constants (qr reads them as {matrices, m, n, q}).
struct LinalgPush {
  std::uint32_t matrices, n, rows, cols;
};

const Pipeline* linalg_pipeline(OpCode code, DType dtype, const TriangularSolveAttrs& attrs) {
  static PipelineCache cache;
  const std::int32_t spec[] = {attrs.left_side ? 1 : 0, attrs.lower ? 1 : 0, attrs.transpose_a ? 1 : 0,
                               attrs.unit_diagonal ? 1 : 0};
  const std::uint64_t key = static_cast<std::uint64_t>(dtype) | static_cast<std::uint64_t>(code) << 8 |
                            static_cast<std::uint64_t>(spec[0] | spec[1] << 1 | spec[2] << 2 | spec[3] << 3) << 16;
  const bool solve = code == OpCode::triangular_solve;
  return cache.get(
      key, [&] { return std::string("linalg_") + op_name(code) + "_" + variant_name(dtype); },
      solve ? std::span<const std::int32_t>(spec) : std::span<const std::int32_t>());
}

}  // namespace

bool linalg(const OpCall& call, Inputs in, const TensorType& out, BufferPtr& result) {
  const Tensor& a = in[0];
  if (a.dtype() != DType::f32 && a.dtype() != DType::f64) return false;
  const int r = a.rank();
  const std::int64_t m = a.shape()[r - 2], n = a.shape()[r - 1];
  std::int64_t matrices = 1;
  for (int d = 0; d < r - 2; ++d) matrices *= a.shape()[d];
  // Every index of the shaders (a matrix's offset, the trailing squares, the packed rows) within uint32.
  if (!fits_u32(num_elements(out.shape)) || !fits_u32(a.size()) || !fits_u32((m + 2) * (m + n + 2)) ||
      !fits_u32(matrices))
    return false;
  LinalgPush push{};
  push.matrices = static_cast<std::uint32_t>(matrices);
  TriangularSolveAttrs attrs{};
  switch (call.code) {
    case OpCode::triangular_solve: {
      attrs = call.attrs_as<TriangularSolveAttrs>();
      const Tensor& b = in[1];
      if (!fits_u32(b.size())) return false;
      push.n = static_cast<std::uint32_t>(n);
      push.rows = static_cast<std::uint32_t>(b.shape()[r - 2]);
      push.cols = static_cast<std::uint32_t>(b.shape()[r - 1]);
      break;
    }
    case OpCode::qr:  // {matrices, m, n, q}
      push.n = static_cast<std::uint32_t>(m);
      push.rows = static_cast<std::uint32_t>(n);
      push.cols = static_cast<std::uint32_t>(call.attrs_as<QrAttrs>().complete ? m : std::min(m, n));
      break;
    default:  // cholesky, lu, eigh: {matrices, n}
      push.n = static_cast<std::uint32_t>(n);
      break;
  }
  result = allocate(out);
  if (matrices == 0 || num_elements(out.shape) == 0) return true;
  const Pipeline* p = linalg_pipeline(call.code, a.dtype(), attrs);
  const Grid g = grid_for_groups(push.matrices);
  if (call.code == OpCode::triangular_solve)
    runtime().dispatch(p, {{&buffer_of(a), false}, {&buffer_of(in[1]), false}, {&result, true}}, push_bytes(push), g.x,
                       g.y);
  else
    runtime().dispatch(p, {{&buffer_of(a), false}, {&result, true}}, push_bytes(push), g.x, g.y);
  return true;
}

}  // namespace nxv::vulkan::kernels
