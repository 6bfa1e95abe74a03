// The two parameterised gradient suites of support/grad_cases.hpp; the case tables live beside the rules they test
// (tests/grad/rules_test.cpp, tests/grad/indexing_grad_test.cpp).
#include "support/grad_cases.hpp"

#include "nxv/fallback.hpp"
#include "nxv/vulkan.hpp"

namespace nxv::testing {

std::vector<Tensor> make_inputs(const GradCase& c, DType dtype) {
  std::vector<Tensor> xs;
  Key k = key(c.seed);
  for (const GradInput& in : c.inputs) {
    k = split(k)[0];
    xs.push_back(uniform(k, in.shape, dtype, in.low, in.high, reference_backend()));
  }
  return xs;
}

std::vector<GradParityCase> in_f32_and_f64(const std::vector<GradCase>& cases) {
  std::vector<GradParityCase> out;
  for (const GradCase& c : cases)
    for (DType t : {DType::f32, DType::f64}) out.push_back({c, t});
  return out;
}

void PrintTo(const GradCase& c, std::ostream* os) { *os << c.name; }
void PrintTo(const GradParityCase& p, std::ostream* os) { *os << p.c.name << " in " << name(p.dtype); }

TEST_P(GradFiniteDifference, MatchesCentralDifferences) {
  const GradCase& c = GetParam();
  EXPECT_TRUE(check_grads(c.fn, make_inputs(c, DType::f64), c.tol)) << "case " << c.name;
}

TEST_P(GradParity, VulkanMatchesReference) {
  if (!vulkan::available()) GTEST_SKIP() << "no usable Vulkan device";
  const GradParityCase& p = GetParam();
  const bool f32 = p.dtype == DType::f32;
  const std::size_t fallbacks = fallback::unexplained_by_device(fallback::count([&] {
                                  EXPECT_TRUE(grad_parity(p.c.fn, make_inputs(p.c, p.dtype), vulkan::backend(), p.dtype,
                                                          f32 ? 1e-4 : 1e-10, f32 ? 1e-5 : 1e-12))
                                      << "case " << p.c.name;
                                })).size();
  EXPECT_EQ(fallbacks, 0u) << "the forward and backward passes of " << p.c.name << " should stay on the GPU";
}

}  // namespace nxv::testing
