// Kernels on devices without optional shader features (src/vulkan/runtime/capabilities.hpp): the SPIR-V
// capabilities of the embedded shaders mapped to the features they need, a module specialized to one function
// needing only that function's (spirv_specialize.hpp), and, in a process whose device lacks f64 (the
// `masked_minimum` ctest, NXV_DEVICE_MASK=minimum), f32 division and sqrt correctly rounded from integer
// arithmetic, f64 work taking the counted fallback by name, refused under NXV_FALLBACK=error naming the feature,
// jit declining to op-by-op execution, and f32 work that needs no such feature staying on the device.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <functional>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "nxv/defn.hpp"
#include "nxv/fallback.hpp"
#include "nxv/ops.hpp"
#include "nxv/vulkan.hpp"
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

// s64 indices and positions are read and written as (low, high) word pairs (lib/index.glsl): take, gather, argmax
// and argsort of 32-bit values need no shaderInt64.
TEST(ShaderCapabilities, IndexKernelsOfS64IndicesNeedNoInt64) {
  const DeviceFeatures bare;
  for (const char* shader :
       {"take_4_s64", "gather_4_s64", "arg_reduce_f32", "arg_reduce_s32", "sort_tile_f32", "sort_merge_f32"})
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
    const std::vector<std::uint32_t> words = specialized(binary, constants, /*device_f64=*/false);
    ASSERT_FALSE(words.empty()) << op;
    EXPECT_EQ(spirv_problem(std::as_bytes(std::span(words))), "") << op;
    EXPECT_EQ(missing_feature(words, no_f64), "") << op << ": division without f64 (lib/f32_exact.glsl)";
  }
  constexpr std::int32_t kAtan2 = 9;  // an f32 function still computed through f64
  const std::vector<std::int32_t> atan2 = {kAtan2, kContiguous, kContiguous};
  EXPECT_EQ(missing_feature(specialized(binary, atan2, false), no_f64), "shaderFloat64");
  EXPECT_EQ(missing_feature(specialized(binary, {{kDivide, kContiguous, kContiguous}}, true), no_f64), "shaderFloat64")
      << "where the device has f64, division goes through it";
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

// The workgroup limits read from the kernels' SPIR-V: literal sizes, sizes from specialization constants (the
// fused reductions' lanes), and shared memory at the types' natural sizes.
TEST(ShaderWorkgroups, SizesAndSharedMemoryAreReadFromTheModule) {
  const WorkgroupNeeds dot = workgroup_needs(embedded_shader("dot_f32"), {});
  EXPECT_EQ(dot.size[0], 16u);
  EXPECT_EQ(dot.size[1], 8u);
  EXPECT_EQ(dot.size[2], 1u);
  EXPECT_EQ(dot.invocations(), 128u) << "Vulkan's minimum";
  EXPECT_EQ(dot.shared_bytes, 2u * 16 * 64 * 4) << "its a and b tiles, 16 x 64 floats each";
  const WorkgroupNeeds dot64 = workgroup_needs(embedded_shader("dot_f64"), {});
  EXPECT_EQ(dot64.shared_bytes, 2 * dot.shared_bytes) << "the same tiles of doubles";
  const WorkgroupNeeds copy = workgroup_needs(embedded_shader("copy_many"), {});
  EXPECT_EQ(copy.invocations(), 128u);
  EXPECT_EQ(copy.shared_bytes, 0u);
  const WorkgroupNeeds blocked = workgroup_needs(embedded_shader("dot_mid_f32"), {});
  EXPECT_EQ(blocked.invocations(), 256u) << "more than Vulkan's minimum: dot.cpp takes tiled where it does not fit";
}

