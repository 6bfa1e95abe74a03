// The safetensors reader (src/io/safetensors.hpp): header length, header JSON, dtypes, shapes and offsets of any
// file are read or refused with nxv::Error, never read out of bounds.
#include "fuzz.hpp"
#include "io/safetensors.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    const nxv::io::SafetensorsFile f =
        nxv::io::parse_safetensors(nxv::fuzz::bytes(data, size), "fuzz input", nxv::reference_backend());
    for (const auto& [name, t] : f.tensors) (void)t.to_string();
  } catch (const nxv::Error&) {
  }
  return 0;
}
