// Suite `kernels`: what one dispatch, one submit and one recorded op cost; elementwise bandwidth against the
// device-to-device copy of the same run; GEMM and a conv layer in TFLOP/s; cold against warm start. With torch on
// a CUDA device, the same measurements from torch_step.py --suite kernels are merged (ratios ours / PyTorch's).
// Every kernel is checked against the reference backend on a small size before the timed sizes.
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>

#include "bench/child.hpp"
#include "bench/suites/batch_cap.hpp"
#include "bench/suites/peers.hpp"
#include "bench/suites/steps.hpp"
#include "bench/suites/suites.hpp"
#include "nxv/conv.hpp"
#include "nxv/grad.hpp"
#include "nxv/vulkan.hpp"
#include "vulkan/kernels/dot.hpp"
#include "vulkan/runtime/runtime.hpp"

namespace nxv::bench {

namespace {

namespace fs = std::filesystem;

// The largest relative difference max|a - b| / max|b| of two tensors of the same shape (on any backends).
double max_rel_diff(const Tensor& a, const Tensor& b) {
  const Tensor ha = as_type(a.to_host(), DType::f64), hb = as_type(b.to_host(), DType::f64);
  const double scale = reduce_max(abs(hb)).item();
  return reduce_max(abs(ha - hb)).item() / std::max(scale, 1e-300);
}

Check check_same(const std::string& what, const Tensor& ours, const Tensor& reference, double tolerance) {
  return {what, 0, 0, max_rel_diff(ours, reference), tolerance};
}

std::string pow2_name(std::int64_t n) {
  const int log = static_cast<int>(std::lround(std::log2(static_cast<double>(n))));
  return (std::int64_t{1} << log) == n ? "2^" + std::to_string(log) : std::to_string(n);
}

// Takes the last `n` entries of a side channel of samples (the timed ones come after the warm-up's).
Stats tail(const std::vector<double>& v, std::size_t n) {
  return summarize(std::vector<double>(v.end() - static_cast<std::ptrdiff_t>(std::min(n, v.size())), v.end()));
}

// One of our measurements to compare with torch_step.py's series `peer_id` (a rate over `work`).
struct PeerComparison {
  Row row;  // id, what, unit, a (ours), target
  std::string peer_id, peer_arm;
  double work = 0;
};

struct Context {
  const Options& o;
  Backend& gpu;
  SuiteReport& report;
  std::vector<PeerComparison> peers;  // resolved once torch_step.py --suite kernels has run, after our arms
};

void compare_with_peer(Context& c, const std::string& id, const std::string& what, const std::string& unit,
                       const Measurement& ours, const std::string& peer_id, double work, const std::string& peer_arm,
                       std::optional<Target> target = std::nullopt) {
  c.peers.push_back({Row{id, what + ", vs PyTorch", unit, ours, std::nullopt, "ours / PyTorch's", target, ""}, peer_id,
                     peer_arm, work});
}

// Per-dispatch cost inside a batch (independent ops, then a dependent chain: one barrier each), the host cost of
// recording one op, one op per submit (NXV_BATCH_MAX=0) and the submit + wait round trip of a single op.
void dispatch_costs(Context& c) {
  const int n = c.o.smoke ? 50 : 1000;
  // Tensor + tensor, so that no op uploads a scalar operand.
  const Tensor x = uniform(key(7), {64}, DType::f32, 0, 1, c.gpu), z = uniform(key(8), {64}, DType::f32, 0, 1, c.gpu);
  std::vector<double> flush_independent, record_chain;
  std::vector<Tensor> outputs;
  outputs.reserve(static_cast<std::size_t>(n));
  const BatchCap cap(n + 16);
  auto independent = [&] {  // returns the recording time per op; the flush time per op goes to the side
    const Clock::time_point start = Clock::now();
    for (int i = 0; i < n; ++i) outputs.push_back(x + z);
    const double recorded = seconds_since(start);
    flush_independent.push_back(time_seconds([] { vulkan::flush(); }) / n);
    outputs.clear();
    return recorded / n;
  };
  auto chain = [&] {  // returns the flush time per op; the recording time per op goes to the side
    Tensor y = x;
    const Clock::time_point start = Clock::now();
    for (int i = 0; i < n; ++i) y = y + z;
    record_chain.push_back(seconds_since(start) / n);
    return time_seconds([] { vulkan::flush(); }) / n;
  };
  auto unbatched = [&] {
    const BatchCap zero(0);
    Tensor y = x;
    return time_seconds([&] {
             for (int i = 0; i < n; ++i) y = y + z;
             vulkan::flush();
           }) /
           n;
  };
  auto round_trip = [&] {
    const Tensor y = x + z;
    return time_seconds([] { vulkan::flush(); });
  };
  std::fprintf(stderr, "[kernels] dispatch, record and submit costs (%d ops per sample)\n", n);
  // How many submits one sample's ops took (1 if the batch held them all); before the timed samples, which
  // tail() takes from the end of the side channels.
  const vulkan::Counters before = vulkan::counters();
  independent();
  const std::uint64_t submits = vulkan::counters().submits - before.submits;
  const std::vector<Stats> s = alternate({{"independent", independent, 0, true},
                                          {"chain", chain, 0, true},
                                          {"NXV_BATCH_MAX=0", unbatched, 0, true},
                                          {"round trip", round_trip, 0, true}},
                                         c.o.repeat, c.o.warmup_ms);
  const auto k = static_cast<std::size_t>(c.o.repeat);
  const Stats chain_record = tail(record_chain, k);
  std::vector<double> chain_total;  // record + flush per op, sample by sample
  for (std::size_t i = 0; i < s[1].samples.size() && i < chain_record.samples.size(); ++i)
    chain_total.push_back(s[1].samples[i] + chain_record.samples[i]);
  const std::string ops = std::to_string(n) + " ops on 64 f32 per sample, " + std::to_string(submits) +
                          (submits == 1 ? " submit" : " submits") + " for them";
  // Issue 6: recording one eager elementwise op costs at most 3 µs on the host.
  c.report.rows.push_back(Row{"kernels.record_op", "host cost of recording one eager elementwise op (x + z)", "µs",
                              time_in("independent ops", s[0], 1e6), std::nullopt, "", Target{"<=", 3.0},
                              ops + ", batch cap above them, no wait"});
  c.report.rows.push_back(Row{"kernels.dispatch_in_batch", "one dispatch inside a batch (flush time / ops)", "µs",
                              time_in("no barrier", tail(flush_independent, k), 1e6),
                              time_in("barrier each (chain)", s[1], 1e6), "no barrier / barrier", std::nullopt, ops});
  c.report.rows.push_back(Row{"kernels.batching_per_op", "one op of a dependent chain, batched vs a submit + wait each",
                              "µs", time_in("batched (record + flush)", summarize(chain_total), 1e6),
                              time_in("NXV_BATCH_MAX=0", s[2], 1e6), "batched / unbatched", std::nullopt, ops});
  c.report.rows.push_back(Row{"kernels.submit_round_trip", "submit + fence wait of a batch holding one op", "µs",
                              time_in("flush()", s[3], 1e6), std::nullopt, "", std::nullopt, ""});
}

// f32 add and sum against the strided copy kernel (src/vulkan/kernels/copy.comp, which the runtime uses for every
// device-to-device copy; a full slice reaches it) at each size, in GB/s of bytes read + written.
void bandwidth(Context& c) {
  {
    const Tensor a = uniform(key(1), {4099}, DType::f32, -1, 1, c.gpu),
                 b = uniform(key(2), {4099}, DType::f32, -1, 1, c.gpu);
    const Tensor ha = a.to_host(), hb = b.to_host();
    c.report.checks.push_back(check_same("f32 add (4099) vs reference", a + b, ha + hb, 0));
    c.report.checks.push_back(check_same("f32 sum (4099) vs reference", sum(a), sum(ha), 0));
    c.report.checks.push_back(check_same("copy (full slice, 4099) vs reference", slice(a, {0}, {4099}), ha, 0));
  }
  for (std::int64_t n : c.o.elements) {
    std::fprintf(stderr, "[kernels] add, sum and copy of %s f32 elements\n", pow2_name(n).c_str());
    const Tensor a = uniform(key(3), {n}, DType::f32, -1, 1, c.gpu), b = uniform(key(4), {n}, DType::f32, -1, 1, c.gpu);
    vulkan::flush();
    const std::vector<Stats> s = alternate({{"copy",
                                             [&] {
                                               return time_seconds([&] {
                                                 const Tensor y = slice(a, {0}, {n});
                                                 vulkan::flush();
                                               });
                                             },
                                             0, true},
                                            {"add",
                                             [&] {
                                               return time_seconds([&] {
                                                 const Tensor y = a + b;
                                                 vulkan::flush();
                                               });
                                             },
                                             0, true},
                                            {"sum",
                                             [&] {
                                               return time_seconds([&] {
                                                 const Tensor y = sum(a);
                                                 vulkan::flush();
                                               });
                                             },
                                             0, true}},
                                           c.o.repeat, c.o.warmup_ms);
    const double bytes = 4.0 * static_cast<double>(n) / 1e9;
    const Measurement copy = rate_in("copy", s[0], 2 * bytes), add = rate_in("add", s[1], 3 * bytes),
                      total = rate_in("sum", s[2], bytes);
    const std::string size = pow2_name(n), id = std::to_string(n);
    const bool big = n >= (std::int64_t{1} << 28);
    c.report.rows.push_back(Row{"kernels.add." + id, "f32 add, " + size + " elements", "GB/s", add, copy, "add / copy",
                                big ? std::optional<Target>(Target{">=", 0.9}) : std::nullopt, ""});
    c.report.rows.push_back(Row{"kernels.sum." + id, "f32 sum, " + size + " elements", "GB/s", total, copy,
                                "sum / copy", std::nullopt, ""});
    compare_with_peer(c, "kernels.add." + id + ".vs_torch", "f32 add, " + size + " elements", "GB/s", add, "add." + id,
                      3 * bytes, "torch add");
    compare_with_peer(c, "kernels.sum." + id + ".vs_torch", "f32 sum, " + size + " elements", "GB/s", total,
                      "sum." + id, bytes, "torch sum", big ? std::optional<Target>(Target{">=", 1.0}) : std::nullopt);
    compare_with_peer(c, "kernels.copy." + id + ".vs_torch", "device-to-device copy, " + size + " f32", "GB/s", copy,
                      "copy." + id, 2 * bytes, "torch clone");
  }
}

// The f32 and f64 multiply-add peaks as shaders reach them (src/vulkan/kernels/probes/fma_peak.comp: chains of fmas
// in registers), in TFLOP/s: what a GEMM row is a fraction of (its roofline position, next to the vendor's peak).
// Also each step written as the dot kernels write theirs: a `precise` fma (fast) and a `precise` product and sum
// (exact), to see what those decorations cost; and with each step's multiplier read from shared memory.
void fma_peaks(Context& c) {
  const std::uint32_t groups = c.o.smoke ? 16 : 8192;  // of 256 invocations
  const std::int32_t iterations = c.o.smoke ? 16 : 2048;
  vulkan::Runtime& rt = vulkan::runtime();
  std::vector<Arm> arms;
  std::vector<std::string> ids, whats;
  std::vector<vulkan::BufferPtr> outputs;
  outputs.reserve(8);  // the arms keep pointers to them
  // Each probe's step: the shader's name part and what the row says it measures.
  struct Step {
    std::string name, what;
  };
  const Step steps[] = {{"", ""},
                        {"precise_fma", ", each step a precise fma (fast's)"},
                        {"precise_mul_add", ", each step a precise product and sum (exact's)"},
                        {"shared_operand", ", each step's multiplier read from shared memory"}};
  for (const std::string dt : {"f32", "f64"})
    for (const auto& [step, step_what] : steps) {
      const std::array<std::int32_t, 1> spec{iterations};
      const std::string shader = "fma_peak_" + (step.empty() ? "" : step + "_") + dt;
      const vulkan::Pipeline* pipeline = rt.pipeline(shader, spec);
      outputs.push_back(rt.allocate(std::size_t{groups} * 256 * 8));
      const vulkan::BufferPtr* out = &outputs.back();
      arms.push_back({dt + (step.empty() ? "" : " " + step), [&rt, pipeline, out, groups] {
                        const float push[2] = {0.999f, 1e-3f};
                        return time_seconds([&] {
                          rt.dispatch(pipeline, {{out, true}}, std::as_bytes(std::span(push)), groups);
                          rt.flush();
                        });
                      }});
      ids.push_back("kernels.fma_peak." + dt + (step.empty() ? "" : "." + step));
      whats.push_back(dt + " multiply-add peak of shaders" + step_what);
    }
  const std::vector<Stats> s = alternate(arms, c.o.repeat, c.o.warmup_ms);
  const double tflop = 2.0 * 8 * iterations * 256.0 * groups / 1e12;
  for (std::size_t i = 0; i < arms.size(); ++i)
    c.report.rows.push_back(Row{ids[i], whats[i], "TFLOP/s", rate_in("fma chains " + arms[i].name, s[i], tflop),
                                std::nullopt, "", std::nullopt, ""});
}

// Square f32, f64, bf16 and f16 GEMM (nxv::dot) in TFLOP/s. bf16 runs the portable kernels (f32 tiles and
// accumulation), f16 on tensor cores where the device has them (the `tensor` variant), against torch.matmul's
// tensor cores (its reduced-precision reductions off).
void gemm(Context& c) {
  for (DType dtype : {DType::f32, DType::f64, DType::bf16, DType::f16}) {
    const Tensor a = as_type(uniform(key(5), {96, 80}, DType::f32, -1, 1, c.gpu), dtype),
                 b = as_type(uniform(key(6), {80, 72}, DType::f32, -1, 1, c.gpu), dtype);
    const double tolerance = dtype == DType::f32 ? 1e-6 : dtype == DType::f64 ? 1e-14 : 1e-2;
    c.report.checks.push_back(check_same(std::string(name(dtype)) + " dot 96x80x72 vs reference", dot(a, b),
                                         dot(a.to_host(), b.to_host()), tolerance));
  }
  // One arm per dtype and precision (--precisions), and with --dot-kernels per forced variant of the dot kernel
  // too (alternated in one process, so that the GPU's clocks treat them alike).
  std::vector<std::optional<vulkan::kernels::DotKernel>> variants;
  for (const std::string& name : c.o.dot_kernels) variants.push_back(vulkan::kernels::parse_dot_kernel(name));
  if (variants.empty()) variants.push_back(std::nullopt);
  for (std::int64_t n : c.o.gemm) {
    std::fprintf(stderr, "[kernels] GEMM %lld^3, f32, f64, bf16 and f16\n", static_cast<long long>(n));
    const Tensor a32 = uniform(key(8), {n, n}, DType::f32, -1, 1, c.gpu),
                 b32 = uniform(key(9), {n, n}, DType::f32, -1, 1, c.gpu);
    const std::map<std::string, std::pair<Tensor, Tensor>> operands = {
        {"f32", {a32, b32}},
        {"f64", {as_type(a32, DType::f64), as_type(b32, DType::f64)}},
        {"bf16", {as_type(a32, DType::bf16), as_type(b32, DType::bf16)}},
        {"f16", {as_type(a32, DType::f16), as_type(b32, DType::f16)}}};
    vulkan::flush();
    std::vector<Arm> arms;
    std::vector<std::string> arm_dtypes, arm_ids;
    std::vector<bool> arm_fast;
    for (const std::string dt : {"f32", "f64", "bf16", "f16"})
      for (const std::string& precision_name : c.o.precisions)
        for (const auto& variant : variants) {
          const Precision precision = parse_precision(precision_name).value_or(Precision::fast);
          const std::string suffix =
              "." + precision_name + (variant ? std::string(".") + vulkan::kernels::dot_kernel_name(*variant) : "");
          const Tensor& a = operands.at(dt).first;
          const Tensor& b = operands.at(dt).second;
          arms.push_back({dt + suffix,
                          [&a, &b, variant, precision] {
                            vulkan::kernels::force_dot_kernel(variant);
                            const double t = time_seconds([&] {
                              const Tensor y = dot(a, b, precision);
                              vulkan::flush();
                            });
                            vulkan::kernels::force_dot_kernel(std::nullopt);
                            return t;
                          },
                          0, true});
          arm_dtypes.push_back(dt);
          arm_ids.push_back(dt + suffix);
          arm_fast.push_back(precision == Precision::fast);
        }
    const std::vector<Stats> s = alternate(arms, c.o.repeat, c.o.warmup_ms);
    const double tflop = 2.0 * std::pow(static_cast<double>(n), 3) / 1e12;
    const std::string id = std::to_string(n), size = id + "³";
    for (std::size_t i = 0; i < arms.size(); ++i) {
      const std::string& dt = arm_dtypes[i];
      const Measurement ours = rate_in("dot " + arm_ids[i], s[i], tflop);
      c.report.rows.push_back(Row{"kernels.gemm." + arm_ids[i] + "." + id, arm_ids[i] + " GEMM " + size, "TFLOP/s",
                                  ours, std::nullopt, "", std::nullopt, ""});
      // Issue 6: f32 GEMM 4096³ >= 80% of torch.matmul (TF32 off); f64 >= 55%: in fast, the default mode.
      std::optional<Target> target;
      if (n == 4096 && arm_fast[i] && (dt == "f32" || dt == "f64")) target = Target{">=", dt == "f32" ? 0.8 : 0.55};
      compare_with_peer(c, "kernels.gemm." + arm_ids[i] + "." + id + ".vs_torch", arm_ids[i] + " GEMM " + size,
                        "TFLOP/s", ours, "gemm." + dt + "." + id, tflop, "torch.matmul", target);
    }
  }
}

struct ConvShape {
  std::int64_t batch, in, out, size, kernel;
};

// A conv layer (padding same, stride 1), forward and forward + backward (gradients of sum(conv(x, w)) with respect
// to x and w), in TFLOP/s (the backward pass counted as twice the forward's multiply-adds).
void conv_layer(Context& c, const ConvShape& sh) {
  auto conv_loss = [](const Params& p) {
    ConvOptions o;
    o.padding = {{1, 1}, {1, 1}};
    return sum(conv(p.at("x"), p.at("w"), o));
  };
  auto fwd_bwd = jit(grad(conv_loss));
  auto forward = [](const Tensor& x, const Tensor& w) {
    ConvOptions o;
    o.padding = {{1, 1}, {1, 1}};
    return conv(x, w, o);
  };
  {
    const Params small{{"x", uniform(key(10), {2, 4, 8, 8}, DType::f32, -1, 1, c.gpu)},
                       {"w", uniform(key(11), {4, 4, 3, 3}, DType::f32, -1, 1, c.gpu)}};
    const Params host{{"x", small.at("x").to_host()}, {"w", small.at("w").to_host()}};
    c.report.checks.push_back(check_same("conv 3x3 forward (2x4x8x8) vs reference",
                                         forward(small.at("x"), small.at("w")), forward(host.at("x"), host.at("w")),
                                         1e-6));
    const Params g = fwd_bwd(small), hg = fwd_bwd(host);
    c.report.checks.push_back(check_same("conv 3x3 input gradient vs reference", g.at("x"), hg.at("x"), 1e-6));
    c.report.checks.push_back(check_same("conv 3x3 kernel gradient vs reference", g.at("w"), hg.at("w"), 1e-6));
  }
  std::fprintf(stderr, "[kernels] conv %lldx%lldx%lldx%lld, %lld->%lld channels 3x3\n",
               static_cast<long long>(sh.batch), static_cast<long long>(sh.in), static_cast<long long>(sh.size),
               static_cast<long long>(sh.size), static_cast<long long>(sh.in), static_cast<long long>(sh.out));
  const Params p{{"x", uniform(key(12), {sh.batch, sh.in, sh.size, sh.size}, DType::f32, -1, 1, c.gpu)},
                 {"w", uniform(key(13), {sh.out, sh.in, sh.kernel, sh.kernel}, DType::f32, -1, 1, c.gpu)}};
  vulkan::flush();
  // The current precision (fast unless NXV_PRECISION says otherwise) and exact, alternated: the same kernel
  // with fma steps or with a rounded product and sum per term (include/nxv/conv.hpp).
  auto fwd_bwd_exact = jit(grad(conv_loss), JitOptions{.precision = Precision::exact});
  auto timed = [](auto&& work) {
    return [work] {
      return time_seconds([&] {
        work();
        vulkan::flush();
      });
    };
  };
  const std::vector<Stats> s =
      alternate({{"forward", timed([&] { const Tensor y = forward(p.at("x"), p.at("w")); }), 0, true},
                 {"forward + backward", timed([&] { const Params g = fwd_bwd(p); }), 0, true},
                 {"forward, exact", timed([&] {
                    const PrecisionScope exact(Precision::exact);
                    const Tensor y = forward(p.at("x"), p.at("w"));
                  }),
                  0, true},
                 {"forward + backward, exact", timed([&] { const Params g = fwd_bwd_exact(p); }), 0, true}},
                c.o.repeat, c.o.warmup_ms);
  const double fwd_tflop =
      2.0 * static_cast<double>(sh.batch * sh.out * sh.size * sh.size * sh.in * sh.kernel * sh.kernel) / 1e12;
  const std::string what = "conv f32 " + std::to_string(sh.batch) + "x" + std::to_string(sh.in) + "x" +
                           std::to_string(sh.size) + "x" + std::to_string(sh.size) + ", " + std::to_string(sh.in) +
                           "->" + std::to_string(sh.out) + " " + std::to_string(sh.kernel) + "x" +
                           std::to_string(sh.kernel) + " same";
  const std::string mode = to_string(current_precision());
  const Measurement f = rate_in("forward, " + mode, s[0], fwd_tflop),
                    fb = rate_in("forward + backward, " + mode, s[1], 3 * fwd_tflop);
  c.report.rows.push_back(Row{"kernels.conv.forward", what + ", forward", "TFLOP/s", f,
                              rate_in("forward, exact", s[2], fwd_tflop), mode + " / exact", std::nullopt, ""});
  c.report.rows.push_back(Row{"kernels.conv.forward_backward", what + ", forward + backward", "TFLOP/s", fb,
                              rate_in("forward + backward, exact", s[3], 3 * fwd_tflop), mode + " / exact",
                              std::nullopt, ""});
  compare_with_peer(c, "kernels.conv.forward.vs_torch", what + ", forward", "TFLOP/s", f, "conv.forward", fwd_tflop,
                    "cuDNN (torch)");
  compare_with_peer(c, "kernels.conv.forward_backward.vs_torch", what + ", forward + backward", "TFLOP/s", fb,
                    "conv.forward_backward", 3 * fwd_tflop, "cuDNN (torch)");
}

// Cold start (a fresh process with an empty NXV_CACHE_DIR) against warm start (a second process on the cache the
// cold one left). The driver's own disk caches are turned off in both, so only ours can make the difference.
void cold_start(Context& c) {
  const std::string model = c.o.smoke ? "mlp" : "lenet";
  const std::int64_t batch = c.o.smoke ? 2 : 32;
  const fs::path root = fs::path(c.o.work_dir) / "cold-start";
  int runs = 0;
  fs::path last_cache;
  std::size_t cached_files = 0;
  auto child = [&](bool cold) {
    if (cold) {
      last_cache = root / ("cache-" + std::to_string(runs++));
      fs::create_directories(last_cache);
    }
    const ChildResult r = run_child({self_executable(), "--first-step-child", model, "--batch", std::to_string(batch)},
                                    {{"NXV_CACHE_DIR", last_cache.string()},
                                     {"XDG_CACHE_HOME", (root / "xdg").string()},
                                     {"__GL_SHADER_DISK_CACHE", "0"},
                                     {"MESA_SHADER_CACHE_DISABLE", "true"}});
    NXV_CHECK(r.exit_code == 0, "nxv-bench", "the first-step child process exited with ", r.exit_code, ": ", r.output);
    if (cold) {
      cached_files = 0;
      for (const auto& e : fs::recursive_directory_iterator(last_cache)) cached_files += e.is_regular_file() ? 1 : 0;
    }
    return r.seconds;
  };
  std::fprintf(stderr, "[kernels] cold and warm start (%s b%lld f32, child processes)\n", model.c_str(),
               static_cast<long long>(batch));
  // Not through alternate(): a child process needs no warm-up (each is a fresh start), so cold and warm simply take
  // turns, each warm run on the cache the cold run before it filled.
  const int pairs = c.o.smoke ? 1 : 3;
  std::vector<double> cold, warm;
  for (int i = 0; i < pairs; ++i) {
    cold.push_back(child(true));
    warm.push_back(child(false));
  }
  const std::vector<Stats> s{summarize(cold), summarize(warm)};
  c.report.rows.push_back(Row{
      "kernels.cold_start", "process start to the first " + model + " b" + std::to_string(batch) + " f32 step's loss",
      "ms", time_in("warm (same NXV_CACHE_DIR)", s[1], 1e3), time_in("cold (empty NXV_CACHE_DIR)", s[0], 1e3),
      "warm / cold", Target{"<=", 1.0 / 3.0},
      "driver disk caches off; " + std::to_string(cached_files) + " files in NXV_CACHE_DIR after a cold run"});
}

}  // namespace

SuiteReport run_kernels_suite(const Options& o) {
  SuiteReport report{"kernels", "ok", {}, {}, {}, {}};
  Context c{o, vulkan::backend(), report, {}};
  const ConvShape conv = o.smoke ? ConvShape{2, 8, 8, 16, 3} : ConvShape{32, 64, 64, 56, 3};
  if (o.gemm_only) {
    fma_peaks(c);
    gemm(c);
    return report;
  }
  dispatch_costs(c);
  bandwidth(c);
  fma_peaks(c);
  gemm(c);
  conv_layer(c, conv);
  cold_start(c);

  // PyTorch after our arms, in the same device call (its own warm-up, in a child process).
  auto join = [](const std::vector<std::int64_t>& v) {
    std::string s;
    for (std::int64_t x : v) s += (s.empty() ? "" : ",") + std::to_string(x);
    return s;
  };
  const fs::path dir = fs::path(o.work_dir) / "kernels";
  fs::create_directories(dir);
  vulkan::release_cached_memory();  // leave the device memory to PyTorch
  std::fprintf(stderr, "[kernels] torch_step.py --suite kernels\n");
  const PeerRun peer =
      run_peer(o,
               {"--suite", "kernels", "--json", (dir / "torch.json").string(), "--elements", join(o.elements), "--gemm",
                join(o.gemm), "--conv", join({conv.batch, conv.in, conv.out, conv.size, conv.kernel}), "--repeat",
                std::to_string(o.repeat), "--warmup-ms", std::to_string(static_cast<int>(o.warmup_ms))},
               dir / "torch.json");
  if (!peer.available) {
    report.notes.push_back("PyTorch rows " + peer.status + (peer.detail.empty() ? "" : " (" + peer.detail + ")"));
    if (peer.status.rfind("failed", 0) == 0) report.status = peer.status;
    return report;
  }
  report.notes.push_back("PyTorch: " + peer.detail);
  for (PeerComparison& p : c.peers) {
    const PeerSeries* s = peer.find(p.peer_id);
    if (s == nullptr) {
      report.status = "failed: torch_step.py gave no " + p.peer_id;
      continue;
    }
    p.row.b = rate_in(p.peer_arm, summarize(s->samples), p.work);
    report.rows.push_back(std::move(p.row));
  }
  return report;
}

int run_first_step_child(const std::string& model, std::int64_t batch) {
  const StepSetup setup{model, batch, DType::f32};
  Trainer t(setup, make_step_data(setup, 0.01), vulkan::backend());
  std::printf("loss %.9g\n", t.step());
  return 0;
}

}  // namespace nxv::bench
