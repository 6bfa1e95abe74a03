// The suites of nxv-bench: train (training steps), peers (the same steps in PyTorch), kernels, mcmc (HMC and NUTS
// against NumPyro) and linalg (nxv::linalg against torch.linalg).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "bench/report.hpp"

namespace nxv::bench {

struct Options {
  int repeat = 20;  // timed samples per arm (the reference backend takes min(repeat, reference_repeat))
  int reference_repeat = 3;
  double warmup_ms = 300;  // GPU work before each timed section
  bool smoke = false;      // tiny sizes, few repeats: seconds on lavapipe (CI)
  bool quick = false;      // kernels: no 8192 GEMM, no 2^28 elements; mcmc: one small case
  std::vector<std::int64_t> batches = {32, 256};
  std::vector<std::string> models = {"mlp", "lenet", "cnn"};
  std::vector<std::string> dtypes = {"f32", "f64"};
  std::vector<std::int64_t> elements;    // kernels: elementwise sizes (default 2^26, 2^28)
  std::vector<std::int64_t> gemm;        // kernels: square GEMM sizes (default 1024, 4096, 8192)
  std::vector<std::string> dot_kernels;  // kernels: GEMM arms per forced dot variant (empty: the automatic choice)
  std::vector<std::string> precisions{"exact", "fast"};  // kernels: GEMM arms per precision (include/nxv/precision.hpp)
  bool gemm_only = false;                                // kernels: the GEMM rows only, no PyTorch
  std::vector<std::string> linalg_runs;  // linalg: row ids "<fn>.<n>.b<batch>" of the full set (empty: all)
  std::vector<std::string> mcmc_runs;    // mcmc: "<case id>" or "<case id>.hmc|nuts" of the full set (empty: all)
  std::string python = "python3";
  std::string peer_script;  // bench/peers/torch_step.py (found next to the working directory by default)
  std::string work_dir;     // exports for the peers, cache dirs for cold start (a fresh temp dir)
  double lr = 0.01;         // SGD, no momentum: what torch_step.py uses too
};

SuiteReport run_train_suite(const Options& o);
SuiteReport run_peers_suite(const Options& o);
SuiteReport run_kernels_suite(const Options& o);
SuiteReport run_mcmc_suite(const Options& o);
SuiteReport run_linalg_suite(const Options& o);

// The child process of the cold/warm-start arm: builds `model`, runs one training step at `batch` in f32 on
// Vulkan, reads the loss back and prints it; returns the exit code.
int run_first_step_child(const std::string& model, std::int64_t batch);

}  // namespace nxv::bench
