// OpCode::cholesky, triangular_solve, lu (src/vulkan/kernels/linalg.comp), qr, eigh and svd (linalg_orthogonal.comp):
// one workgroup per matrix, the algorithms of the reference with a barrier between their steps. This is the kernel for
// many small matrices; large Cholesky and LU factorisations and triangular solves are blocked onto GEMMs
// (linalg_blocked.cpp), while qr, eigh and svd of a large matrix still run on a single workgroup (correct, but far
// from the device's speed).
#include <algorithm>
#include <functional>

#include "vulkan/kernels/kernels.hpp"
#include "vulkan/kernels/layout.hpp"
#include "vulkan/kernels/linalg_blocked.hpp"
#include "vulkan/runtime/storage.hpp"

namespace nxv::vulkan::kernels {
namespace {

// linalg.comp's and linalg_orthogonal.comp's push constants (qr reads them as {matrices, m, n, q, ...}).
struct LinalgPush {
  std::uint32_t matrices, n, rows, cols, begin, end;
  std::uint32_t
      flags;  // kCopyIn: the dispatch starts by copying the input in; kTidyUp: it ends by tidying up (qr, svd)
};
constexpr std::uint32_t kCopyIn = 1, kTidyUp = 2;

// A dispatch runs the steps [begin, end) of its algorithm, at most kTripsPerDispatch loop iterations per invocation
// (the shaders' GROUP = 64 invocations share each step's loops): no dispatch runs for long (a GPU's watchdog), and
// none passes llvmpipe's 65535-iteration cap, where a single step past the cap refuses the op (the host fallback).
constexpr std::int64_t kGroup = 64, kTripsPerDispatch = 32768, kTripCap = 65535;
constexpr int kJacobiSweeps = 60;  // the reference's kMaxJacobiSweeps
std::int64_t shared_by_group(std::int64_t work) { return (work + kGroup - 1) / kGroup; }

// The steps of the call's algorithm and an upper bound on the loop iterations an invocation runs in step s, in the
// copy-in (`init`) and in qr's and svd's tidying up (`tidy`), following the loops of linalg.comp and
// linalg_orthogonal.comp.
struct Steps {
  std::int64_t total = 0, init = 0;
  std::function<std::int64_t(std::int64_t)> trips;
  std::int64_t tidy = 0;
};
Steps steps_of(const OpCall& call, const LinalgPush& p) {
  const std::int64_t n = p.n;
  switch (call.code) {
    case OpCode::cholesky:
      return {n, shared_by_group(n * n), [n](std::int64_t j) {
                return 1 + shared_by_group(n - j - 1) + shared_by_group((n - j - 1) * (n - j - 1));
              }};
    case OpCode::lu:
      return {n, 2 * shared_by_group(n * n), [n](std::int64_t j) {
                return (n - j) + shared_by_group(n + 1) + shared_by_group(n - j) +
                       shared_by_group((n - j - 1) * (n - j - 1));
              }};
    case OpCode::triangular_solve: {
      const TriangularSolveAttrs& a = call.attrs_as<TriangularSolveAttrs>();
      const std::int64_t vectors = a.left_side ? p.cols : p.rows;
      return {n, shared_by_group(std::int64_t{p.rows} * p.cols), [n, vectors](std::int64_t t) {
                return shared_by_group(vectors) + shared_by_group(vectors * (n - 1 - t));
              }};
    }
    case OpCode::qr: {  // {matrices, m, n, q}
      const std::int64_t m = p.n, cols = p.rows, q = p.cols, k = std::min(m, cols);
      return {2 * k, 2 * shared_by_group(m * (q + cols)),
              [m, cols, q, k](std::int64_t g) {
                if (g < k) return 2 * (m - g) + shared_by_group(cols - g - 1) * 2 * (m - g);
                const std::int64_t j = 2 * k - 1 - g;
                return shared_by_group(q - j) * 2 * (m - j);
              },
              shared_by_group(m * cols) + shared_by_group(q + cols)};
    }
    case OpCode::eigh: {
      const std::int64_t players = n + n % 2, pairs = players / 2;
      return {n >= 2 ? kJacobiSweeps * (players - 1) : 0, 2 * shared_by_group(n * n),
              [n, pairs](std::int64_t) { return 1 + shared_by_group(pairs) + 2 * shared_by_group(pairs * n); }};
    }
    case OpCode::svd: {  // {matrices, m, n}
      const std::int64_t m = p.n, cols = p.rows, players = cols + cols % 2, pairs = players / 2;
      return {cols >= 2 ? kJacobiSweeps * (players - 1) : 0, shared_by_group(m * cols) + shared_by_group(cols * cols),
              [m, cols, pairs](std::int64_t) {
                return 1 + shared_by_group(pairs) * m + shared_by_group(pairs * (m + cols));
              },
              shared_by_group(cols) * m + shared_by_group(m * cols)};
    }
    default:
      return {};
  }
}

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
    case OpCode::svd:  // {matrices, m, n}
      push.n = static_cast<std::uint32_t>(m);
      push.rows = static_cast<std::uint32_t>(n);
      break;
    case OpCode::qr:  // {matrices, m, n, q}
      push.n = static_cast<std::uint32_t>(m);
      push.rows = static_cast<std::uint32_t>(n);
      push.cols = static_cast<std::uint32_t>(call.attrs_as<QrAttrs>().complete ? m : std::min(m, n));
      break;
    default:  // cholesky, lu, eigh: {matrices, n}
      push.n = static_cast<std::uint32_t>(n);
      break;
  }
  if (call.code == OpCode::cholesky && blocked_cholesky_pays(n) && matrices > 0) {
    result = buffer_of(blocked_cholesky(a));
    return true;
  }
  if (call.code == OpCode::triangular_solve && blocked_triangular_solve_pays(n) && matrices > 0 &&
      num_elements(out.shape) > 0) {
    result = buffer_of(blocked_triangular_solve(a, in[1], call.attrs_as<TriangularSolveAttrs>()));
    return true;
  }
  if (call.code == OpCode::lu && blocked_lu_pays(n) && matrices > 0) {
    result = buffer_of(blocked_lu(a));
    return true;
  }
  const Steps steps = steps_of(call, push);
  // The work as units: the copy-in, each step, the tidying up; a dispatch takes consecutive units within the budget.
  const std::int64_t units = steps.total + 2;
  const auto cost = [&](std::int64_t u) {
    return u == 0 ? steps.init : u == units - 1 ? steps.tidy : steps.trips(u - 1);
  };
  if (runtime().features().loop_trips_capped)
    for (std::int64_t u = 0; u < units; ++u)
      if (cost(u) > kTripCap) return false;
  result = allocate(out);
  if (matrices == 0 || num_elements(out.shape) == 0) return true;
  const Pipeline* p = linalg_pipeline(call.code, a.dtype(), attrs);
  const Grid g = grid_for_groups(push.matrices);
  for (std::int64_t first = 0; first < units;) {
    std::int64_t last = first, trips = cost(first);  // units [first, last]
    while (last + 1 < units && trips + cost(last + 1) <= kTripsPerDispatch) trips += cost(++last);
    push.flags = (first == 0 ? kCopyIn : 0) | (last == units - 1 ? kTidyUp : 0);
    push.begin = static_cast<std::uint32_t>(std::clamp<std::int64_t>(first - 1, 0, steps.total));
    push.end = static_cast<std::uint32_t>(std::clamp<std::int64_t>(last, 0, steps.total));
    if (call.code == OpCode::triangular_solve)
      runtime().dispatch(p, {{&buffer_of(a), false}, {&buffer_of(in[1]), false}, {&result, true}}, push_bytes(push),
                         g.x, g.y);
    else
      runtime().dispatch(p, {{&buffer_of(a), false}, {&result, true}}, push_bytes(push), g.x, g.y);
    first = last + 1;
  }
  return true;
}

}  // namespace nxv::vulkan::kernels
