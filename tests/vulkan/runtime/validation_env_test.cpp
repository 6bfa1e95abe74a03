// With NXV_VALIDATION=1, fails the test run if VK_LAYER_KHRONOS_validation reported any warning or error
// (each is printed to stderr as it happens; see src/vulkan/runtime/context.cpp).
#include <gtest/gtest.h>

#include "nxv/vulkan.hpp"
#include "vulkan/runtime/diagnostics.hpp"

namespace {

class ValidationEnvironment : public ::testing::Environment {
 public:
  void TearDown() override {
    if (!nxv::vulkan::validation_requested()) return;
    nxv::vulkan::flush();  // messages about pending work arrive when it is submitted
    if (const auto n = nxv::vulkan::validation_messages(); n != 0)
      ADD_FAILURE() << "the Vulkan validation layer reported " << n << " warnings/errors (printed above)";
  }
};

[[maybe_unused]] ::testing::Environment* const g_validation_environment =
    ::testing::AddGlobalTestEnvironment(new ValidationEnvironment);

}  // namespace
