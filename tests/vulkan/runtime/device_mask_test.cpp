// NXV_DEVICE_MASK (src/vulkan/runtime/device_mask.cpp): its entries parsed and applied (hidden shader features are
// tested in capabilities_test.cpp), and, in a process run with
// `buffer-range=128MiB` (the `masked_buffer_range` ctest), tensors past the lowered limit refused by name.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "nxv/error.hpp"
#include "nxv/ops.hpp"
#include "support/expect_error.hpp"
#include "support/runtime.hpp"
#include "vulkan/runtime/device_mask.hpp"

namespace nxv::vulkan::test {
namespace {

using nxv::testing::error_of;

constexpr std::uint64_t kMiB = 1 << 20;

TEST(VulkanDeviceMask, ParsesFeaturesAndSizesInBytesKiBMiBGiB) {
  const DeviceMask mask = parse_device_mask("push-descriptors, buffer-range=128MiB");
  EXPECT_TRUE(mask.push_descriptors);
  EXPECT_EQ(mask.buffer_range, 128 * kMiB);
  EXPECT_EQ(mask.entries, "push-descriptors,buffer-range=128MiB");
  EXPECT_EQ(parse_device_mask("buffer-range=4096").buffer_range, 4096u);
  EXPECT_EQ(parse_device_mask("buffer-range=64KiB").buffer_range, 64u << 10);
  EXPECT_EQ(parse_device_mask("buffer-range=2GiB").buffer_range, std::uint64_t{2} << 30);
  EXPECT_EQ(parse_device_mask("buffer-range=1GiB,buffer-range=256MiB").buffer_range, 256 * kMiB) << "the lower one";
  const DeviceMask none = parse_device_mask("");
  EXPECT_FALSE(none.push_descriptors);
  EXPECT_EQ(none.buffer_range, 0u);
  EXPECT_EQ(none.entries, "");
}

TEST(VulkanDeviceMask, HidesShaderFeaturesAndMinimumStandsForAllOfThemAtTheMinimumRange) {
  const DeviceMask some = parse_device_mask("f64,int8");
  EXPECT_TRUE(some.float64);
  EXPECT_TRUE(some.int8);
  EXPECT_FALSE(some.int64 || some.int16 || some.float16 || some.push_descriptors);
  const DeviceMask minimum = parse_device_mask("minimum");
  EXPECT_TRUE(minimum.float64 && minimum.int64 && minimum.int16 && minimum.int8 && minimum.float16 &&
              minimum.push_descriptors);
  EXPECT_EQ(minimum.buffer_range, 128 * kMiB);
  EXPECT_EQ(minimum.shared_memory, 16384u);
  EXPECT_EQ(minimum.invocations, 128u);
  EXPECT_EQ(parse_device_mask("buffer-range=64MiB,minimum").buffer_range, 64 * kMiB) << "never raised";
  EXPECT_EQ(parse_device_mask("minimum,invocations=64").invocations, 64u) << "the lower one";
  EXPECT_EQ(minimum.entries, "minimum");

  DeviceDescription gpu{.float64 = true,
                        .int64 = true,
                        .float16 = true,
                        .int8 = true,
                        .storage8 = true,
                        .int16 = true,
                        .storage16 = true,
                        .cooperative_matrix_f16 = true};
  apply_device_mask(parse_device_mask("int16"), gpu);
  EXPECT_FALSE(gpu.int16 || gpu.storage16 || gpu.cooperative_matrix_f16) << "16-bit storage goes with int16";
  EXPECT_TRUE(gpu.float64 && gpu.int64 && gpu.int8 && gpu.storage8 && gpu.float16);
  apply_device_mask(minimum, gpu);
  EXPECT_FALSE(gpu.float64 || gpu.int64 || gpu.int8 || gpu.storage8 || gpu.float16);
}

TEST(VulkanDeviceMask, MalformedEntriesNameTheSettingAndWhatItAccepts) {
  for (const char* setting : {"buffer-range=", "buffer-range=12XB", "bogus", "buffer-range", "buffer-range=0",
                              "buffer-range=-5", "buffer-range=99999999999GiB", "push-descriptors=1", "fp64",
                              "minimum=1", "invocations=", "invocations=0", "invocations=1KiB", "shared-memory=16QB"}) {
    const std::string error = error_of([&] { parse_device_mask(setting); });
    EXPECT_NE(error.find("NXV_DEVICE_MASK"), std::string::npos) << setting << ": " << error;
    EXPECT_NE(error.find(std::string("'") + setting + "'"), std::string::npos) << setting << ": " << error;
    EXPECT_NE(error.find("push-descriptors, buffer-range=SIZE"), std::string::npos) << setting << ": " << error;
    EXPECT_NE(error.find("KiB, MiB or GiB"), std::string::npos) << setting << ": " << error;
  }
  EXPECT_NE(error_of([] { parse_device_mask("bogus"); }).find("unknown entry"), std::string::npos);
  EXPECT_NE(error_of([] { parse_device_mask("buffer-range=12XB"); }).find("malformed size"), std::string::npos);
  EXPECT_NE(error_of([] { parse_device_mask("invocations=1KiB"); }).find("malformed count"), std::string::npos);
}

TEST(VulkanDeviceMask, LowersLimitsButNeverRaisesThem) {
  const DeviceMask mask = parse_device_mask("push-descriptors,buffer-range=128MiB");
  DeviceDescription gpu{.push_descriptors = true, .max_storage_buffer_range = 0xffffffff};
  apply_device_mask(mask, gpu);
  EXPECT_FALSE(gpu.push_descriptors);
  EXPECT_EQ(gpu.max_storage_buffer_range, 128 * kMiB);
  EXPECT_EQ(gpu.masked, "push-descriptors,buffer-range=128MiB");
  DeviceDescription small{.max_storage_buffer_range = 64 * kMiB};
  apply_device_mask(mask, small);
  EXPECT_EQ(small.max_storage_buffer_range, 64 * kMiB);
  DeviceDescription unmasked{.push_descriptors = true, .max_storage_buffer_range = 0xffffffff};
  apply_device_mask(parse_device_mask(""), unmasked);
  EXPECT_TRUE(unmasked.push_descriptors);
  EXPECT_EQ(unmasked.max_storage_buffer_range, 0xffffffffu);

  DeviceDescription wide{
      .max_workgroup_invocations = 1024, .max_workgroup_size = {1024, 1024, 64}, .max_shared_memory = 49152};
  apply_device_mask(parse_device_mask("minimum"), wide);
  EXPECT_EQ(wide.max_workgroup_invocations, 128u);
  EXPECT_EQ(wide.max_workgroup_size[0], 128u);
  EXPECT_EQ(wide.max_workgroup_size[1], 128u);
  EXPECT_EQ(wide.max_workgroup_size[2], 64u) << "already below the mask";
  EXPECT_EQ(wide.max_shared_memory, 16384u);
  DeviceDescription narrow{.max_workgroup_invocations = 64, .max_shared_memory = 8192};
  apply_device_mask(parse_device_mask("invocations=256,shared-memory=32KiB"), narrow);
  EXPECT_EQ(narrow.max_workgroup_invocations, 64u);
  EXPECT_EQ(narrow.max_shared_memory, 8192u);
}

// ---- run by the `masked_buffer_range` ctest, with NXV_DEVICE_MASK=buffer-range=128MiB ----------------------------

class VulkanMaskedLimits : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!available()) GTEST_SKIP() << "no usable Vulkan device";
    if (device_mask().buffer_range != 128 * kMiB)
      GTEST_SKIP() << "runs with NXV_DEVICE_MASK=buffer-range=128MiB (the masked_buffer_range ctest)";
  }
};

