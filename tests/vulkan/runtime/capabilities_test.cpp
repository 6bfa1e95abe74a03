// Kernels on devices without optional shader features (src/vulkan/runtime/capabilities.hpp): the SPIR-V
// capabilities of the embedded shaders mapped to the features they need, a module specialized to one function
// needing only that function's (spirv_specialize.hpp), and, in a process whose device lacks f64
// (the `masked_minimum` ctest, NXV_DEVICE_MASK=minimum), f64 work taking the counted fallback by name, refused
// under NXV_FALLBACK=error naming the feature, jit declining to op-by-op execution, and f32 work that needs no
// such feature staying on the device.
#include <gtest/gtest.h>

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "nxv/defn.hpp"
#include "nxv/fallback.hpp"
#include "nxv/ops.hpp"
#include "support/expect_error.hpp"
#include "support/parity.hpp"
#include "vulkan/runtime/capabilities.hpp"
#include "vulkan/runtime/runtime.hpp"
#include "vulkan/runtime/shader_registry.hpp"
#include "vulkan/runtime/spirv_check.hpp"
#include "vulkan/runtime/spirv_patch.hpp"
#include "vulkan/runtime/spirv_specialize.hpp"

namespace nxv::vulkan {
namespace {

using nxv::testing::compare_exact;
using nxv::testing::error_of;

DeviceFeatures every_feature() {
  DeviceFeatures f;
  f.float64 = f.int64 = f.int16 = f.int8_arithmetic = f.float16 = f.storage8 = f.storage16 = true;
  f.tensor_cores_f16 = true;
  return f;
}

TEST(ShaderCapabilities, EachOptionalFeatureIsNamedWhereAShaderNeedsIt) {
  const DeviceFeatures all = every_feature();
  struct Case {
    const char* shader;
    bool DeviceFeatures::*feature;
    const char* name;
  };
  for (const Case& c : {Case{"unary_f64", &DeviceFeatures::float64, "shaderFloat64"},
                        Case{"cast_s64_f32", &DeviceFeatures::int64, "shaderInt64"},
                        Case{"cast_pred_f32", &DeviceFeatures::storage8, "storageBuffer8BitAccess"},
                        Case{"cast_s16_f32", &DeviceFeatures::storage16, "storageBuffer16BitAccess"}}) {
    const auto spirv = embedded_shader(c.shader);
    ASSERT_FALSE(spirv.empty()) << c.shader;
    EXPECT_EQ(missing_feature(spirv, all), "") << c.shader;
    DeviceFeatures lacking = all;
    lacking.*c.feature = false;
    EXPECT_EQ(missing_feature(spirv, lacking), c.name) << c.shader;
  }
}

TEST(ShaderCapabilities, F32KernelsThatNeedNothingOptionalRunOnTheBareDevice) {
  const DeviceFeatures bare;  // Vulkan 1.2's required features only
  for (const char* shader : {"dot_f32", "dot_mid_f32", "conv_f32", "cast_s32_f32", "iota_f32"})
    EXPECT_EQ(missing_feature(embedded_shader(shader), bare), "") << shader;
}

// binary_f32 holds every binary function behind its OP constant; some reach the reference's bits through f64.
TEST(ShaderCapabilities, SpecializedToOneFunctionAModuleNeedsOnlyWhatThatFunctionNeeds) {
  DeviceFeatures no_f64 = every_feature();
  no_f64.float64 = false;
  const auto binary = embedded_shader("binary_f32");
  ASSERT_EQ(missing_feature(binary, no_f64), "shaderFloat64");
  constexpr std::int32_t kAdd = 0, kDivide = 3, kContiguous = 0;  // shared/elementwise.def ids
  for (const std::int32_t op : {kAdd, kDivide}) {
    const std::vector<std::int32_t> constants = {op, kContiguous, kContiguous};
    const std::vector<std::uint32_t> words = specialized(binary, constants);
    ASSERT_FALSE(words.empty()) << op;
    EXPECT_EQ(spirv_problem(std::as_bytes(std::span(words))), "") << op;
    EXPECT_EQ(missing_feature(words, no_f64), op == kAdd ? "" : "shaderFloat64") << op;
  }
}

TEST(ShaderCapabilities, CapabilitiesOfWidthsNoTypeUsesAreDropped) {
  // A module that declares Float64 and Int8 but only 32-bit types: glslc -O leaves such modules.
  const std::uint32_t capability = (2u << 16) | 17u, type_int = (4u << 16) | 21u;
  const std::vector<std::uint32_t> module = {
      0x07230203u, 0x00010500u,   0,        10, 0,  capability, 1 /* Shader */, capability, 10 /* Float64 */,
      capability,  39 /* Int8 */, type_int, 1,  32, 0};
  const std::vector<std::uint32_t> trimmed = without_unused_width_capabilities(module);
  EXPECT_EQ(capabilities(trimmed), std::vector<std::uint32_t>{1});
  std::vector<std::uint32_t> with_bytes = module;
  with_bytes.insert(with_bytes.end(), {type_int, 2, 8, 0});  // an 8-bit integer type: Int8 stays
  EXPECT_EQ(capabilities(without_unused_width_capabilities(with_bytes)), (std::vector<std::uint32_t>{1, 39}));
}

TEST(ShaderCapabilities, DeviceLacksNamesTheShaderAndTheFeature) {
  const DeviceLacks e("unary_f64", "shaderFloat64");
  EXPECT_EQ(e.feature(), "shaderFloat64");
  EXPECT_NE(std::string(e.what()).find("shader 'unary_f64' needs shaderFloat64, which the device lacks"),
            std::string::npos)
      << e.what();
}

// ---- run by the `masked_minimum` ctest (NXV_DEVICE_MASK=minimum), or on any device without f64 -------------------

class VulkanWithoutF64 : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!available()) GTEST_SKIP() << "no usable Vulkan device";
    if (runtime().features().float64) GTEST_SKIP() << "the device has f64 (the masked_minimum ctest hides it)";
  }
};