TEST(ShaderWorkgroups, ALimitTheKernelExceedsIsNamedWithTheDevicesValue) {
  DeviceFeatures roomy = every_feature();
  roomy.max_workgroup_invocations = 1024;
  roomy.max_workgroup_size[0] = roomy.max_workgroup_size[1] = 1024;
  roomy.max_shared_memory = 49152;
  WorkgroupNeeds needs;
  needs.size[0] = needs.size[1] = 16;
  needs.shared_bytes = 16384;
  EXPECT_EQ(exceeded_limit(needs, roomy), "");
  DeviceFeatures minimum;  // Vulkan's minimum limits
  EXPECT_EQ(exceeded_limit(needs, minimum), "256 invocations per workgroup (maxComputeWorkGroupInvocations: 128)");
  needs.size[0] = 256;
  needs.size[1] = 1;
  roomy.max_workgroup_size[0] = 128;
  EXPECT_EQ(exceeded_limit(needs, roomy), "256 invocations along x (maxComputeWorkGroupSize: 128)");
  needs.size[0] = 64;
  needs.shared_bytes = 16388;
  EXPECT_EQ(exceeded_limit(needs, minimum), "16388 bytes of shared memory (maxComputeSharedMemorySize: 16384)");
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

// lib/f32_exact.glsl: division from the operands' bits, against the reference's float(double(a) / double(b)) on
// random bit patterns of every exponent (so denormal operands and results, overflow and the specials) and on
// quotients that land next to the denormal boundary, halfway cases included.
TEST_F(VulkanWithoutF64, F32DivisionWithoutF64IsCorrectlyRoundedOnEveryBitPattern) {
  std::mt19937 bits(19);
  std::vector<float> a, b;
  const auto push = [&](std::uint32_t x, std::uint32_t y) {
    a.push_back(std::bit_cast<float>(x));
    b.push_back(std::bit_cast<float>(y));
  };
  for (int i = 0; i < (1 << 20); ++i) push(bits(), bits());
  for (int i = 0; i < (1 << 16); ++i) {  // near the smallest normal: b = 2^k, a of nearby exponents
    const std::uint32_t exponent = 1 + bits() % 40;
    push((exponent << 23) | (bits() & 0x807fffffu), ((127 + bits() % 30) << 23) | (bits() % 4));
  }
  for (const float special : {0.0f, -0.0f, INFINITY, -INFINITY, NAN, 1.0f, 1e-45f, 1.17549435e-38f, 3.4028235e38f})
    for (const float other : {0.0f, -0.0f, INFINITY, NAN, -3.0f, 1e-45f, 3.4028235e38f, 0.5f}) {
      push(std::bit_cast<std::uint32_t>(special), std::bit_cast<std::uint32_t>(other));
      push(std::bit_cast<std::uint32_t>(other), std::bit_cast<std::uint32_t>(special));
    }
  const auto n = static_cast<std::int64_t>(a.size());
  const Tensor x = nxv::tensor(a, {n}, reference_backend()), y = nxv::tensor(b, {n}, reference_backend());
  Tensor got;
  const fallback::Counts events = fallback::count([&] { got = (x.to(backend()) / y.to(backend())).to_host(); });
  EXPECT_TRUE(events.empty()) << events.begin()->first;
  EXPECT_EQ(compare_exact(x / y, got), "");
}

// The running products of product and cumulative_product from the bits (lib/f32_exact.glsl's nxv_cr_multiply_bits)
// against the reference's: random bit patterns of every exponent (denormal operands and results, overflow, the
// specials), and pairs whose product lands next to the denormal boundary, as the products of rows of two.
TEST_F(VulkanWithoutF64, F32ProductsWithoutF64AreCorrectlyRoundedOnEveryBitPattern) {
  std::mt19937 bits(29);
  std::vector<float> pairs;
  const auto push = [&](std::uint32_t x, std::uint32_t y) {
    pairs.push_back(std::bit_cast<float>(x));
    pairs.push_back(std::bit_cast<float>(y));
  };
  for (int i = 0; i < (1 << 20); ++i) push(bits(), bits());
  for (int i = 0; i < (1 << 16); ++i)  // exponents summing to about the smallest normal's
    push(((40 + bits() % 40) << 23) | (bits() & 0x807fffffu), ((8 + bits() % 40) << 23) | (bits() & 0x807fffffu));
  for (const float special : {0.0f, -0.0f, INFINITY, -INFINITY, NAN, 1.0f, 1e-45f, 1.17549435e-38f, 3.4028235e38f})
    for (const float other : {0.0f, -0.0f, INFINITY, NAN, -3.0f, 1e-45f, 3.4028235e38f, 0.5f}) {
      push(std::bit_cast<std::uint32_t>(special), std::bit_cast<std::uint32_t>(other));
      push(std::bit_cast<std::uint32_t>(other), std::bit_cast<std::uint32_t>(special));
    }
  const auto rows = static_cast<std::int64_t>(pairs.size() / 2);
  const Tensor x = nxv::tensor(pairs, {rows, 2}, reference_backend());
  Tensor got;
  const fallback::Counts events = fallback::count([&] { got = product(x.to(backend()), Axes{1}).to_host(); });
  EXPECT_TRUE(events.empty()) << events.begin()->first;
  EXPECT_EQ(compare_exact(product(x, Axes{1}), got), "");
}

// The square root from the bits (lib/f32_exact.glsl) against float(sqrt(double(x))): random bit patterns of both
// signs, every denormal of a stride, the specials, and the squares of random floats and their neighbours (exact and
// nearly exact roots).
TEST_F(VulkanWithoutF64, F32SqrtWithoutF64IsCorrectlyRoundedOnEveryBitPattern) {
  std::mt19937 bits(23);
  std::vector<float> values;
  for (int i = 0; i < (1 << 20); ++i) values.push_back(std::bit_cast<float>(static_cast<std::uint32_t>(bits())));
  for (std::uint32_t d = 1; d < 0x800000u; d += 97) values.push_back(std::bit_cast<float>(d));
  for (int i = 0; i < (1 << 16); ++i) {
    const float root = std::bit_cast<float>((static_cast<std::uint32_t>(bits()) & 0x3fffffffu) | 0x20000000u);
    const std::uint32_t square = std::bit_cast<std::uint32_t>(root * root);
    for (const std::uint32_t near : {square - 1, square, square + 1}) values.push_back(std::bit_cast<float>(near));
  }
  for (const float special : {0.0f, -0.0f, INFINITY, -INFINITY, NAN, -NAN, -1.0f, 1e-45f, 3.4028235e38f, 4.0f})
    values.push_back(special);
  const Tensor x = nxv::tensor(values, {static_cast<std::int64_t>(values.size())}, reference_backend());
  Tensor got;
  const fallback::Counts events = fallback::count([&] { got = sqrt(x.to(backend())).to_host(); });
  EXPECT_TRUE(events.empty()) << events.begin()->first;
  EXPECT_EQ(compare_exact(sqrt(x), got), "");
}

// A binary function run eagerly and jitted (without replay) on x and y of `shape`, each once the jitted one has
// compiled: the dispatches of each, the fallbacks of the jitted run, and whether both gave the same bits.
struct EagerAndFused {
  std::uint64_t eager_dispatches = 0, fused_dispatches = 0;
  fallback::Counts fused_events;
  std::string mismatch;
};
EagerAndFused eager_and_fused(const std::function<Tensor(const Tensor&, const Tensor&)>& fn, const Shape& shape) {
  std::vector<float> values(static_cast<std::size_t>(num_elements(shape)));
  for (std::size_t i = 0; i < values.size(); ++i) values[i] = static_cast<float>(i % 37) * 0.125f - 2.0f;
  const Tensor x = nxv::tensor(values, shape, reference_backend()).to(backend());
  const Tensor y = (x * 0.5).to(backend());
  auto jitted = jit(fn, {.compiler = compiler({.replay = Replay::never})});
  jitted(x, y);  // compiles
  flush();
  EagerAndFused r;
  const Counters before_eager = counters();
  const Tensor eager = fn(x, y);
  flush();
  r.eager_dispatches = counters().dispatches - before_eager.dispatches;
  Tensor fused;
  const Counters before_fused = counters();
  r.fused_events = fallback::count([&] {
    fused = jitted(x, y);
    flush();
  });
  r.fused_dispatches = counters().dispatches - before_fused.dispatches;
  r.mismatch = compare_exact(eager.to_host(), fused.to_host());
  return r;
}

// The fusion compiler leaves a node the device cannot run natively eager (kernels::elementwise_native) and fuses
// the rest, rather than declining the whole graph: fewer dispatches than eager, and only exp leaves the device.
TEST_F(VulkanWithoutF64, JitFusesAroundAnF32FunctionThatFallsBack) {
  const EagerAndFused r =
      eager_and_fused([](const Tensor& x, const Tensor& y) { return exp(x) * y + x * y - y; }, Shape{1000});
  EXPECT_EQ(r.mismatch, "");
  ASSERT_EQ(r.fused_events.size(), 1u) << r.fused_events.begin()->first;
  EXPECT_EQ(r.fused_events.begin()->first, "unary(exp):f32 [device lacks shaderFloat64]");
  EXPECT_LT(r.fused_dispatches, r.eager_dispatches) << "the four other ops fuse";
}

// The same for a reduction (kernels::reduce_native): `all` writes pred, which a device without 8-bit storage cannot
// store, so it stays eager and takes the fallback while its elementwise producer still fuses into one kernel.
TEST_F(VulkanWithoutF64, JitFusesAroundAReductionThatFallsBack) {
  if (runtime().features().storage8) GTEST_SKIP() << "the device stores 8-bit values (the minimum mask hides them)";
  const EagerAndFused r =
      eager_and_fused([](const Tensor& x, const Tensor& y) { return all(x * y + x, Axes{1}); }, Shape{64, 32});
  EXPECT_EQ(r.mismatch, "");
  ASSERT_EQ(r.fused_events.size(), 1u) << r.fused_events.begin()->first;
  EXPECT_NE(r.fused_events.begin()->first.find("reduce(all)"), std::string::npos) << r.fused_events.begin()->first;
  EXPECT_EQ(r.fused_dispatches + 1, r.eager_dispatches) << "multiply and add fuse into one kernel";
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
