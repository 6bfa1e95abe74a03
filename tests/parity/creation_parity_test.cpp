// Parity of the creation ops made on the device: full, iota, eye, and the Philox random numbers (which must
// be bit-identical on every backend).
#include "support/parity.hpp"

namespace nxv::testing {
namespace {

// Creation ops have no tensor inputs: run the same builder on each backend.
void expect_creation_parity(const std::string& cell, const std::function<Tensor(Backend&)>& make) {
  parity_cells().insert(cell);
  const Tensor expected = make(reference_backend());
  Tensor actual;
  const auto fallbacks = fallback::unexplained_by_device(fallback::count([&] { actual = make(vulkan::backend()); }));
  EXPECT_TRUE(fallbacks.empty()) << cell;
  const std::string diff = compare_exact(expected, actual.to_host());
  EXPECT_TRUE(diff.empty()) << cell << ": " << diff;
}

TEST(CreationParity, FullIotaEye) {
  NXV_REQUIRE_VULKAN();
  for (DType t : real_dtypes) {
    const std::string sfx = ":" + std::string(name(t));
    for (double v : {0.0, -0.0, 1.5, -3.0, 300.0, 1e40})
      expect_creation_parity("full" + sfx, [&](Backend& b) { return full({3, 70}, v, t, b); });
    expect_creation_parity("full" + sfx, [&](Backend& b) { return full({0, 4}, 1, t, b); });
    for (int axis : {0, 1, 2})
      expect_creation_parity("iota" + sfx, [&](Backend& b) { return iota({3, 4, 300}, axis, t, b); });
    expect_creation_parity("eye" + sfx, [&](Backend& b) { return eye(5, 7, t, b); });
    expect_creation_parity("eye" + sfx, [&](Backend& b) { return eye(300, -1, t, b); });
  }
}

TEST(CreationParity, RandomIsBitIdenticalOnEveryBackend) {
  NXV_REQUIRE_VULKAN();
  for (DType t : {DType::f32, DType::f64}) {
    const std::string sfx = ":" + std::string(name(t));
    expect_creation_parity("uniform" + sfx, [&](Backend& b) { return uniform(key(42), {1000, 7}, t, -2, 3, b); });
    expect_creation_parity("normal" + sfx, [&](Backend& b) { return normal(key(7), {100001}, t, 1, 2, b); });
    expect_creation_parity("normal" + sfx, [&](Backend& b) { return normal(key(7), {0}, t, 0, 1, b); });
  }
}

}  // namespace
}  // namespace nxv::testing
