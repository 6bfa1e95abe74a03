// The backend registry's private side: what jit asks it, and the list of backends a build contains.
#pragma once
#include <memory>
#include <vector>

#include "nxv/backend.hpp"

namespace nxv::detail {

// jit's compiler for tensors on `backend`: its registered compiler, else the evaluator (null here).
std::shared_ptr<Compiler> registered_compiler(const Backend& backend);
// jit_map's per-instance compiler for tensors on `backend`, or null.
std::shared_ptr<MapCompiler> registered_map_compiler(const Backend& backend);

// Every backend this build contains, registered on the registry's first use: defined by src/backends.cpp, above
// every backend, so that the core names none and a static link keeps them all.
std::vector<BackendInfo> builtin_backends();

}  // namespace nxv::detail
