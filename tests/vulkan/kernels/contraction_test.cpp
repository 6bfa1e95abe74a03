// The exact contract survives compilation: no embedded shader's `precise` product and sum were folded into one fma.
// Debian's spirv-opt (glslc -O, SPIRV-Tools 2022.4) drops NoContraction from the copies its loop unroller makes
// and then folds each copied product and sum into an fma, so dot_blocked.comp's exact steps all became fmas (and
// `mid`/`big` were 1 ulp off the reference on GPUs; lavapipe's fma happens to round like a product and a sum).
// cmake/NxvShaders.cmake compiles such shaders UNOPTIMIZED. The check: in a module that writes some step as a
// `precise` product (OpFMul decorated NoContraction), the fmas are no more than those products, since the
// kernels write each fast fma next to its exact product and sum; a folded module has many more.
#include <gtest/gtest.h>

#include <cstring>
#include <set>
#include <string>

#include "vulkan/runtime/shader_registry.hpp"

namespace nxv::vulkan {
namespace {

constexpr std::uint32_t kOpExtInstImport = 11, kOpExtInst = 12, kOpDecorate = 71, kOpFMul = 133;
constexpr std::uint32_t kDecorationNoContraction = 42, kGlslFma = 50;

struct Counts {
  int fmas = 0;              // GLSL.std.450 Fma
  int precise_products = 0;  // OpFMul decorated NoContraction
};

Counts count(std::span<const std::uint32_t> spirv) {
  std::set<std::uint32_t> glsl_sets, no_contraction;
  std::vector<std::uint32_t> products;
  Counts c;
  for (std::size_t i = 5; i < spirv.size() && (spirv[i] >> 16) > 0; i += spirv[i] >> 16) {
    const std::uint32_t op = spirv[i] & 0xffff, words = spirv[i] >> 16;
    if (op == kOpExtInstImport && words >= 3) {
      const char* name = reinterpret_cast<const char*>(&spirv[i + 2]);
      if (std::string(name, strnlen(name, (words - 2) * 4)) == "GLSL.std.450") glsl_sets.insert(spirv[i + 1]);
    } else if (op == kOpDecorate && words >= 3 && spirv[i + 2] == kDecorationNoContraction) {
      no_contraction.insert(spirv[i + 1]);
    } else if (op == kOpFMul && words >= 4) {
      products.push_back(spirv[i + 2]);  // its result id
    } else if (op == kOpExtInst && words >= 5 && glsl_sets.count(spirv[i + 3]) && spirv[i + 4] == kGlslFma) {
      ++c.fmas;
    }
  }
  for (std::uint32_t id : products) c.precise_products += no_contraction.count(id) ? 1 : 0;
  return c;
}

TEST(ShaderContraction, NoPreciseProductWasFoldedIntoAnFma) {
  int checked = 0;
  for (std::string_view name : embedded_shader_names()) {
    const Counts c = count(embedded_shader(name));
    if (c.precise_products == 0) continue;
    ++checked;
    EXPECT_LE(c.fmas, c.precise_products)
        << name << ": " << c.fmas << " fmas against " << c.precise_products
        << " precise products: the optimizer folded exact steps (compile it UNOPTIMIZED, cmake/NxvShaders.cmake)";
  }
  EXPECT_GT(checked, 0) << "no embedded shader has a precise product: the check checked nothing";
}

// The shaders the bug hit keep both forms of every step: as many fmas as precise products, and more than one of
// each (their steps are unrolled by the driver, not by glslc).
TEST(ShaderContraction, TheBlockedDotKernelsKeepEveryExactStep) {
  for (const char* name : {"dot_mid_f32", "dot_big_f32", "dot_mid_f64", "dot_big_f64", "dot_mid_f16", "dot_big_bf16"}) {
    const Counts c = count(embedded_shader(name));
    EXPECT_GT(c.precise_products, 0) << name;
    EXPECT_EQ(c.fmas, c.precise_products) << name;
  }
}

}  // namespace
}  // namespace nxv::vulkan
