// The backend registry (include/nxv/backend.hpp): the built-in backends, lookup by name, NXV_BACKEND, and the
// compiler jit takes from the inputs' backend.
#include <gtest/gtest.h>

#include "nxv/defn.hpp"
#include "nxv/ops.hpp"
#include "nxv/vulkan.hpp"
#include "support/env.hpp"
#include "trace/compiler.hpp"

namespace nxv {
namespace {

using nxv::test::EnvGuard;

// A backend that runs everything on the reference backend under another name, and a compiler that counts.
class RenamedBackend final : public Backend {
 public:
  std::string_view name() const override { return "registry_test"; }
  std::shared_ptr<Storage> upload(std::span<const std::byte> bytes, const TensorType& type) override {
    return reference_backend().upload(bytes, type);
  }
  void download(const Tensor& t, std::span<std::byte> dst) override { reference_backend().download(t, dst); }
  std::shared_ptr<Storage> execute(const OpCall& call, std::span<const Tensor> inputs, const TensorType& out) override {
    return reference_backend().execute(call, inputs, out);
  }
};

struct CountingCompiler final : Compiler {
  int compiled = 0;
  std::unique_ptr<Executable> compile(const Graph& g, const Signature& s) override {
    ++compiled;
    return evaluator()->compile(g, s);
  }
};

RenamedBackend& renamed() {
  static RenamedBackend backend;
  return backend;
}
std::shared_ptr<CountingCompiler>& counting() {
  static auto compiler = std::make_shared<CountingCompiler>();
  return compiler;
}

// Registers the test backend once per process (the registry refuses a second backend of one name).
void register_test_backend() {
  static const bool registered = [] {
    register_backend({.name = "registry_test",
                      .priority = -1,
                      .available = [] { return true; },
                      .get = []() -> Backend& { return renamed(); },
                      .compiler = [] { return std::static_pointer_cast<Compiler>(counting()); }});
    return true;
  }();
  (void)registered;
}

TEST(Registry, ListsTheBuiltInBackendsByPriority) {
  const std::vector<BackendInfo> backends = registered_backends();
  ASSERT_GE(backends.size(), 2u);
  EXPECT_EQ(backends[0].name, "vulkan");
  EXPECT_EQ(backends[1].name, "reference");
  for (std::size_t i = 1; i < backends.size(); ++i) EXPECT_GE(backends[i - 1].priority, backends[i].priority);
  EXPECT_EQ(&backend("reference"), &reference_backend());
  EXPECT_EQ(backends[0].available(), vulkan::available());
}

TEST(Registry, AnUnknownNameIsAnErrorListingTheRegisteredOnes) {
  try {
    backend("cuda");
    FAIL() << "expected nxv::Error";
  } catch (const Error& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("no backend named 'cuda'"), std::string::npos) << m;
    EXPECT_NE(m.find("reference"), std::string::npos) << m;
    EXPECT_NE(m.find("vulkan"), std::string::npos) << m;
  }
}

TEST(Registry, ASecondBackendOfOneNameIsRefused) {
  EXPECT_THROW(register_backend({.name = "reference",
                                 .available = [] { return true; },
                                 .get = []() -> Backend& { return reference_backend(); }}),
               Error);
  EXPECT_THROW(register_backend({.name = "incomplete"}), Error);
}

TEST(Registry, NxvBackendChoosesTheDefault) {
  {
    const EnvGuard g("NXV_BACKEND", std::nullopt);
    EXPECT_EQ(&default_backend(), &reference_backend());
  }
  {
    const EnvGuard g("NXV_BACKEND", "reference");
    EXPECT_EQ(&default_backend(), &reference_backend());
  }
  if (vulkan::available()) {
    const EnvGuard g("NXV_BACKEND", "auto");
    EXPECT_EQ(&default_backend(), &vulkan::backend()) << "auto: the available backend of the highest priority";
  }
  const EnvGuard g("NXV_BACKEND", "nonsense");
  EXPECT_THROW(default_backend(), Error);
}

TEST(Registry, JitTakesTheCompilerOfTheInputsBackend) {
  register_test_backend();
  EXPECT_EQ(&backend("registry_test"), &renamed());
  const int before = counting()->compiled;
  auto f = jit([](const Tensor& x) { return x * 2.0; });
  const Tensor x = full({3}, 1.5, DType::f32, renamed());
  const Tensor y = f(x);
  EXPECT_EQ(counting()->compiled, before + 1) << "the registered compiler of the inputs' backend";
  EXPECT_EQ(y.to_host().to_vector<float>(), (std::vector<float>{3, 3, 3}));
  // A compiler named in the options wins over the registered one.
  auto g = jit([](const Tensor& x) { return x * 3.0; }, {.compiler = evaluator()});
  (void)g(x);
  EXPECT_EQ(counting()->compiled, before + 1);
}

}  // namespace
}  // namespace nxv
