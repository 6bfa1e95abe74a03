// nxv-train's command line (apps/train/options.hpp): any argument list (the input split at NUL bytes) is parsed
// or refused with a UsageError naming the option.
#include "fuzz.hpp"
#include "train/options.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::vector<std::string> args = nxv::fuzz::split_args(data, size);
  try {
    (void)nxv::train::parse_args(args);
  } catch (const nxv::train::UsageError&) {
  } catch (const nxv::Error&) {
  }
  return 0;
}
