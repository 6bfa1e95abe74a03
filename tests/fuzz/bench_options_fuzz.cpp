// nxv-bench's command line (apps/bench/options.hpp): any argument list (the input split at NUL bytes) is parsed or
// refused with a UsageError naming the flag. Nothing is measured.
#include "bench/options.hpp"
#include "fuzz.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::vector<std::string> args = nxv::fuzz::split_args(data, size);
  try {
    (void)nxv::bench::from_flags(nxv::bench::read_flags(args));
  } catch (const nxv::bench::UsageError&) {
  } catch (const nxv::Error&) {
  }
  return 0;
}
