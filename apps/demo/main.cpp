// nxv-demo: the library's main job on one screen. Runs a few ops on the Vulkan backend of the default device and on
// the reference (CPU) backend, prints both results, says whether they agree, and prints how many ops fell back to
// the reference backend. Exit status: 0 when every op agrees, 1 on a disagreement or without a Vulkan device.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "core/settings.hpp"
#include "nxv/fallback.hpp"
#include "nxv/ops.hpp"
#include "nxv/vulkan.hpp"

namespace {

constexpr const char* kUsage =
    "usage: nxv-demo [--help]\n"
    "Runs add, multiply, exp, sum, dot and transpose on the Vulkan backend of the default device and on the\n"
    "reference backend, prints both results and whether they agree, and the number of fallbacks.\n"
    "Exits 1 if any result disagrees or there is no usable Vulkan device.\n"
    "The device is chosen by NXV_DEVICE (an index or a name substring; `nxv-info` lists them).\n";

struct DemoOp {
  const char* name;
  // 0: the results must be bit-identical. Otherwise |vulkan - reference| <= tolerance * max(1, |reference|):
  // exp, sum and dot may round differently (a different exp polynomial, a different summation order).
  double tolerance;
  std::function<nxv::Tensor(nxv::Backend&)> run;
};

nxv::Tensor x_on(nxv::Backend& b) { return nxv::tensor<float>({-1.5f, -0.25f, 0.0f, 0.5f, 1.0f, 2.75f}, {2, 3}, b); }
nxv::Tensor y_on(nxv::Backend& b) { return nxv::tensor<float>({3.0f, -2.0f, 0.125f, 4.0f, -0.5f, 10.0f}, {2, 3}, b); }
nxv::Tensor w_on(nxv::Backend& b) { return nxv::tensor<float>({1.0f, 0.5f, -2.0f, 0.25f, 3.0f, -1.0f}, {3, 2}, b); }

std::vector<DemoOp> demo_ops() {
  return {
      {"add(x, y)", 0, [](nxv::Backend& b) { return nxv::add(x_on(b), y_on(b)); }},
      {"multiply(x, y)", 0, [](nxv::Backend& b) { return nxv::multiply(x_on(b), y_on(b)); }},
      {"exp(x)", 1e-6, [](nxv::Backend& b) { return nxv::exp(x_on(b)); }},
      {"sum(x, axes=[1])", 1e-6, [](nxv::Backend& b) { return nxv::sum(x_on(b), nxv::Axes{1}); }},
      {"dot(x, w)", 1e-6, [](nxv::Backend& b) { return nxv::dot(x_on(b), w_on(b)); }},
      {"transpose(x)", 0, [](nxv::Backend& b) { return nxv::transpose(x_on(b)); }},
  };
}

// Tensor::to_string on one line: "f32[2, 2] [[1, 2], [3, 4]]".
std::string one_line(const nxv::Tensor& t) {
  const std::string text = t.to_string();
  std::string line;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '\n')
      line += text[i];
    else if (i + 1 < text.size() && text[i + 1] != ' ')
      line += ' ';  // rows continue with " ["
  }
  return line;
}

// Compares two f32 results; returns whether they agree and describes how.
bool agree(const nxv::Tensor& vulkan, const nxv::Tensor& reference, double tolerance, std::string* how) {
  if (vulkan.type() != reference.type()) {
    *how = "DIFFERENT TYPES: " + nxv::to_string(vulkan.type()) + " vs " + nxv::to_string(reference.type());
    return false;
  }
  const std::vector<float> v = vulkan.to_vector<float>(), r = reference.to_vector<float>();
  bool identical = true;
  double worst = 0;  // the largest |v - r| / max(1, |r|)
  for (std::size_t i = 0; i < v.size(); ++i) {
    identical = identical && std::memcmp(&v[i], &r[i], sizeof(float)) == 0;
    worst = std::max(worst, std::abs(double(v[i]) - double(r[i])) / std::max(1.0, std::abs(double(r[i]))));
  }
  char buf[160];
  if (identical) {
    *how = "bit-identical";
  } else if (worst <= tolerance) {
    std::snprintf(buf, sizeof buf, "agree within %g (largest relative difference %.3g)", tolerance, worst);
    *how = buf;
  } else {
    std::snprintf(buf, sizeof buf, "DISAGREE: largest relative difference %.3g, allowed %s", worst,
                  tolerance == 0 ? "none (must be bit-identical)" : std::to_string(tolerance).c_str());
    *how = buf;
  }
  return identical || worst <= tolerance;
}

int run_demo() {
  if (!nxv::vulkan::available()) {
    std::fprintf(stderr,
                 "nxv-demo: no usable Vulkan device. `nxv-info` lists the devices and why each is unusable; without "
                 "a GPU, install mesa-vulkan-drivers (lavapipe, Vulkan on the CPU).\n");
    return 1;
  }
  std::string reason;
  const int index = nxv::vulkan::pick_device(&reason);
  const nxv::vulkan::DeviceDescription device = nxv::vulkan::list_devices().at(static_cast<std::size_t>(index));
  std::printf("Vulkan device %d: %s [%s]\n  picked as %s\n\n", index, device.name.c_str(), device.type.c_str(),
              reason.c_str());

  nxv::Backend& vulkan = nxv::vulkan::backend();
  nxv::Backend& reference = nxv::reference_backend();
  std::printf("x = %s\ny = %s\nw = %s\n\n", one_line(x_on(reference)).c_str(), one_line(y_on(reference)).c_str(),
              one_line(w_on(reference)).c_str());

  int disagreements = 0;
  std::uint64_t fallbacks = 0;
  for (const DemoOp& op : demo_ops()) {
    nxv::Tensor on_vulkan;
    const nxv::fallback::Counts fell_back = nxv::fallback::count([&] { on_vulkan = op.run(vulkan); });
    const nxv::Tensor on_reference = op.run(reference);
    std::string how;
    if (!agree(on_vulkan, on_reference, op.tolerance, &how)) ++disagreements;
    std::printf("%s\n  vulkan:    %s\n  reference: %s\n  -> %s\n", op.name, one_line(on_vulkan).c_str(),
                one_line(on_reference).c_str(), how.c_str());
    for (const auto& [event, n] : fell_back) {
      std::printf("  fell back to the reference backend: %s (x%llu)\n", event.c_str(),
                  static_cast<unsigned long long>(n));
      fallbacks += n;
    }
  }

  nxv::vulkan::flush();
  const nxv::vulkan::Counters counters = nxv::vulkan::counters();
  std::printf("\nVulkan: %llu dispatches in %llu submits; fallbacks to the reference backend: %llu\n",
              static_cast<unsigned long long>(counters.dispatches), static_cast<unsigned long long>(counters.submits),
              static_cast<unsigned long long>(fallbacks));
  if (disagreements > 0) {
    std::fprintf(stderr, "nxv-demo: %d of %zu ops disagree between the Vulkan and reference backends\n", disagreements,
                 demo_ops().size());
    return 1;
  }
  std::printf("nxv-demo: all %zu ops agree\n", demo_ops().size());
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--help") == 0 || std::strcmp(argv[i], "-h") == 0) {
      std::fputs(kUsage, stdout);
      return 0;
    }
    std::fprintf(stderr, "nxv-demo: unknown argument '%s'\n%s", argv[i], kUsage);
    return 2;
  }
  try {
    nxv::settings::check_all();
    return run_demo();
  } catch (const nxv::Error& e) {
    std::fprintf(stderr, "nxv-demo: %s\n", e.what());
    return 1;
  }
}
