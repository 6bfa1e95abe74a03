// Checkpoints in Hugging Face's safetensors format, so PyTorch / Hugging Face tools can read the weights.
//
// Layout (https://github.com/huggingface/safetensors, README "Format"): an 8-byte little-endian u64 N, then N bytes
// of UTF-8 JSON {"<name>": {"dtype": "F32", "shape": [2, 3], "data_offsets": [begin, end]}, ...,
// "__metadata__": {"key": "value"}}, then the tensors' raw little-endian bytes; offsets count from the first byte
// after the header. Names with '.' (e.g. "conv1.kernel") stand for nested parameter maps.
#pragma once
#include <cstddef>
#include <filesystem>
#include <functional>
#include <map>
#include <span>
#include <string>
#include <string_view>

#include "nxv/backend.hpp"
#include "nxv/tensor.hpp"

namespace nxv::io {

struct SafetensorsFile {
  std::map<std::string, Tensor> tensors;
  std::map<std::string, std::string> metadata;
};

// Writes `tensors` (any backend; every dtype: pred as BOOL, u8/s8 ... u64 as U8/I8 ... U64, f32/f64 as F32/F64) and
// `metadata` to `path`, replacing it atomically (written to "<path>.tmp" and renamed, so a crash never leaves half a
// checkpoint). `check_written`, when given, is called with the finished "<path>.tmp" before the rename: if it
// throws, the file is removed and `path` is left as it was (nxv-train reads a checkpoint back before it replaces
// the previous one). The header is space-padded to a multiple of 8 bytes, and the data is ordered by element
// size, then name, so every tensor starts aligned to its element size (as the reference implementation does).
void save_safetensors(const std::filesystem::path& path, const std::map<std::string, Tensor>& tensors,
                      const std::map<std::string, std::string>& metadata = {},
                      const std::function<void(const std::filesystem::path&)>& check_written = {});

// Reads a safetensors file onto `backend`. Throws nxv::Error naming the file for anything but a regular file
// (a directory, a named pipe, a /proc file), a header length beyond the file, malformed JSON, an unknown dtype,
// offsets out of range, overlapping or leaving holes, and a shape whose size disagrees with its bytes.
SafetensorsFile load_safetensors(const std::filesystem::path& path, Backend& backend = default_backend());
// The same for the bytes of a file already in memory; `source` names them in errors.
SafetensorsFile parse_safetensors(std::span<const std::byte> bytes, std::string_view source,
                                  Backend& backend = default_backend());

}  // namespace nxv::io
