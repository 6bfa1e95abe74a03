// nxv-sample's CSV reader (apps/sample/data.hpp): any file is read or refused with a UsageError naming the line
// and the column. The input goes through a file, as --data gives it.
#include <unistd.h>

#include <cstdio>
#include <fstream>

#include "fuzz.hpp"
#include "sample/data.hpp"
#include "sample/options.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const std::string path = "/tmp/nxv_sample_csv_fuzz." + std::to_string(getpid()) + ".csv";
  {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  }
  try {
    const nxv::sample_app::LogisticData d = nxv::sample_app::read_logistic_csv(path);
    if (d.x.size() != static_cast<std::size_t>(d.n * d.k) || d.y.size() != static_cast<std::size_t>(d.n))
      __builtin_trap();  // the reader's promise: x is [n, k], y is [n]
  } catch (const nxv::sample_app::UsageError&) {
  }
  std::remove(path.c_str());
  return 0;
}
