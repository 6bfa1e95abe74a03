// Numerical definitions: containers of tensors, tracing, and jit (the analogue of Nx's defn).
//
//   auto loss = [](const nxv::Params& p, const nxv::Tensor& x) { return nxv::sum(nxv::dot(x, p.at("w"))); };
//   auto fast = nxv::jit(loss);     // traces once per input signature (structure, shapes, dtypes, backends)
//   nxv::Tensor y = fast(params, x);
//
// A traced function is called on symbolic tensors that record a graph (src/trace/graph.hpp) instead of
// computing; tensors it captures become graph constants. Reading a traced tensor's values (item, to_vector)
// inside it throws nxv::Error. Inputs and outputs may be containers: Tensor, std::vector, std::tuple,
// std::pair, std::map<std::string, T>, nested; specialize nxv::TreeTraits to add your own.
#pragma once
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "nxv/backend.hpp"
#include "nxv/precision.hpp"
#include "nxv/tensor.hpp"

namespace nxv {

// Named parameters, the usual way a model's weights travel.
using Params = std::map<std::string, Tensor>;

// ---- containers -------------------------------------------------------------------------------------------
// The shape of a container of tensors, without the tensors: what flatten() strips and unflatten() restores.
struct Structure {
  enum class Kind : std::uint8_t { tensor, list, tuple, map };
  Kind kind = Kind::tensor;
  std::vector<std::string> keys;    // map keys, in order
  std::vector<Structure> children;  // list, tuple and map elements
  std::size_t leaf_count() const;
  friend bool operator==(const Structure&, const Structure&) = default;
};
// "(Tensor, [Tensor, Tensor], {b: Tensor, w: Tensor})".
std::string to_string(const Structure& s);

// How a C++ type is a container of tensors. flatten appends the leaves in order and returns the structure;
// unflatten rebuilds a value from `structure`, reading leaves from `pos` on.
template <class T>
struct TreeTraits;

namespace detail {
[[noreturn]] void structure_mismatch(const Structure& got, std::string_view expected_kind, std::size_t count = 0);
inline void expect_structure(const Structure& s, Structure::Kind kind, std::string_view name, std::size_t count,
                             bool fixed_count) {
  if (s.kind != kind || (fixed_count && s.children.size() != count)) structure_mismatch(s, name, count);
}
}  // namespace detail

template <>
struct TreeTraits<Tensor> {
  static Structure flatten(const Tensor& t, std::vector<Tensor>& leaves) {
    leaves.push_back(t);
    return {};
  }
  static Tensor unflatten(const Structure& s, std::span<const Tensor> leaves, std::size_t& pos) {
    detail::expect_structure(s, Structure::Kind::tensor, "Tensor", 0, false);
    return leaves[pos++];
  }
};

template <class T>
struct TreeTraits<std::vector<T>> {
  static Structure flatten(const std::vector<T>& v, std::vector<Tensor>& leaves) {
    Structure s{Structure::Kind::list, {}, {}};
    for (const T& x : v) s.children.push_back(TreeTraits<T>::flatten(x, leaves));
    return s;
  }
  static std::vector<T> unflatten(const Structure& s, std::span<const Tensor> leaves, std::size_t& pos) {
    detail::expect_structure(s, Structure::Kind::list, "a list", 0, false);
    std::vector<T> v;
    for (const Structure& c : s.children) v.push_back(TreeTraits<T>::unflatten(c, leaves, pos));
    return v;
  }
};

template <class T>
struct TreeTraits<std::map<std::string, T>> {
  static Structure flatten(const std::map<std::string, T>& m, std::vector<Tensor>& leaves) {
    Structure s{Structure::Kind::map, {}, {}};
    for (const auto& [k, x] : m) {
      s.keys.push_back(k);
      s.children.push_back(TreeTraits<T>::flatten(x, leaves));
    }
    return s;
  }
  static std::map<std::string, T> unflatten(const Structure& s, std::span<const Tensor> leaves, std::size_t& pos) {
    detail::expect_structure(s, Structure::Kind::map, "a map", 0, false);
    std::map<std::string, T> m;
    for (std::size_t i = 0; i < s.children.size(); ++i)
      m.emplace(s.keys[i], TreeTraits<T>::unflatten(s.children[i], leaves, pos));
    return m;
  }
};

template <class... Ts>
struct TreeTraits<std::tuple<Ts...>> {
  static Structure flatten(const std::tuple<Ts...>& t, std::vector<Tensor>& leaves) {
    Structure s{Structure::Kind::tuple, {}, {}};
    std::apply([&](const Ts&... xs) { (s.children.push_back(TreeTraits<Ts>::flatten(xs, leaves)), ...); }, t);
    return s;
  }
  static std::tuple<Ts...> unflatten(const Structure& s, std::span<const Tensor> leaves, std::size_t& pos) {
    detail::expect_structure(s, Structure::Kind::tuple, "a tuple", sizeof...(Ts), true);
    return build(s, leaves, pos, std::index_sequence_for<Ts...>{});
  }

