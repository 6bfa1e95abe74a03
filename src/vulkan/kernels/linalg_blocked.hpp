// Blocked linear algebra for large matrices on the Vulkan backend (linalg_blocked.cpp): the one-workgroup kernels
// on panels, GEMMs for the rest.
#pragma once
#include <cstdint>

#include "nxv/tensor.hpp"
#include "ops/op.hpp"

namespace nxv::vulkan::kernels {

// Whether a Cholesky factorisation of order n runs blocked (else one workgroup per matrix).
bool blocked_cholesky_pays(std::int64_t n);
// The lower Cholesky factor of a[..., n, n] (its lower triangle read), by recursive blocking onto matmul.
Tensor blocked_cholesky(const Tensor& a);
// Whether an LU factorisation of order n runs recursively blocked.
bool blocked_lu_pays(std::int64_t n);
// OpCode::lu's packed result [..., n, n + 2] (factors, the rows' order, getf2's pivots, as a's dtype) of a[..., n, n]
// by recursion onto matmul.
Tensor blocked_lu(const Tensor& a);
// Whether a triangular solve of order n runs blocked.
bool blocked_triangular_solve_pays(std::int64_t n);
// OpCode::triangular_solve's result for a[..., n, n] and b (batch axes already a's), blocked onto matmul.
Tensor blocked_triangular_solve(const Tensor& a, const Tensor& b, const TriangularSolveAttrs& attrs);

}  // namespace nxv::vulkan::kernels
