// Suite `linalg`: nxv::linalg's factorisations on many small matrices at once (matrices/s) and on one larger matrix
// (GFLOP/s), side by side with torch.linalg (cuSOLVER) from bench/peers/torch_step.py --suite linalg in the same
// run. Every function is checked against the reference backend on a small batch before timing.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <map>

#include "bench/harness.hpp"
#include "bench/suites/peers.hpp"
#include "bench/suites/suites.hpp"
#include "nxv/fft.hpp"
#include "nxv/linalg.hpp"
#include "nxv/vulkan.hpp"

namespace nxv::bench {

namespace {

namespace fs = std::filesystem;

// The functions timed, by the id torch_step.py uses: each takes a batch of matrices (symmetric positive definite
// ones, for cholesky and eigh) and returns tensors that depend on all of the work.
using LinalgFn = std::function<std::vector<Tensor>(const Tensor& a, const Tensor& b)>;
const std::map<std::string, LinalgFn>& functions() {
  static const std::map<std::string, LinalgFn> f = {
      {"cholesky", [](const Tensor& a, const Tensor&) { return std::vector<Tensor>{linalg::cholesky(a)}; }},
      {"solve", [](const Tensor& a, const Tensor& b) { return std::vector<Tensor>{linalg::solve(a, b)}; }},
      {"lu",
       [](const Tensor& a, const Tensor&) {
         const linalg::LU f = linalg::lu(a);
         return std::vector<Tensor>{f.l, f.u};
       }},
      {"qr",
       [](const Tensor& a, const Tensor&) {
         const linalg::QR f = linalg::qr(a);
         return std::vector<Tensor>{f.q, f.r};
       }},
      {"eigh",
       [](const Tensor& a, const Tensor&) {
         const linalg::Eigh e = linalg::eigh(a);
         return std::vector<Tensor>{e.eigenvalues, e.eigenvectors};
       }},
      {"svd",
       [](const Tensor& a, const Tensor&) {
         const linalg::SVD f = linalg::svd(a);
         return std::vector<Tensor>{f.u, f.s, f.vt};
       }},
      // Rows of complex numbers rather than matrices: `a` is [batch, n] c64 (fft_signals).
      {"fft", [](const Tensor& a, const Tensor&) { return std::vector<Tensor>{fft(a)}; }},
  };
  return f;
}

// [batch, n, n] with entries in [-1, 1] plus n on the diagonal: symmetric positive definite once symmetrised
// (a + aᵀ)/2, and far from singular.
Tensor test_matrices(std::int64_t batch, std::int64_t n, Backend& backend) {
  const Tensor x = uniform(key(11), {batch, n, n}, DType::f32, -1, 1, backend);
  return (x + transpose(x, Axes{0, 2, 1})) * 0.5 + eye(Shape{n, n}, DType::f32, backend) * static_cast<double>(n);
}

// [batch, n] c64 with parts in [0, 1): the signals the fft rows transform.
Tensor fft_signals(std::int64_t batch, std::int64_t n, Backend& backend) {
  return complex(uniform(key(14), {batch, n}, DType::f32, 0, 1, backend),
                 uniform(key(15), {batch, n}, DType::f32, 0, 1, backend));
}

double max_rel_diff(const Tensor& a, const Tensor& b) {
  const Tensor ha = as_type(a.to_host(), DType::f64), hb = as_type(b.to_host(), DType::f64);
  return reduce_max(abs(ha - hb)).item() / std::max(reduce_max(abs(hb)).item(), 1e-300);
}

struct Case {
  std::string fn;
  std::int64_t batch, n;
};

}  // namespace

SuiteReport run_linalg_suite(const Options& o) {
  SuiteReport report{"linalg", "ok", {}, {}, {}, {}};
  Backend& gpu = vulkan::backend();
  for (const auto& [id, fn] : functions()) {
    const Tensor a =
        id == "fft" ? fft_signals(6, 1000, reference_backend()) : test_matrices(6, 12, reference_backend());
    const Tensor b = uniform(key(12), {6, 12, 1}, DType::f32, -1, 1);
    const std::vector<Tensor> want = fn(a, b), got = fn(a.to(gpu), b.to(gpu));
    for (std::size_t i = 0; i < want.size(); ++i)
      report.checks.push_back(
          {id + (id == "fft" ? " 6 x 1000 c64" : " 6 x 12x12 f32") + " vs reference (output " + std::to_string(i) + ")",
           0, 0, max_rel_diff(id == "fft" ? real_view(got[i]) : got[i], id == "fft" ? real_view(want[i]) : want[i]),
           1e-4});
  }
  // Batched small matrices (the 10^5 x 8, 16, 32), then one larger matrix per function (the one-workgroup
  // kernels' weak side, but for cholesky and lu, blocked onto GEMMs past 128² and 256²), and the 4096²
  // cholesky and lu.
  std::vector<Case> cases;
  const std::int64_t batch = o.smoke ? 64 : 100000;
  for (std::int64_t n : o.smoke ? std::vector<std::int64_t>{8} : std::vector<std::int64_t>{8, 16, 32})
    for (const auto& [id, fn] : functions())
      if (id != "fft") cases.push_back({id, batch, n});
  for (const std::string id : {"cholesky", "lu", "qr"}) cases.push_back({id, 1, o.smoke ? 16 : 512});
  cases.push_back({"cholesky", 1, o.smoke ? 256 : 4096});
  cases.push_back({"lu", 1, o.smoke ? 260 : 4096});
  // The FFT sizes: one 2^24-point c64 transform, and 1024 rows of 4096.
  cases.push_back({"fft", 1, o.smoke ? 4096 : std::int64_t{1} << 24});
  cases.push_back({"fft", o.smoke ? 4 : 1024, 4096});
  const auto id_of = [](const Case& c) { return c.fn + "." + std::to_string(c.n) + ".b" + std::to_string(c.batch); };
  if (!o.linalg_runs.empty()) {  // --linalg-runs: the listed rows only
    std::string known;
    for (const Case& c : cases) known += (known.empty() ? "" : ", ") + id_of(c);
    for (const std::string& run : o.linalg_runs) {
      bool found = false;
      for (const Case& c : cases) found = found || id_of(c) == run;
      if (!found) detail::fail("--linalg-runs: no row '", run, "'; the rows are ", known);
    }
    std::erase_if(cases, [&](const Case& c) {
      return std::find(o.linalg_runs.begin(), o.linalg_runs.end(), id_of(c)) == o.linalg_runs.end();
    });
  }
  std::string torch_cases;
  std::vector<Row> rows;
  for (const Case& c : cases) {
    const bool rows_of_signals = c.fn == "fft";
    std::fprintf(stderr, "[linalg] %s %lld x %lld%s\n", c.fn.c_str(), static_cast<long long>(c.batch),
                 static_cast<long long>(c.n), rows_of_signals ? " c64" : ("x" + std::to_string(c.n) + " f32").c_str());
    const Tensor a = rows_of_signals ? fft_signals(c.batch, c.n, gpu) : test_matrices(c.batch, c.n, gpu);
    const Tensor b = uniform(key(13), {c.batch, rows_of_signals ? 1 : c.n, 1}, DType::f32, -1, 1, gpu);
    const LinalgFn& fn = functions().at(c.fn);
    vulkan::flush();
    const Arm arm{c.fn, [&] {
                    return time_seconds([&] {
                      const std::vector<Tensor> r = fn(a, b);
                      vulkan::flush();
                    });
                  }};
    const int repeat = c.batch == 1 ? std::min(o.repeat, 5) : o.repeat;
    const Stats s = alternate({arm}, repeat, o.warmup_ms)[0];
    const std::string id = id_of(c);
    const std::string what = c.fn + " " + std::to_string(c.batch) + " x " + std::to_string(c.n) +
                             (rows_of_signals ? " c64, vs torch.fft" : "², vs torch.linalg");
    rows.push_back(Row{"linalg." + id, what, rows_of_signals ? "transforms/s" : "matrices/s",
                       rate_in(c.fn, s, static_cast<double>(c.batch)), std::nullopt, "ours / PyTorch's", std::nullopt,
                       ""});
    torch_cases += (torch_cases.empty() ? "" : ",") + c.fn + ":" + std::to_string(c.batch) + ":" + std::to_string(c.n);
  }
  const fs::path dir = fs::path(o.work_dir) / "linalg";
  fs::create_directories(dir);
  vulkan::release_cached_memory();
  std::fprintf(stderr, "[linalg] torch_step.py --suite linalg\n");
  const PeerRun peer =
      run_peer(o,
               {"--suite", "linalg", "--json", (dir / "torch.json").string(), "--linalg", torch_cases, "--repeat",
                std::to_string(o.repeat), "--warmup-ms", std::to_string(static_cast<int>(o.warmup_ms))},
               dir / "torch.json");
  if (!peer.available)
    report.notes.push_back("PyTorch rows " + peer.status + (peer.detail.empty() ? "" : " (" + peer.detail + ")"));
  else
    report.notes.push_back("PyTorch: " + peer.detail);
  for (std::size_t i = 0; i < rows.size(); ++i) {
    Row& r = rows[i];
    const PeerSeries* p = peer.available ? peer.find(r.id.substr(std::string("linalg.").size())) : nullptr;
    if (p != nullptr && !p->samples.empty())
      r.b = rate_in(cases[i].fn == "fft" ? "torch.fft" : "torch.linalg", summarize(p->samples),
                    static_cast<double>(cases[i].batch));
    else if (peer.available)
      r.note = "torch.linalg failed on this case (its error is in the peer's log)";
    report.rows.push_back(std::move(r));
  }
  return report;
}

}  // namespace nxv::bench
