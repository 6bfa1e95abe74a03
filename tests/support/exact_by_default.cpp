// The test binary's default precision is exact (include/nxv/precision.hpp) unless NXV_PRECISION says otherwise:
// the parity suites compare the Vulkan backend with the reference bit for bit, which is the exact mode's promise;
// the fast mode's tests (tests/vulkan/kernels/dot_fast_test.cpp) name their mode. Linked into nxv_tests by
// tests/CMakeLists.txt (it holds no test, so the *_test.cpp glob does not find it).
#include "core/settings.hpp"
#include "nxv/precision.hpp"

namespace {

const bool exact_by_default = [] {
  if (!nxv::settings::is_set(nxv::settings::Id::PRECISION)) nxv::set_default_precision(nxv::Precision::exact);
  return true;
}();

}  // namespace