 private:
  template <std::size_t... I>
  static std::tuple<Ts...> build(const Structure& s, std::span<const Tensor> leaves, std::size_t& pos,
                                 std::index_sequence<I...>) {
    return std::tuple<Ts...>{TreeTraits<Ts>::unflatten(s.children[I], leaves, pos)...};  // braces: in order
  }
};

template <class A, class B>
struct TreeTraits<std::pair<A, B>> {
  static Structure flatten(const std::pair<A, B>& p, std::vector<Tensor>& leaves) {
    return TreeTraits<std::tuple<A, B>>::flatten(std::tuple<A, B>(p.first, p.second), leaves);
  }
  static std::pair<A, B> unflatten(const Structure& s, std::span<const Tensor> leaves, std::size_t& pos) {
    auto [a, b] = TreeTraits<std::tuple<A, B>>::unflatten(s, leaves, pos);
    return {std::move(a), std::move(b)};
  }
};

template <class T>
Structure flatten(const T& tree, std::vector<Tensor>& leaves) {
  return TreeTraits<T>::flatten(tree, leaves);
}
// Several values flattened as one tuple (a function's argument list).
template <class... Ts>
Structure flatten_all(std::vector<Tensor>& leaves, const Ts&... xs) {
  Structure s{Structure::Kind::tuple, {}, {}};
  (s.children.push_back(TreeTraits<Ts>::flatten(xs, leaves)), ...);
  return s;
}
// Throws nxv::Error when `leaves` doesn't hold exactly the structure's leaves.
template <class T>
T unflatten(const Structure& s, std::span<const Tensor> leaves) {
  std::size_t pos = 0;
  if (s.leaf_count() != leaves.size()) detail::structure_mismatch(s, "a structure", leaves.size());
  return TreeTraits<T>::unflatten(s, leaves, pos);
}

// ---- compilers ----------------------------------------------------------------------------------------------
// What jit hands a traced graph to. The interface is private (src/trace/compiler.hpp): the library's compilers are
// chosen here, by name.
class Compiler;
struct Graph;  // src/trace/graph.hpp: what a trace records

// Runs the graph op by op through the inputs' backend (on Vulkan, into its batched command stream).
std::shared_ptr<Compiler> evaluator();

// ---- tracing and jit -----------------------------------------------------------------------------------------
struct JitOptions {
  // null: the compiler the inputs' backend registered (include/nxv/backend.hpp): on Vulkan the fusion compiler
  // (nxv::vulkan::compiler()), elsewhere the evaluator. nxv::evaluator() runs op by op everywhere.
  std::shared_ptr<Compiler> compiler;
  // The precision of the dots traced in the function (include/nxv/precision.hpp) where the dot call names none;
  // unset: the calling thread's current_precision(), which is part of what a trace is cached for.
  std::optional<Precision> precision = std::nullopt;
};

// Number of traces jit and trace() have made in this process (tests use it to check caching).
std::uint64_t trace_count();

namespace detail {
// Calls the traced function on `params` (flattened) and flattens its result into `out_structure`.
using FlatFn = std::function<std::vector<Tensor>(std::span<const Tensor> params, Structure& out_structure)>;
bool any_traced(std::span<const Tensor> tensors);

struct TracedGraph {
  std::shared_ptr<const Graph> graph;
  Structure outputs;
};
TracedGraph trace_flat(std::span<const Tensor> inputs, const FlatFn& fn);

// The signature-keyed cache of one jitted function (shared by its copies).
class JitCache {
 public:
  explicit JitCache(JitOptions options);
  ~JitCache();
  // Runs the executable for the inputs' signature, tracing and compiling it first if the signature is new.
  std::vector<Tensor> call(std::span<const Tensor> inputs, const Structure& structure, const FlatFn& fn,
                           Structure& out_structure);
  int trace_count() const;

