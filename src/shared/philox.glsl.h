// Philox-4x32-10 (Salmon, Moraes, Dror & Shaw, "Parallel random numbers: as easy as 1, 2, 3", SC 2011), written
// once in the syntax GLSL and C++ share: shaders include this file directly, C++ includes it through
// shared/philox.hpp. The includer may define NXV_FUNC (C++: `inline`) and NXV_OUT(T) (C++: `T&`); the
// defaults below are GLSL's. C++ also supplies `uint` and a umulExtended shim. Checked against Random123's
// known-answer vectors (its kat_vectors file) in tests/reference/creation_test.cpp.
#ifndef NXV_PHILOX_GLSL_H
#define NXV_PHILOX_GLSL_H

#ifndef NXV_OUT
#define NXV_OUT(T) out T
#endif
#ifndef NXV_FUNC
#define NXV_FUNC
#endif

// One Philox block: counter (c0..c3) and key (k0, k1) to four output words. Round constants from the paper:
// multipliers M0 = 0xD2511F53, M1 = 0xCD9E8D57; key increments (Weyl) W0 = 0x9E3779B9, W1 = 0xBB67AE85. The key is
// bumped between rounds (10 rounds, 9 bumps), as Random123's philox4x32_R does.
NXV_FUNC void nxv_philox(uint c0, uint c1, uint c2, uint c3, uint k0, uint k1, NXV_OUT(uint) o0,
                         NXV_OUT(uint) o1, NXV_OUT(uint) o2, NXV_OUT(uint) o3) {
  for (int r = 0; r < 10; r++) {
    if (r > 0) {
      k0 = k0 + 0x9E3779B9u;
      k1 = k1 + 0xBB67AE85u;
    }
    uint hi0;
    uint lo0;
    uint hi1;
    uint lo1;
    umulExtended(0xD2511F53u, c0, hi0, lo0);
    umulExtended(0xCD9E8D57u, c2, hi1, lo1);
    uint n0 = hi1 ^ c1 ^ k0;
    uint n2 = hi0 ^ c3 ^ k1;
    c0 = n0;
    c1 = lo1;
    c2 = n2;
    c3 = lo0;
  }
  o0 = c0;
  o1 = c1;
  o2 = c2;
  o3 = c3;
}

#endif  // NXV_PHILOX_GLSL_H