Tensor f64_values() { return nxv::tensor(std::vector<double>{1.5, -0.0, 1e300, -2.25}, {4}, reference_backend()); }

TEST_F(VulkanWithoutF64, F64OpsTakeTheFallbackNamingTheFeature) {
  const Tensor x = f64_values(), y = nxv::tensor(std::vector<double>{0.5, 2.0, 1e10, 3.0}, {4}, reference_backend());
  Tensor got;
  const fallback::Counts events = fallback::count([&] { got = (x.to(backend()) * y.to(backend())).to_host(); });
  EXPECT_EQ(compare_exact(x * y, got), "");
  EXPECT_EQ(events.count("binary(multiply):f64 [device lacks shaderFloat64]"), 1u) << events.begin()->first;
  EXPECT_TRUE(fallback::unexplained_by_device(events).empty()) << events.begin()->first;
}

TEST_F(VulkanWithoutF64, UnderErrorModeTheRefusalNamesTheMissingFeature) {
  const Tensor x = f64_values().to(backend());
  const fallback::Guard strict(fallback::Mode::error);
  const std::string error = error_of([&] { exp(x).to_host(); });
  EXPECT_NE(error.find("unary(exp)"), std::string::npos) << error;
  EXPECT_NE(error.find("its kernel needs shaderFloat64, which the device lacks"), std::string::npos) << error;
  EXPECT_NE(error.find("NXV_FALLBACK=error"), std::string::npos) << error;
}

TEST_F(VulkanWithoutF64, JitOfAnF64FunctionRunsOpByOpAndEqualsTheReference) {
  const auto fn = [](const Tensor& a, const Tensor& b) { return sum(exp(a) * b + a, Axes{0}); };
  const Tensor a = nxv::tensor(std::vector<double>{0.25, -1.0, 2.0}, {3}, reference_backend()),
               b = slice(f64_values(), {0}, {3});
  auto jitted = jit(fn);
  Tensor got;
  const fallback::Counts events = fallback::count([&] { got = jitted(a.to(backend()), b.to(backend())).to_host(); });
  EXPECT_EQ(compare_exact(fn(a, b), got), "");
  EXPECT_FALSE(events.empty()) << "every op here needs f64";
  EXPECT_TRUE(fallback::unexplained_by_device(events).empty()) << events.begin()->first;
}

TEST_F(VulkanWithoutF64, F32MatmulNeedsNoOptionalFeatureAndStaysOnTheDevice) {
  std::vector<float> values(64 * 64);
  for (std::size_t i = 0; i < values.size(); ++i) values[i] = static_cast<float>(i % 17) * 0.25f - 2.0f;
  const Tensor a = nxv::tensor(values, {64, 64}, reference_backend());
  Tensor got;
  const fallback::Counts events = fallback::count([&] { got = matmul(a.to(backend()), a.to(backend())).to_host(); });
  EXPECT_TRUE(events.empty()) << events.begin()->first;
  EXPECT_EQ(compare_exact(matmul(a, a), got), "");
}

}  // namespace
}  // namespace nxv::vulkan
