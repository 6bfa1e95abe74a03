// The host-fallback choke point of the Vulkan backend: forced fallbacks are counted under "<op>:<dtype>", give
// the reference result, and obey NXV_FALLBACK's modes (allow, warn: one line on stderr, error: nxv::Error).
#include <gtest/gtest.h>

#include <algorithm>
#include <thread>

#include "nxv/error.hpp"
#include "support/kernels.hpp"
#include "vulkan/runtime/fallback.hpp"

namespace nxv::vulkan::test {
namespace {

using nxv::testing::test_data;

// Restores the mode and the forced set whatever the test does.
class FallbackTest : public ::testing::Test {
 protected:
  void SetUp() override { saved_ = fallback::mode(); }
  void TearDown() override {
    fallback::set_mode(saved_);
    vulkan::clear_forced_fallbacks();
  }
  fallback::Mode saved_ = fallback::Mode::allow;
};

OpCall pow_call() { return {OpCode::binary, BinaryAttrs{BinaryFn::pow}}; }

TEST_F(FallbackTest, ForcedOpIsCountedUnderItsNameAndGivesTheReferenceResult) {
  NXV_REQUIRE_VULKAN();
  fallback::set_mode(fallback::Mode::allow);
  vulkan::force_fallback_for_testing(OpCode::binary);
  const Tensor a = test_data(DType::f64, {3, 50}, 1), b = test_data(DType::f64, {50}, 2);
  const TensorType out{{3, 50}, DType::f64};
  const Tensor expected = execute_on(reference_backend(), pow_call(), {a, b}, out);
  Tensor actual;
  const fallback::Counts counts = fallback::count([&] { actual = execute_on(backend(), pow_call(), {a, b}, out); });
  EXPECT_EQ(counts, (fallback::Counts{{"binary(pow):f64", 1}}));
  EXPECT_EQ(&actual.backend(), &backend()) << "a fallback's result lives on the Vulkan backend";
  EXPECT_EQ(nxv::testing::compare_exact(expected, actual.to_host()), "");
  EXPECT_GE(fallback::totals().at("binary(pow):f64"), 1u);
}

TEST_F(FallbackTest, ForcingByNamePrefixAndNamesOfOtherOps) {
  NXV_REQUIRE_VULKAN();
  vulkan::force_fallback_for_testing(std::string("reduce(sum"));
  vulkan::force_fallback_for_testing(OpCode::cast);
  const ReduceAttrs sum{.fn = ReduceFn::sum, .axes = {0}};
  const ReduceAttrs max{.fn = ReduceFn::max, .axes = {0}};
  const Tensor x = test_data(DType::s32, {20}, 3);
  const fallback::Counts counts = fallback::count([&] {
    execute_on(backend(), {OpCode::reduce, sum}, {x}, {{}, DType::s32});
    execute_on(backend(), {OpCode::reduce, max}, {x}, {{}, DType::s32});  // not forced: native
    execute_on(backend(), {OpCode::cast, {}}, {x}, {{20}, DType::f32});
    execute_on(backend(), {OpCode::cast, {}}, {x}, {{20}, DType::f32});
  });
  EXPECT_EQ(counts, (fallback::Counts{{"reduce(sum):s32", 1}, {"as_type:s32->f32", 2}}));
}

TEST_F(FallbackTest, NativeOpsDoNotFallBack) {
  NXV_REQUIRE_VULKAN();
  const Tensor a = test_data(DType::f32, {100}, 4);
  EXPECT_EQ(fallback::count_total([&] { execute_on(backend(), pow_call(), {a, a}, a.type()).to_host(); }), 0u);
}

TEST_F(FallbackTest, WarnModePrintsOneLinePerEvent) {
  NXV_REQUIRE_VULKAN();
  fallback::set_mode(fallback::Mode::warn);
  vulkan::force_fallback_for_testing(OpCode::binary);
  const Tensor a = test_data(DType::f32, {4}, 5);
  ::testing::internal::CaptureStderr();
  execute_on(backend(), pow_call(), {a, a}, a.type());
  execute_on(backend(), pow_call(), {a, a}, a.type());
  const std::string err = ::testing::internal::GetCapturedStderr();
  EXPECT_EQ(std::count(err.begin(), err.end(), '\n'), 2) << err;
  EXPECT_NE(err.find("binary(pow):f32"), std::string::npos) << err;
}

TEST_F(FallbackTest, ErrorModeThrowsNamingOpShapesAndDtypes) {
  NXV_REQUIRE_VULKAN();
  fallback::set_mode(fallback::Mode::error);
  vulkan::force_fallback_for_testing(OpCode::binary);
  const Tensor a = test_data(DType::s64, {2, 3}, 6), b = test_data(DType::s64, {3}, 7);
  const std::uint64_t counted = fallback::count_total([&] {
    try {
      execute_on(backend(), pow_call(), {a, b}, {{2, 3}, DType::s64});
      ADD_FAILURE() << "NXV_FALLBACK=error let a fallback through";
    } catch (const Error& e) {
      const std::string what = e.what();
      EXPECT_NE(what.find("binary(pow)"), std::string::npos) << what;
      EXPECT_NE(what.find("s64[2, 3]"), std::string::npos) << what;
      EXPECT_NE(what.find("s64[3]"), std::string::npos) << what;
      EXPECT_NE(what.find("NXV_FALLBACK=error"), std::string::npos) << what;
    }
  });
  EXPECT_EQ(counted, 0u) << "a refused fallback is not an event";
}

// fallback::Guard: a mode for this thread only, nested guards restore the outer one, and its allowlist lets named
// events through even in error mode.
TEST_F(FallbackTest, AGuardSetsTheModeOfItsThreadWithAnAllowlist) {
  NXV_REQUIRE_VULKAN();
  fallback::set_mode(fallback::Mode::allow);
  vulkan::force_fallback_for_testing(OpCode::binary);
  const Tensor a = test_data(DType::f64, {8}, 1), b = test_data(DType::f64, {8}, 2);
  const TensorType out{{8}, DType::f64};
  auto run = [&] { return execute_on(backend(), pow_call(), {a, b}, out); };
  {
    const fallback::Guard strict(fallback::Mode::error);
    EXPECT_EQ(fallback::mode(), fallback::Mode::error);
    try {
      run();
      ADD_FAILURE() << "a fallback under a strict guard must throw";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("fallback::Guard"), std::string::npos) << e.what();
    }
    {
      const fallback::Guard allowing(fallback::Mode::error, {"binary(pow):"});
      EXPECT_EQ(fallback::count_total(run), 1u) << "allowlisted: taken and counted";
      EXPECT_TRUE(fallback::allowed_by_guard("binary(pow):f64"));
      EXPECT_FALSE(fallback::allowed_by_guard("binary(add):f64"));
    }
    EXPECT_THROW(run(), Error) << "the outer guard is back";
    // Another thread keeps the process-wide mode.
    fallback::Mode other = fallback::Mode::error;
    std::uint64_t other_events = 0;
    std::thread t([&] {
      other = fallback::mode();
      other_events = fallback::count_total(run);
    });
    t.join();
    EXPECT_EQ(other, fallback::Mode::allow);
    EXPECT_GE(other_events, 1u);
  }
  EXPECT_EQ(fallback::mode(), fallback::Mode::allow) << "the guard is gone";
  EXPECT_EQ(fallback::count_total(run), 1u);
}

}  // namespace
}  // namespace nxv::vulkan::test
