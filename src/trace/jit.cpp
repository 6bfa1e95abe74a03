// jit: trace once per input signature, compile the graph, cache the executable; and the evaluator compiler.
#include <atomic>
#include <iostream>
#include <sstream>
#include <string_view>

#include "core/registry.hpp"
#include "core/settings.hpp"
#include "nxv/defn.hpp"
#include "trace/compiler.hpp"
#include "trace/control_flow.hpp"
#include "trace/evaluate.hpp"
#include "trace/tracer.hpp"

namespace nxv {

namespace {

std::atomic<std::uint64_t> traces_made{0};

void write_structure(std::ostream& s, const Structure& st, std::span<const TensorType> types, std::size_t& leaf) {
  auto children = [&](const char* open, const char* close) {
    s << open;
    for (std::size_t i = 0; i < st.children.size(); ++i) {
      s << (i ? ", " : "");
      if (st.kind == Structure::Kind::map) s << st.keys[i] << ": ";
      write_structure(s, st.children[i], types, leaf);
    }
    s << close;
  };
  switch (st.kind) {
    case Structure::Kind::tensor:
      s << (leaf < types.size() ? to_string(types[leaf]) : "Tensor");
      ++leaf;
      break;
    case Structure::Kind::list:
      children("[", "]");
      break;
    case Structure::Kind::tuple:
      children("(", ")");
      break;
    case Structure::Kind::map:
      children("{", "}");
      break;
  }
}

bool debug_printing() { return settings::flag(settings::Id::DEBUG); }

// The evaluator's executable: the graph, with its captured constants moved once to the backend it runs on.
class EvaluatorExecutable final : public Executable {
 public:
  explicit EvaluatorExecutable(const Graph& graph) : graph_(graph) {}
  std::vector<Tensor> run(std::span<const Tensor> inputs) override {
    if (!constants_placed_) {
      place_constants(graph_, evaluation_backend(inputs));
      constants_placed_ = true;
    }
    return evaluate(graph_, inputs);
  }

 private:
  Graph graph_;
  bool constants_placed_ = false;
};

class EvaluatorCompiler final : public Compiler {
 public:
  std::unique_ptr<Executable> compile(const Graph& graph, const Signature&) override {
    return std::make_unique<EvaluatorExecutable>(graph);
  }
};

Signature signature_of(std::span<const Tensor> inputs, const Structure& structure) {
  Signature sig{structure, {}, {}, {}};
  for (const Tensor& t : inputs) {
    sig.types.push_back(t.type());
    sig.weak.push_back(t.weak());
    sig.backends.push_back(&t.backend());
  }
  return sig;
}

}  // namespace

std::size_t Structure::leaf_count() const {
  if (kind == Kind::tensor) return 1;
  std::size_t n = 0;
  for (const Structure& c : children) n += c.leaf_count();
  return n;
}

std::string to_string(const Structure& s) {
  std::ostringstream out;
  std::size_t leaf = 0;
  write_structure(out, s, {}, leaf);
  return out.str();
}

std::string to_string(const Signature& sig) {
  std::ostringstream out;
  std::size_t leaf = 0;
  write_structure(out, sig.structure, sig.types, leaf);
  if (!sig.backends.empty()) out << " on " << sig.backends[0]->name();
  return out.str();
}

std::string to_string(const TracedFunction& f) { return to_string(*f.graph); }

std::shared_ptr<Compiler> evaluator() {
  static const std::shared_ptr<Compiler> instance = std::make_shared<EvaluatorCompiler>();
  return instance;
}

std::uint64_t trace_count() { return traces_made.load(); }

namespace detail {

[[noreturn]] void structure_mismatch(const Structure& got, std::string_view expected_kind, std::size_t count) {
  if (expected_kind == "a structure")
    fail("unflatten: structure ", to_string(got), " has ", got.leaf_count(), " tensors but ", count, " were given");
  fail("unflatten: expected ", expected_kind, count ? " of " + std::to_string(count) + " elements" : std::string(),
       ", got the structure ", to_string(got));
}

bool any_traced(std::span<const Tensor> tensors) { return innermost_tracer(tensors) != nullptr; }

TracedGraph trace_flat(std::span<const Tensor> inputs, const FlatFn& fn) {
  TraceScope scope;
  std::vector<Tensor> params;
  for (const Tensor& t : inputs) {
    NXV_CHECK(t.defined(), "trace", "got an undefined (default-constructed) input tensor");
    params.push_back(scope.tracer().parameter(t));
  }
  Structure outputs;
  const std::vector<Tensor> results = fn(params, outputs);
  ++traces_made;
  return {std::make_shared<const Graph>(scope.tracer().finish(results)), std::move(outputs)};
}

struct JitCache::Entry {
  Signature signature;
  std::shared_ptr<const Graph> graph;
  Structure outputs;
  std::unique_ptr<Executable> executable;
};

JitCache::JitCache(JitOptions options) : options_(std::move(options)) {}
JitCache::~JitCache() = default;

int JitCache::trace_count() const {
  const std::lock_guard lock(mutex_);
  return static_cast<int>(entries_.size());
}

std::vector<Tensor> JitCache::call(std::span<const Tensor> inputs, const Structure& structure, const FlatFn& fn,
                                   Structure& out_structure) {
  const std::lock_guard lock(mutex_);
  Signature sig = signature_of(inputs, structure);
  sig.precision = options_.precision.value_or(current_precision());
  if (!entries_.empty() && entries_[0]->signature.structure != structure)
    fail("jit: called with inputs structured as ", to_string(sig), ", but this function was traced with ",
         to_string(entries_[0]->signature),
         "; a jitted function keeps the container structure of its first call (jit it again for another)");
  Entry* entry = nullptr;
  for (const auto& e : entries_)
    if (e->signature == sig) entry = e.get();
  if (!entry) {
    const PrecisionScope scope(sig.precision);
    TracedGraph traced = trace_flat(inputs, fn);
    if (debug_printing()) std::cerr << "nxv jit: compiling " << to_string(sig) << "\n" << to_string(*traced.graph);
    // Without a compiler named in the options, the one the inputs' backend registered (on Vulkan the fusion
    // compiler, which on the H200 was never slower than op by op on any benchmark step: bench/RESULTS.md).
    std::shared_ptr<Compiler> compiler = options_.compiler;
    if (!compiler) compiler = detail::registered_compiler(sig.backends.empty() ? default_backend() : *sig.backends[0]);
    if (!compiler) compiler = evaluator();
    auto executable = compiler->compile(*traced.graph, sig);
    entries_.push_back(std::make_unique<Entry>(
        Entry{std::move(sig), std::move(traced.graph), std::move(traced.outputs), std::move(executable)}));
    entry = entries_.back().get();
  }
  out_structure = entry->outputs;
  return entry->executable->run(inputs);
}

}  // namespace detail
}  // namespace nxv
