// Everything public of nx_vulkan in one include:
//
//   #include <nxv/nxv.hpp>
//
// tensors and dtypes (tensor.hpp, dtype.hpp, shape.hpp), the op set (ops.hpp, with indexing.hpp and conv.hpp),
// backends and their registry (backend.hpp), the Vulkan backend and its fusion compiler (vulkan.hpp), host-fallback
// accounting (fallback.hpp), numerical definitions and jit (defn.hpp), loops and conditionals in them
// (control_flow.hpp), gradients (grad.hpp), vectorize (vectorize.hpp), linear algebra (linalg.hpp), neural-network
// layers, losses and optimizers (nn.hpp), probability distributions (dist.hpp), the bijections of constrained
// parameters (bijections.hpp) and MCMC diagnostics (mcmc_diagnostics.hpp). Errors are nxv::Error (error.hpp).
#pragma once
#include "nxv/backend.hpp"
#include "nxv/bijections.hpp"
#include "nxv/control_flow.hpp"
#include "nxv/conv.hpp"
#include "nxv/defn.hpp"
#include "nxv/dist.hpp"
#include "nxv/dtype.hpp"
#include "nxv/error.hpp"
#include "nxv/fallback.hpp"
#include "nxv/fft.hpp"
#include "nxv/grad.hpp"
#include "nxv/indexing.hpp"
#include "nxv/linalg.hpp"
#include "nxv/mcmc_diagnostics.hpp"
#include "nxv/nn.hpp"
#include "nxv/ops.hpp"
#include "nxv/precision.hpp"
#include "nxv/shape.hpp"
#include "nxv/tensor.hpp"
#include "nxv/vectorize.hpp"
#include "nxv/vulkan.hpp"