 private:
  struct Entry;
  JitOptions options_;
  // Calls from several threads take turns: tracing, compiling and running an executable (whose replay buffers
  // are its own) happen one call at a time per jitted function.
  mutable std::mutex mutex_;
  std::vector<std::unique_ptr<Entry>> entries_;
};

template <class... Ts>
using DecayedTuple = std::tuple<std::decay_t<Ts>...>;

template <class F, class... Args>
auto call_on_leaves(F& fn, const Structure& in, std::span<const Tensor> params, Structure& out) {
  auto args = unflatten<DecayedTuple<Args...>>(in, params);
  auto result = std::apply(fn, args);
  std::vector<Tensor> leaves;
  out = TreeTraits<decltype(result)>::flatten(result, leaves);
  return leaves;
}
}  // namespace detail

// The graph of fn traced on tensors like `args` (same structure and types; their values are not read).
struct TracedFunction {
  std::shared_ptr<const Graph> graph;
  Structure inputs, outputs;
};
std::string to_string(const TracedFunction& f);  // the graph, one node per line

template <class F, class... Args>
TracedFunction trace(F fn, const Args&... args) {
  std::vector<Tensor> leaves;
  Structure in = flatten_all(leaves, args...);
  detail::TracedGraph t = detail::trace_flat(leaves, [&](std::span<const Tensor> params, Structure& out) {
    return detail::call_on_leaves<F, Args...>(fn, in, params, out);
  });
  return {std::move(t.graph), std::move(in), std::move(t.outputs)};
}

// fn, traced once per input signature and run by the options' compiler. The container structure of the
// first call is fixed: a later call with another structure throws (a missing or extra parameter is a bug,
// not a reason to recompile); new shapes, dtypes or backends trace again. Called on traced tensors (inside
// another trace) it is inlined into that trace. A jitted function (and its copies, which share the cache) may be
// called from several threads: the calls take turns, so jit one function per thread where they should overlap.
template <class F>
class Jitted {
 public:
  Jitted(F fn, JitOptions options)
      : fn_(std::move(fn)), cache_(std::make_shared<detail::JitCache>(std::move(options))) {}

  template <class... Args>
  auto operator()(const Args&... args) const {
    using Result = std::decay_t<std::invoke_result_t<F&, const std::decay_t<Args>&...>>;
    std::vector<Tensor> leaves;
    const Structure in = flatten_all(leaves, args...);
    if (detail::any_traced(leaves)) return Result(fn_(args...));
    Structure out;
    std::vector<Tensor> results = cache_->call(
        leaves, in,
        [&](std::span<const Tensor> params, Structure& o) {
          return detail::call_on_leaves<F, Args...>(fn_, in, params, o);
        },
        out);
    return unflatten<Result>(out, results);
  }
  // How many times this function (and its copies) has been traced.
  int trace_count() const { return cache_->trace_count(); }

 private:
  mutable F fn_;
  std::shared_ptr<detail::JitCache> cache_;
};

template <class F>
Jitted<F> jit(F fn, JitOptions options = {}) {
  return Jitted<F>(std::move(fn), std::move(options));
}

}  // namespace nxv
