// Helpers of the tests that run the nxv-bench binary: where it is, running it with its output captured, and
// reading its files and JSON.
#pragma once
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>

#include "io/json.hpp"

namespace nxv::testing::bench_cli {

namespace fs = std::filesystem;

// nxv-bench next to this test binary (build/apps/ beside build/tests/), or $NXV_BENCH.
inline fs::path bench_binary() {
  if (const char* env = std::getenv("NXV_BENCH")) return env;
  return fs::read_symlink("/proc/self/exe").parent_path().parent_path() / "apps" / "nxv-bench";
}

inline std::string read_text(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

struct BenchRun {
  int exit_code = -1;
  std::string output;  // stdout; stderr goes to DIR/stderr.txt
};

// Runs `nxv-bench ARGS` with stdout in DIR/stdout.txt and stderr in DIR/stderr.txt.
inline BenchRun run_bench(const std::string& args, const fs::path& dir) {
  const fs::path out = dir / "stdout.txt";
  const std::string cmd =
      bench_binary().string() + " " + args + " > " + out.string() + " 2> " + (dir / "stderr.txt").string();
  const int status = std::system(cmd.c_str());
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, read_text(out)};
}

inline const io::json::Value& member(const io::json::Value& v, const std::string& key) {
  const io::json::Value* m = v.find(key);
  if (m == nullptr) throw std::runtime_error("JSON member \"" + key + "\" is missing");
  return *m;
}

}  // namespace nxv::testing::bench_cli
