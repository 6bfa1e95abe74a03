// With NXV_VALIDATION=1 (VK_LAYER_KHRONOS_validation on; each message is printed to stderr as it happens, see
// src/vulkan/runtime/context.cpp), every test is watched: a test during which the layer reports a warning or an
// error is named, and the run fails at its end listing them. Which tests to watch is decided by what they touch,
// not by their names: a test reached the Vulkan runtime when its dispatches, submits or transfers changed, and
// the closing line counts those tests, so a pass that watched nothing shows it.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <vector>

#include "nxv/vulkan.hpp"
#include "vulkan/runtime/diagnostics.hpp"

namespace {

std::uint64_t vulkan_activity() {
  const nxv::vulkan::Counters c = nxv::vulkan::counters();
  return c.dispatches + c.submits + c.bytes_uploaded + c.bytes_downloaded + c.replays;
}

struct Watch {
  int tests_on_vulkan = 0, tests = 0;
  std::uint64_t messages_in_tests = 0;
  std::vector<std::string> noisy_tests;  // "Suite.Test (n messages)"
};

Watch& watch() {
  static Watch w;
  return w;
}

class ValidationListener : public ::testing::EmptyTestEventListener {
 public:
  void OnTestStart(const ::testing::TestInfo&) override {
    activity_ = vulkan_activity();
    messages_ = nxv::vulkan::validation_messages();
  }
  void OnTestEnd(const ::testing::TestInfo& info) override {
    ++watch().tests;
    if (vulkan_activity() == activity_) return;  // never reached the runtime: nothing for the layer to see
    ++watch().tests_on_vulkan;
    nxv::vulkan::flush();  // messages about pending work arrive when it is submitted
    if (const std::uint64_t n = nxv::vulkan::validation_messages() - messages_; n != 0) {
      const std::string name = std::string(info.test_suite_name()) + "." + info.name();
      std::fprintf(stderr, "nxv validation: %llu message(s) during %s\n", static_cast<unsigned long long>(n),
                   name.c_str());
      watch().noisy_tests.push_back(name + " (" + std::to_string(n) + " messages)");
      watch().messages_in_tests += n;
    }
  }

 private:
  std::uint64_t activity_ = 0, messages_ = 0;
};

class ValidationEnvironment : public ::testing::Environment {
 public:
  void SetUp() override {
    if (nxv::vulkan::validation_requested())
      ::testing::UnitTest::GetInstance()->listeners().Append(new ValidationListener);
  }
  void TearDown() override {
    if (!nxv::vulkan::validation_requested()) return;
    const Watch& w = watch();
    std::fprintf(stderr, "nxv validation: %d of %d tests reached the Vulkan runtime; %zu reported messages\n",
                 w.tests_on_vulkan, w.tests, w.noisy_tests.size());
    std::string list;
    for (const std::string& t : w.noisy_tests) list += "\n  " + t;
    if (!w.noisy_tests.empty())
      ADD_FAILURE() << "the Vulkan validation layer reported warnings/errors (printed above) during:" << list;
    // Messages outside any test (start-up, work a test left pending) still fail the run.
    if (w.tests_on_vulkan > 0) nxv::vulkan::flush();
    if (const std::uint64_t n = nxv::vulkan::validation_messages(); n > w.messages_in_tests)
      ADD_FAILURE() << "the Vulkan validation layer reported " << n - w.messages_in_tests
                    << " warnings/errors outside the tests";
  }
};

[[maybe_unused]] ::testing::Environment* const g_validation_environment =
    ::testing::AddGlobalTestEnvironment(new ValidationEnvironment);

}  // namespace
