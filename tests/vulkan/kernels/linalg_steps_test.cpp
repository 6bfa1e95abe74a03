// The linear-algebra kernels' steps spread over dispatches (src/vulkan/kernels/linalg.cpp): matrices whose loops run
// longer than one dispatch's budget (and, summed, than llvmpipe's 65535 iterations per invocation) equal the
// reference's results, and on a device with that cap a single step past it takes the counted host fallback.
#include "nxv/fallback.hpp"
#include "nxv/linalg.hpp"
#include "support/linalg.hpp"
#include "support/parity.hpp"
#include "vulkan/runtime/runtime.hpp"

namespace nxv::testing {
namespace {

TEST(VulkanLinalgSteps, LongAlgorithmsSplitOverDispatchesMatchTheReference) {
  NXV_REQUIRE_VULKAN();
  // Each runs more loop iterations per invocation than one dispatch's budget: qr of 2000 rows, eigh of order 100
  // (~10 Jacobi sweeps), lu of order 250, a triangular solve with 3000 right-hand sides. (A longer cholesky or lu is
  // blocked onto GEMMs instead: tests/linalg/linalg_test.cpp.)
  const Tensor tall = uniform(key(1), {2000, 6}, DType::f64, -1, 1);
  expect_close_on_vulkan([](const std::vector<Tensor>& x) { return linalg::qr(x[0]).r; }, {tall}, "qr 2000x6", 64);
  const Tensor x = uniform(key(2), {100, 100}, DType::f64, -1, 1);
  expect_close_on_vulkan([](const std::vector<Tensor>& x) { return linalg::eigh(x[0]).eigenvalues; },
                         {x + matrix_transpose(x)}, "eigh 100", 256);
  expect_close_on_vulkan([](const std::vector<Tensor>& x) { return linalg::lu(x[0]).u; },
                         {random_matrices({}, 250, DType::f64, 4)}, "lu 250", 64);
  expect_close_on_vulkan([](const std::vector<Tensor>& x) { return linalg::triangular_solve(x[0], x[1]); },
                         {random_matrices({}, 40, DType::f64, 5, 40.0), uniform(key(6), {40, 3000}, DType::f64, -1, 1)},
                         "triangular_solve 40 x 3000");
}

TEST(VulkanLinalgSteps, AStepPastTheLoopCapTakesTheCountedFallback) {
  NXV_REQUIRE_VULKAN();
  if (!vulkan::runtime().features().loop_trips_capped)
    GTEST_SKIP() << "this device has no loop-iteration cap (the case runs natively, and for seconds)";
  // qr of 40000 x 2: its first step reflects 40000 rows, 2 x 40000 = 80000 iterations per invocation and as many
  // for the update (large square factorisations are blocked instead: tests/linalg/linalg_test.cpp).
  const Tensor a = uniform(key(7), {40000, 2}, DType::f32, -1, 1);
  Tensor got;
  const std::uint64_t fallbacks = fallback::count_total([&] { got = linalg::qr(a.to(vulkan::backend())).r; });
  EXPECT_EQ(fallbacks, 1u);
  EXPECT_EQ(compare_exact(linalg::qr(a).r, got.to_host()), "");
}

}  // namespace
}  // namespace nxv::testing
