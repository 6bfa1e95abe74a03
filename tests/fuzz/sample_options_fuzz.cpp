// nxv-sample's command line (apps/sample/options.hpp): any argument list (the input split at NUL bytes) is parsed
// or refused with a UsageError naming the option.
#include "fuzz.hpp"
#include "sample/options.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::vector<std::string> args = nxv::fuzz::split_args(data, size);
  try {
    (void)nxv::sample_app::parse_args(args);
  } catch (const nxv::sample_app::UsageError&) {
  }
  return 0;
}
