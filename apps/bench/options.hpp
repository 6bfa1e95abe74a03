// nxv-bench's command line: the flags read from the arguments, then checked and turned into a Command (the
// suites' Options and what to do with the results). Bad input is a UsageError naming the flag (exit status 2).
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "bench/compare.hpp"
#include "bench/suites/suites.hpp"
#include "common/command_line.hpp"

namespace nxv::bench {

using UsageError = cli::UsageError;

struct Command {
  Options options;
  std::vector<std::string> suites{"train", "peers", "kernels"};
  std::string json, markdown, append;
  std::string write_baseline, compare, headlines;
  CompareConfig compare_config;
  bool any_device = false;
  bool suites_given = false;
  bool help = false;
  std::string child_model;  // --first-step-child (internal: the cold/warm-start arm's child process)
  std::int64_t child_batch = 32;
  std::map<std::string, std::string> given;  // flag -> value, for the JSON
};

// The flags of the arguments after the program's name (common/command_line.hpp's rules): "--flag" -> value ("1"
// for switches).
std::map<std::string, std::string> read_flags(const std::vector<std::string>& args);
// The command they give (--device also sets NXV_DEVICE).
Command from_flags(std::map<std::string, std::string> v);

std::vector<std::string> split_list(const std::string& s);
std::int64_t parse_int(const std::string& flag, const std::string& s);

}  // namespace nxv::bench
