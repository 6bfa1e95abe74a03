// The timing harness of nxv-bench: warm-up, arms run alternately (A B A B ...), every sample kept, medians.
//
// Why not Google Benchmark: it runs one benchmark to completion before starting the next, and the H200's clocks
// fall from ~1980 MHz to 400-850 MHz within about a second of idle and take a few hundred ms of load to come back
// (seen on every H200 run; bench/RESULTS.md). Arms timed one after the other would then be measured at different
// clocks; arms interleaved sample by sample after a warm-up see the same ones. So this is a small harness of its own.
#pragma once
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

namespace nxv::bench {

using Clock = std::chrono::steady_clock;

inline double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// The seconds `fn` takes (it must wait for its own GPU work, e.g. by reading a result back).
template <class F>
double time_seconds(F&& fn) {
  const Clock::time_point start = Clock::now();
  fn();
  return seconds_since(start);
}

struct Stats {
  double median = 0, p10 = 0, p90 = 0;
  std::vector<double> samples;  // in the order taken
};

// Percentile by linear interpolation between the order statistics (p in [0, 1]).
inline double percentile(std::vector<double> sorted, double p) {
  if (sorted.empty()) return std::nan("");
  std::sort(sorted.begin(), sorted.end());
  const double pos = p * static_cast<double>(sorted.size() - 1);
  const auto lo = static_cast<std::size_t>(std::floor(pos));
  const std::size_t hi = std::min(lo + 1, sorted.size() - 1);
  return sorted[lo] + (pos - static_cast<double>(lo)) * (sorted[hi] - sorted[lo]);
}

inline Stats summarize(std::vector<double> samples) {
  Stats s;
  s.median = percentile(samples, 0.5);
  s.p10 = percentile(samples, 0.1);
  s.p90 = percentile(samples, 0.9);
  s.samples = std::move(samples);
  return s;
}

// One arm: `sample` does the work once and returns the measured value (usually time_seconds of the work, but an
// arm may time only part of it, e.g. the recording of ops without the wait). `repeats` caps its samples (the
// reference backend gets fewer); `warms_gpu` says whether running it keeps the GPU busy (the warm-up loops over
// those arms only; the others run once before timing, which also creates their pipelines and jit traces).
struct Arm {
  std::string name;
  std::function<double()> sample;
  int repeats = 0;  // 0: the run's --repeat
  bool warms_gpu = true;
};

// Warm-up: every arm once, then the GPU arms in turn until `warmup_ms` have passed on `now` (the steady clock;
// tests pass a clock of their own). Then `repeat` rounds; in each, every arm that still wants samples takes one,
// in order (A B C A B C ... A B A B once C has its few).
inline std::vector<Stats> alternate(const std::vector<Arm>& arms, int repeat, double warmup_ms,
                                    const std::function<Clock::time_point()>& now = Clock::now) {
  const Clock::time_point warm_start = now();
  for (const Arm& a : arms) a.sample();
  bool any_gpu = false;
  for (const Arm& a : arms) any_gpu = any_gpu || a.warms_gpu;
  while (any_gpu && std::chrono::duration<double, std::milli>(now() - warm_start).count() < warmup_ms)
    for (const Arm& a : arms)
      if (a.warms_gpu) a.sample();
  std::vector<std::vector<double>> samples(arms.size());
  int rounds = repeat;
  for (const Arm& a : arms) rounds = std::max(rounds, a.repeats);
  for (int r = 0; r < rounds; ++r)
    for (std::size_t i = 0; i < arms.size(); ++i)
      if (r < (arms[i].repeats > 0 ? arms[i].repeats : repeat)) samples[i].push_back(arms[i].sample());
  std::vector<Stats> out;
  for (auto& s : samples) out.push_back(summarize(std::move(s)));
  return out;
}

}  // namespace nxv::bench