constexpr std::int64_t k200MiBOfF32 = 200 * kMiB / 4, k100MiBOfF32 = 100 * kMiB / 4;

void expect_refusal_naming(const std::string& error, const std::string& op) {
  EXPECT_NE(error.find(op + ": a f32[52428800] tensor needs 209715200 bytes"), std::string::npos) << error;
  EXPECT_NE(error.find("more than the 134217728 bytes"), std::string::npos) << error;
  EXPECT_NE(error.find("maxStorageBufferRange"), std::string::npos) << error;
  EXPECT_NE(error.find("NXV_DEVICE_MASK=buffer-range=128MiB"), std::string::npos) << error;
}

TEST_F(VulkanMaskedLimits, TheRuntimeSeesTheLoweredRange) {
  EXPECT_LE(runtime().features().max_storage_buffer_range, 128 * kMiB);
  EXPECT_LE(runtime().features().max_buffer_bytes, 128 * kMiB);
  const std::string error = error_of([] { runtime().allocate(128 * kMiB + 4); });
  EXPECT_NE(error.find("cannot allocate a buffer of 134217732 bytes"), std::string::npos) << error;
}

TEST_F(VulkanMaskedLimits, A200MiBUploadIsRefusedNamingTheLimit) {
  const std::vector<float> values(static_cast<std::size_t>(k200MiBOfF32), 1.0f);
  expect_refusal_naming(error_of([&] { nxv::tensor(values, {k200MiBOfF32}, backend()); }), "vulkan upload");
}

TEST_F(VulkanMaskedLimits, A200MiBTensorCreatedOnTheDeviceIsRefusedNamingTheLimit) {
  expect_refusal_naming(error_of([] { nxv::zeros({k200MiBOfF32}, DType::f32, backend()); }), "full");
}

TEST_F(VulkanMaskedLimits, A100MiBTensorUploadsComputesAndDownloads) {
  std::vector<float> values(static_cast<std::size_t>(k100MiBOfF32));
  for (std::size_t i = 0; i < values.size(); ++i) values[i] = static_cast<float>(i % 1000);
  const Tensor x = nxv::tensor(values, {k100MiBOfF32}, backend());
  const std::vector<float> y = (x + 1.0).to_vector<float>();
  ASSERT_EQ(y.size(), values.size());
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < values.size(); ++i) wrong += y[i] != values[i] + 1.0f;
  EXPECT_EQ(wrong, 0u) << "of " << values.size() << " elements";
}

}  // namespace
}  // namespace nxv::vulkan::test
