// The JSON reader (src/io/json.hpp), which reads safetensors headers, checkpoints' metadata and nxv-bench's peer
// results: any text is parsed or refused with nxv::Error.
#include "fuzz.hpp"
#include "io/json.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    const nxv::io::json::Value v = nxv::io::json::parse(nxv::fuzz::text(data, size), "fuzz input");
    (void)nxv::io::json::quote(nxv::fuzz::text(data, size));
    (void)v;
  } catch (const nxv::Error&) {
  }
  return 0;
}
