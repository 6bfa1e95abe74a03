// The C++ side of the shared-source Philox-4x32-10 (shared/philox.glsl.h): the GLSL names that file uses (`uint`,
// `out` parameters, umulExtended) defined for C++, then the same source the shaders compile.
#pragma once
#include <array>
#include <cstdint>

namespace nxv::philox {

// A namespace-local `uint` (not ::uint from <sys/types.h>) so that the GLSL text compiles unchanged.
using uint = std::uint32_t;

// GLSL's umulExtended: the 64-bit product of two 32-bit words, as high and low halves.
inline void umulExtended(uint a, uint b, uint& msb, uint& lsb) {
  const std::uint64_t product = static_cast<std::uint64_t>(a) * b;
  msb = static_cast<uint>(product >> 32);
  lsb = static_cast<uint>(product);
}

#define NXV_FUNC inline
#define NXV_OUT(T) T&
#include "shared/philox.glsl.h"
#undef NXV_FUNC
#undef NXV_OUT

// The four output words of Philox-4x32-10 for `counter` under `key`.
inline std::array<std::uint32_t, 4> philox4x32_10(const std::array<std::uint32_t, 4>& counter,
                                                  const std::array<std::uint32_t, 2>& key) {
  std::array<std::uint32_t, 4> out{};
  nxv_philox(counter[0], counter[1], counter[2], counter[3], key[0], key[1], out[0], out[1], out[2], out[3]);
  return out;
}

}  // namespace nxv::philox
