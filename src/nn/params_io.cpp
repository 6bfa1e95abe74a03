// save_params / load_params: the public face of the safetensors reader and writer (src/io/safetensors.cpp).
#include "io/safetensors.hpp"
#include "nxv/nn.hpp"

namespace nxv::nn {

void save_params(const std::filesystem::path& path, const Params& params,
                 const std::map<std::string, std::string>& metadata) {
  io::save_safetensors(path, params, metadata);
}

LoadedParams load_params(const std::filesystem::path& path, Backend& backend) {
  io::SafetensorsFile file = io::load_safetensors(path, backend);
  return {std::move(file.tensors), std::move(file.metadata)};
}

}  // namespace nxv::nn
