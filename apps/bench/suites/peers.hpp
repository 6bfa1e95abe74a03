// Running bench/peers/torch_step.py (the PyTorch peer) and reading its JSON, for the peers and kernels suites.
#pragma once
#include <filesystem>
#include <string>
#include <vector>

#include "bench/suites/suites.hpp"

namespace nxv::bench {

struct PeerSeries {
  std::string id;               // "lenet.b32.f32.eager", "add.268435456", "gemm.f32.4096", ...
  std::vector<double> samples;  // seconds
  double first_loss = 0;        // training steps only
};

struct PeerRun {
  bool available = false;  // the script ran with torch on a CUDA device and wrote its JSON
  int exit_code = -1;
  std::string status;  // when not available: "skipped: no torch", "skipped: no CUDA device", "failed: ..."
  std::string detail;  // torch version and device, or why it is not available
  std::string output;  // the script's stdout
  std::vector<PeerSeries> series;
  const PeerSeries* find(const std::string& id) const;
};

// The script: --peer-script, else bench/peers/torch_step.py under the working directory, else under the source
// tree nxv-bench was built from.
std::string peer_script(const Options& o);

// Runs `python3 torch_step.py ARGS`; when `json_file` is not empty, reads the series the script wrote there.
// Exit codes of the script: 0 ok, 77 no torch, 76 no CUDA device; 127 here means python3 could not be started.
PeerRun run_peer(const Options& o, const std::vector<std::string>& args, const std::filesystem::path& json_file);

}  // namespace nxv::bench
