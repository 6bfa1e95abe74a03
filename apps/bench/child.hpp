// Child processes of nxv-bench: the PyTorch peer script, and the cold/warm-start runs of nxv-bench itself (a
// fresh process is the only way to measure pipeline creation and the on-disk cache from scratch).
#pragma once
#include <map>
#include <string>
#include <vector>

namespace nxv::bench {

struct ChildResult {
  int exit_code = -1;  // 127: the program could not be started; 128 + n: killed by signal n
  std::string output;  // stdout (stderr passes through to ours, so its progress stays visible)
  double seconds = 0;  // wall time from spawn to exit
};

// Runs argv[0] (looked up in PATH when it has no '/') with argv, our environment plus `env` (a value replaces
// ours), and waits for it.
ChildResult run_child(const std::vector<std::string>& argv, const std::map<std::string, std::string>& env = {});

// The path of the running executable (/proc/self/exe), to start nxv-bench again.
std::string self_executable();

}  // namespace nxv::bench
