// A parallel loop for host-side work that is independent per item (compiling kernels): no pool, threads made per
// call, so it suits tasks of milliseconds, not microseconds.
#pragma once
#include <cstddef>
#include <functional>

namespace nxv::detail {

// Runs fn(0), ..., fn(n - 1) on up to `threads` threads, the calling one among them (0: one per CPU core), and
// returns when all are done. The first exception an item throws is rethrown here, after every thread has stopped;
// items not started by then are skipped.
void parallel_for(std::size_t n, const std::function<void(std::size_t)>& fn, unsigned threads = 0);

}  // namespace nxv::detail
