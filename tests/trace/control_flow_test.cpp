// Control flow (include/nxv/control_flow.hpp) on the reference backend: loop and conditional semantics, containers,
// long and nested loops, eager = traced, the recorded node and its printing, and the errors.
#include <gtest/gtest.h>

#include <cmath>

#include "nxv/control_flow.hpp"
#include "nxv/grad.hpp"
#include "nxv/ops.hpp"
#include "nxv/vectorize.hpp"
#include "support/env.hpp"
#include "trace/control_flow.hpp"
#include "trace/graph.hpp"

namespace nxv {
namespace {

Tensor vec(const std::vector<float>& v) {
  return tensor(v, {static_cast<std::int64_t>(v.size())}, reference_backend());
}

void expect_bits(const Tensor& a, const Tensor& b) {
  ASSERT_EQ(a.type(), b.type());
  EXPECT_EQ(as_type(a, DType::f64).to_host().to_vector<double>(), as_type(b, DType::f64).to_host().to_vector<double>());
}

template <class E>
void expect_error(const std::function<void()>& f, const std::vector<std::string>& parts) {
  try {
    f();
    ADD_FAILURE() << "expected an nxv::Error";
  } catch (const E& e) {
    const std::string what = e.what();
    for (const std::string& p : parts)
      EXPECT_NE(what.find(p), std::string::npos) << "missing '" << p << "' in: " << what;
  }
}

// sum of i for i in [lo, hi), with the counter cast into the carry's dtype.
Tensor counter_sum(std::int64_t lo, std::int64_t hi, const Tensor& init) {
  return fori_loop(
      lo, hi, [](const Tensor& i, const Tensor& c) { return c + as_type(i, c.dtype()); }, init);
}

// A while_loop on a device, `checks` condition checks long, in chunks by next_while_chunk: {guarded iterations
// run, read-backs}.
std::pair<std::int64_t, std::int64_t> while_on_device(std::int64_t checks, std::int64_t stages) {
  std::int64_t run = 0, reads = 0;
  for (std::int64_t k = 1; run < checks; k = next_while_chunk(k, run, stages)) {
    run += k;
    ++reads;
  }
  return {run, reads};
}

TEST(ControlFlow, WhileChunksWeighReadBacksAgainstWastedIterations) {
  // Unknown steps: chunks double to 64 (a 33-check loop runs 63 iterations in 6 read-backs).
  EXPECT_EQ(while_on_device(33, 0), std::make_pair(std::int64_t{63}, std::int64_t{6}));
  for (std::int64_t stages : {0, 1, 3, 100, 1000})
    for (std::int64_t k : {1, 2, 5, 64})
      for (std::int64_t done : {1, 10, 1000, 1000000}) {
        const std::int64_t next = next_while_chunk(k, done, stages);
        EXPECT_GE(next, 1);
        EXPECT_LE(next, std::min<std::int64_t>(2 * k, 64)) << stages << " " << k << " " << done;
      }
  // A costly step (a NUTS transition's ~100 stages): nearly no iteration wasted, a read-back each.
  const auto [nuts_run, nuts_reads] = while_on_device(33, 100);
  EXPECT_LE(nuts_run, 35);
  EXPECT_GE(nuts_reads, 25);
  // A one-stage step still reads back rarely on a long loop: every 64 iterations in the end.
  EXPECT_EQ(next_while_chunk(64, 100000, 1), 64);
  const auto [long_run, long_reads] = while_on_device(100000, 1);
  EXPECT_LT(long_run - 100000, 64);
  EXPECT_LT(long_reads, 100000 / 64 + 20);
  // Cheaper steps take longer chunks at the same point.
  EXPECT_LE(next_while_chunk(64, 100, 100), next_while_chunk(64, 100, 10));
  EXPECT_LE(next_while_chunk(64, 100, 10), next_while_chunk(64, 100, 1));
}

// Calls of one compiled while_loop as run_while makes them, its WhileHistory carried from call to call: {guarded
// iterations run, read-backs} of a call of `checks` condition checks.
std::pair<std::int64_t, std::int64_t> while_again(WhileHistory& h, std::int64_t checks, std::int64_t stages) {
  const std::int64_t first = h.first_chunk;
  std::int64_t run = 0, reads = 0;
  for (std::int64_t k = first;; k = next_while_chunk(k, run, stages)) {
    ++reads;
    if (run + k >= checks) {
      h.first_chunk = next_first_while_chunk(first, run, k);
      return {run + k, reads};
    }
    run += k;
  }
}

TEST(ControlFlow, AWhileLoopOfSteadyLengthReadsBackLessOnLaterCalls) {
  // NUTS over many chains: the longest trajectory of a transition, ~15 leapfrog rounds, a step of ~100 stages.
  WhileHistory h;
  const auto [first_run, first_reads] = while_again(h, 16, 100);
  EXPECT_EQ(first_run, 16);
  EXPECT_EQ(first_reads, 16) << "no history: a read-back per iteration";
  EXPECT_EQ(h.first_chunk, 12) << "4/5 of the 16 checks it needed";
  for (int call = 0; call < 5; ++call) {
    const auto [run, reads] = while_again(h, 16, 100);
    EXPECT_EQ(run, 16) << "no iteration wasted";
    EXPECT_LE(reads, 5);
  }
  // A shorter loop than the history says: the chunk past its end is wasted once, and the history shrinks.
  const auto [short_run, short_reads] = while_again(h, 4, 100);
  EXPECT_EQ(short_reads, 1);
  EXPECT_GT(short_run, 4);
  EXPECT_LT(h.first_chunk, short_run);
  for (int call = 0; call < 8; ++call) while_again(h, 4, 100);
  EXPECT_LE(h.first_chunk, 4) << "back within what the loop needs";
  // Bounds: at least 1, at most kMaxFirstWhileChunk, for any run.
  for (std::int64_t first : {1, 7, 256})
    for (std::int64_t before : {0, 1, 30, 100000})
      for (std::int64_t last : {1, 2, 64}) {
        const std::int64_t next = next_first_while_chunk(first, before, last);
        EXPECT_GE(next, 1);
        EXPECT_LE(next, kMaxFirstWhileChunk);
      }
  EXPECT_EQ(next_first_while_chunk(1, 0, 1), 1) << "a one-check loop stays at 1";
}

TEST(ControlFlow, ForiLoopAddsItsCounter) {
  EXPECT_EQ(counter_sum(0, 10, scalar(0, DType::s64, reference_backend())).item(), 45.0);
  EXPECT_EQ(counter_sum(-3, 2, scalar(0, DType::s64, reference_backend())).item(), -5.0);
}

TEST(ControlFlow, ZeroIterationsReturnTheInit) {
  const Tensor x = vec({1.5f, -2.0f});
  expect_bits(counter_sum(4, 4, x), x);
  expect_bits(counter_sum(4, 1, x), x);  // hi < lo: no iteration either
  const Tensor w =
      while_loop([](const Tensor& c) { return less(sum(c), -100.0); }, [](const Tensor& c) { return c * 2.0; }, x);
  expect_bits(w, x);
  const auto [c, ys] = scan([](const Tensor& a, const Tensor& r) { return std::pair(a + sum(r), r * 2.0); },
                            scalar(1.0), zeros({0, 3}, DType::f32, reference_backend()));
  EXPECT_EQ(c.item(), 1.0);
  EXPECT_EQ(ys.shape(), (Shape{0, 3}));
}

TEST(ControlFlow, WhileLoopRunsUntilItsConditionFails) {
  const Tensor n =
      while_loop([](const Tensor& c) { return less(c, 10.0); }, [](const Tensor& c) { return c + 3.0; }, scalar(0.0));
  EXPECT_EQ(n.item(), 12.0);
}

TEST(ControlFlow, HundredThousandIterations) {
  const Tensor n = counter_sum(0, 100000, scalar(0, DType::s64, reference_backend()));
  EXPECT_EQ(n.item(), 4999950000.0);
  const Tensor w = while_loop([](const Tensor& c) { return less(c, 100000.0); },
                              [](const Tensor& c) { return c + 1.0; }, scalar(0.0, DType::f64, reference_backend()));
  EXPECT_EQ(w.item(), 100000.0);
}

TEST(ControlFlow, NestedLoops) {
  // sum over i < 4, j < i of (i * 10 + j), inner loop bounds fixed at 5 but guarded by a cond on j < i.
  auto outer = [](const Tensor& init) {
    return fori_loop(
        0, 4,
        [](const Tensor& i, const Tensor& acc) {
          return fori_loop(
              0, 5,
              [&](const Tensor& j, const Tensor& a) {
                return cond(
                    less(j, i), [&](const Tensor& x) { return x + i * 10 + j; }, [](const Tensor& x) { return x; }, a);
              },
              acc);
        },
        init);
  };
  const Tensor zero = scalar(0, DType::s64, reference_backend());
  std::int64_t want = 0;
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < i; ++j) want += i * 10 + j;
  EXPECT_EQ(outer(zero).item(), static_cast<double>(want));
  expect_bits(jit(outer)(zero), outer(zero));
}

TEST(ControlFlow, CarriesSeveralDtypesInAContainer) {
  using Carry = std::tuple<Tensor, Tensor, std::map<std::string, Tensor>>;
  auto body = [](const Tensor& i, const Carry& c) {
    const auto& [x, n, m] = c;
    return Carry{x * 1.5f,
                 n + as_type(i, DType::s32),
                 {{"flag", logical_not(m.at("flag"))}, {"acc", m.at("acc") + as_type(x, DType::f64)}}};
  };
  const Carry init{
      vec({1.0f, 2.0f}),
      scalar(0, DType::s32, reference_backend()),
      {{"flag", scalar(1, DType::pred, reference_backend())}, {"acc", zeros({2}, DType::f64, reference_backend())}}};
  const Carry eager = fori_loop(0, 3, body, init);
  EXPECT_EQ(std::get<0>(eager).to_vector<float>(), (std::vector<float>{3.375f, 6.75f}));
  EXPECT_EQ(std::get<1>(eager).item(), 3.0);
  EXPECT_EQ(std::get<2>(eager).at("flag").item(), 0.0);
  EXPECT_EQ(std::get<2>(eager).at("acc").to_vector<double>(), (std::vector<double>{4.75, 9.5}));
  const Carry traced = jit([&](const Carry& c) { return fori_loop(0, 3, body, c); })(init);
  expect_bits(std::get<0>(traced), std::get<0>(eager));
  expect_bits(std::get<1>(traced), std::get<1>(eager));
  expect_bits(std::get<2>(traced).at("flag"), std::get<2>(eager).at("flag"));
  expect_bits(std::get<2>(traced).at("acc"), std::get<2>(eager).at("acc"));
}

TEST(ControlFlow, ScanStacksItsOutputsOverContainers) {
  const std::map<std::string, Tensor> xs{
      {"a", tensor(std::vector<float>{1, 2, 3, 4, 5, 6}, {3, 2}, reference_backend())}, {"b", vec({10, 20, 30})}};
  auto f = [](const Tensor& init, const std::map<std::string, Tensor>& x) {
    return scan(
        [](const Tensor& c, const std::map<std::string, Tensor>& r) {
          const Tensor next = c + r.at("a") * r.at("b");
          return std::pair(next, std::vector<Tensor>{next, sum(r.at("a"))});
        },
        init, x);
  };
  const auto [c, ys] = f(zeros({2}), xs);
  EXPECT_EQ(c.to_vector<float>(), (std::vector<float>{10 + 60 + 150, 20 + 80 + 180}));
  ASSERT_EQ(ys.size(), 2u);
  EXPECT_EQ(ys[0].shape(), (Shape{3, 2}));
  EXPECT_EQ(ys[0].to_vector<float>(), (std::vector<float>{10, 20, 70, 100, 220, 280}));
  EXPECT_EQ(ys[1].to_vector<float>(), (std::vector<float>{3, 7, 11}));
  const auto [tc, tys] = jit(f)(zeros({2}), xs);
  expect_bits(tc, c);
  expect_bits(tys[0], ys[0]);
  expect_bits(tys[1], ys[1]);
}

TEST(ControlFlow, CondPicksABranch) {
  auto f = [](const Tensor& x) {
    return cond(
        greater(sum(x), 0.0), [](const Tensor& v) { return v * 2.0; }, [](const Tensor& v) { return -v; }, x);
  };
  expect_bits(f(vec({1, 2})), vec({2, 4}));
  expect_bits(f(vec({-1, -2})), vec({1, 2}));
  expect_bits(jit(f)(vec({-1, -2})), vec({1, 2}));
}

TEST(ControlFlow, CondInsideALoop) {
  // Collatz steps from 27 (111 of them), as a while_loop whose body is a cond.
  auto collatz = [](const Tensor& start) {
    using C = std::pair<Tensor, Tensor>;
    return while_loop([](const C& c) { return not_equal(c.first, 1.0); },
                      [](const C& c) {
                        const Tensor n = cond(
                            equal(remainder(c.first, 2.0), 0.0), [](const Tensor& v) { return v / 2.0; },
                            [](const Tensor& v) { return v * 3.0 + 1.0; }, c.first);
                        return C(n, c.second + 1.0);
                      },
                      C(start, scalar(0.0)));
  };
  EXPECT_EQ(collatz(scalar(27.0)).second.item(), 111.0);
  EXPECT_EQ(jit(collatz)(scalar(27.0)).second.item(), 111.0);
}

TEST(ControlFlow, TracedLoopIsOneNodeWithItsCapturesAsInputs) {
  const Tensor w = vec({2, 3});
  const TracedFunction f = trace(
      [](const Tensor& x, const Tensor& v) {
        return fori_loop(
            0, 3, [&](const Tensor&, const Tensor& c) { return c * v + 1.0; }, x);
      },
      vec({1, 1}), w);
  const Graph& g = *f.graph;
  int controls = 0, results = 0;
  for (const Node& n : g.nodes) {
    controls += n.kind == NodeKind::control;
    results += n.kind == NodeKind::result;
    if (n.kind != NodeKind::control) continue;
    EXPECT_EQ(n.control->kind, ControlFlow::Kind::fori_loop);
    EXPECT_EQ(n.inputs.size(), 2u) << "the carry and the captured v";
    EXPECT_EQ(n.control->captured, std::vector<int>{1});
    EXPECT_EQ(n.control->bodies[0]->parameters.size(), 3u) << "counter, carry, v";
  }
  EXPECT_EQ(controls, 1) << to_string(g);
  EXPECT_EQ(results, 1) << to_string(g);
  const std::string text = to_string(g);
  EXPECT_NE(text.find("fori_loop(lo=0, hi=3) %0, %1 : (f32[2])"), std::string::npos) << text;
  EXPECT_NE(text.find("\n  body:\n    %0 = parameter(0) : s64[]"), std::string::npos) << text;
  EXPECT_NE(text.find("= result(0) %2 : f32[2]"), std::string::npos) << text;
}

TEST(ControlFlow, DebugPrintsTheSubgraphsIndented) {
  std::string err;
  {
    const nxv::test::EnvGuard debug("NXV_DEBUG", "1");
    ::testing::internal::CaptureStderr();
    jit([](const Tensor& x) {
      return while_loop([](const Tensor& c) { return less(sum(c), 8.0); }, [](const Tensor& c) { return c * 2.0; }, x);
    })(vec({1, 1}));
    err = ::testing::internal::GetCapturedStderr();
  }
  EXPECT_NE(err.find("while_loop %0 : (f32[2])\n  cond:\n    %0 = parameter(0) : f32[2]\n"), std::string::npos) << err;
  EXPECT_NE(err.find("\n  body:\n    %0 = parameter(0) : f32[2]\n"), std::string::npos) << err;
}

TEST(ControlFlow, ABodyChangingTheCarryTypeThrows) {
  expect_error<Error>(
      [] {
        fori_loop(
            0, 2, [](const Tensor&, const Tensor& c) { return as_type(c, DType::f64); }, vec({1}));
      },
      {"fori_loop", "the body returned f64[1]", "the loop carries f32[1]"});
  expect_error<Error>(
      [] {
        while_loop([](const Tensor& c) { return less(sum(c), 2.0); }, [](const Tensor& c) { return std::pair(c, c); },
                   vec({1}));
      },
      {"while_loop", "(f32[1], f32[1])", "the loop carries f32[1]"});
  expect_error<Error>(
      [] {
        scan([](const Tensor& c, const Tensor& x) { return std::pair(c + x, x); },
             scalar(0, DType::s64, reference_backend()), vec({1, 2}));
      },
      {"scan", "the body's carry returned f32[]", "the loop carries s64[]"});
  expect_error<Error>(
      [] {
        cond(
            scalar(1, DType::pred, reference_backend()), [](const Tensor& x) { return x; },
            [](const Tensor& x) {
              return reshape(x, {1, 1});
            },
            vec({1}));
      },
      {"cond", "on_false returned f32[1, 1]", "on_true returned f32[1]"});
}

TEST(ControlFlow, PredicatesMustBePredScalars) {
  expect_error<Error>(
      [] {
        cond(
            greater(vec({1, 1}), 0.0), [](const Tensor& x) { return x; }, [](const Tensor& x) { return x; },
            vec({1, 1}));
      },
      {"cond", "pred scalar", "pred[2]"});
  expect_error<Error>(
      [] {
        cond(
            scalar(1.0), [](const Tensor& x) { return x; }, [](const Tensor& x) { return x; }, vec({1}));
      },
      {"cond", "pred scalar", "f32[]"});
  expect_error<Error>(
      [] { while_loop([](const Tensor& c) { return sum(c); }, [](const Tensor& c) { return c; }, vec({1})); },
      {"while_loop", "the condition must return a pred scalar", "f32[]"});
  expect_error<Error>(
      [] {
        scan([](const Tensor& c, const std::vector<Tensor>& x) { return std::pair(c, x[0]); }, scalar(0.0),
             std::vector<Tensor>{vec({1, 2}), vec({1, 2, 3})});
      },
      {"scan", "the same leading axis", "[f32[2], f32[3]]"});
}

TEST(ControlFlow, GradThroughAWhileLoopNamesTheAlternatives) {
  auto f = [](const Tensor& x) {
    return sum(
        while_loop([](const Tensor& c) { return less(sum(c), 10.0); }, [](const Tensor& c) { return c * 2.0; }, x));
  };
  expect_error<Error>([&] { grad(f)(vec({1, 2})); }, {"while_loop", "fori_loop", "scan"});
}

// vectorize(f)(xs) against f on each example (row b of every input), stacked.
void expect_vectorized_exact(const std::function<Tensor(const std::vector<Tensor>&)>& f,
                             const std::vector<Tensor>& xs) {
  const Tensor got = vectorize(f, {})(xs);
  const std::int64_t size = xs[0].shape()[0];
  std::vector<Tensor> rows;
  for (std::int64_t b = 0; b < size; ++b) {
    std::vector<Tensor> example;
    for (const Tensor& x : xs) {
      Shape starts = Shape::filled(x.rank(), 0), lengths = x.shape();
      starts[0] = b;
      lengths[0] = 1;
      example.push_back(reshape(slice(x, starts, lengths), Shape(x.shape().begin() + 1, x.shape().end())));
    }
    const Tensor y = f(example);
    rows.push_back(reshape(y, {1, y.size()}));
  }
  expect_bits(reshape(got, {size, -1}), concatenate(rows, 0));
}

TEST(ControlFlow, VectorizedControlFlowEqualsThePerExampleCalls) {
  const Tensor a = tensor(std::vector<float>{1, -2, 3, 0.5f, -1, 2}, {3, 2}, reference_backend());
  const Tensor b = tensor(std::vector<float>{0.5f, 2, -1, 1.5f, 3, -0.5f}, {3, 2}, reference_backend());
  const Tensor rows = uniform(key(3), {3, 4, 2}, DType::f32, -1.0, 1.0, reference_backend());
  expect_vectorized_exact(
      [](const std::vector<Tensor>& x) {
        return fori_loop(
            0, 3, [&](const Tensor& i, const Tensor& c) { return c * x[1] + as_type(i, DType::f32); }, x[0]);
      },
      {a, b});
  expect_vectorized_exact(
      [](const std::vector<Tensor>& x) {
        const auto r =
            scan([](const Tensor& c, const Tensor& row) { return std::pair(c * row + 1.0, sin(c)); }, x[0], x[1]);
        return concatenate({r.first, reshape(r.second, {-1})});
      },
      {a, rows});
  expect_vectorized_exact(
      [](const std::vector<Tensor>& x) {  // a per-example predicate
        return cond(
            greater(sum(x[0]), 0.0), [](const Tensor& v) { return v * 2.0; }, [](const Tensor& v) { return -v; }, x[0]);
      },
      {a});
  expect_vectorized_exact(
      [](const std::vector<Tensor>& x) {  // per-example trip counts
        return while_loop([](const Tensor& c) { return less(sum(abs(c)), 20.0); },
                          [](const Tensor& c) { return c * 2.0 + 0.25; }, x[0]);
      },
      {a});
  expect_vectorized_exact(
      [](const std::vector<Tensor>& x) {  // per-example gradients through a loop
        auto loss = [](const Tensor& v, const Tensor& w) {
          return sum(fori_loop(
              0, 4, [&](const Tensor&, const Tensor& c) { return sin(c * w); }, v));
        };
        return grad(loss)(x[0], x[1]);
      },
      {a, b});
}

TEST(ControlFlow, VectorizeRunsLoopsOverSharedTensors) {
  auto f = [](const Tensor& x, const Tensor& s) {
    return x + fori_loop(
                   0, 3, [](const Tensor&, const Tensor& c) { return c * 2.0; }, s);
  };
  const Tensor xs = tensor(std::vector<float>{1, 2, 3, 4}, {2, 2}, reference_backend());
  EXPECT_EQ(vectorize(f, {0, not_batched})(xs, vec({1, 1})).to_vector<float>(), (std::vector<float>{9, 10, 11, 12}));
}

}  // namespace
}  // namespace nxv
