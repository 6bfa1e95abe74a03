// Blocked linear algebra for large matrices on the Vulkan backend (linalg_blocked.cpp): the one-workgroup kernels
// on panels, GEMMs for the rest.
#pragma once
#include <cstdint>

#include "nxv/tensor.hpp"

namespace nxv::vulkan::kernels {

// Whether a Cholesky factorisation of order n runs blocked (else one workgroup per matrix).
bool blocked_cholesky_pays(std::int64_t n);
// The lower Cholesky factor of a[..., n, n] (its lower triangle read), by recursive blocking onto matmul.
Tensor blocked_cholesky(const Tensor& a);

}  // namespace nxv::vulkan::kernels
