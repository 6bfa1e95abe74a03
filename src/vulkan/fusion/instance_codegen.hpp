// Per-instance kernels (trace/jit_map.hpp): a one-instance graph generated as GLSL that ONE invocation runs for its
// instance — each op as a loop over the instance's elements (small ones unrolled), control flow as GLSL loops and
// branches — so that, for MCMC, a chain's whole transition (its leapfrog steps, NUTS's tree, the adaptation) is
// one invocation of one dispatch, for every chain at once (issue 17's chain shaders).
//
// Where a node's value lives: a register (one element), a local array (up to kLocalElements), else a region of a
// scratch buffer of its compute type, laid out instance-minor ((offset + e) * count + instance), so that
// neighbouring invocations touch neighbouring words. The inputs, constants and outputs are packed per dtype, one
// binding per block, so the number of bindings does not grow with the number of tensors (an MCMC step has ~30):
//   batched inputs [instances, row] (instance c's members at c * row + offset), shared inputs and constants [n]
//   (every instance reads the same words), outputs [instances, row].
//
// Two mappings of an instance onto the GPU (InstanceOptions::group):
//  - one invocation per instance (above), for small instances: every value is the invocation's own;
//  - a workgroup of kGroupLanes invocations per instance, for instances with large values (observations, many
//    parameters), which one invocation would walk alone: a value past kLocalElements is spread over the group,
//    invocation l computing its elements l, l + 256, ... (in shared memory while it fits, else in scratch memory
//    laid out instance-major), with a barrier around each such store; a reduction of a large value to a small one
//    is cooperative (lane l folds elements l, l + 256, ... and the lanes meet in shared memory as a tree: the
//    reference's order exactly); a dot with a small output and a long contraction computes each output element
//    in its own invocation; smaller values are computed by every invocation alike, so control flow, which depends
//    only on them, is uniform across the group and its barriers are legal.
//
// Exactness: elementwise ops call the fusion compiler's helpers, which are the eager kernels' code (so they are bit
// for bit the vectorized path's); a reduction or dot sums in index order, one rounding per step (the reference
// backend's order for dot in exact mode), where the vectorized path's kernels sum as trees: a sum may differ from
// the vectorized one by rounding, each within gamma(n) * sum |x_i| of the exact sum.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "nxv/dtype.hpp"
#include "trace/graph.hpp"

namespace nxv::vulkan::fusion {

inline constexpr std::int64_t kLocalElements = 32;  // a larger value goes to scratch memory
// Loops over at most this many elements are unrolled; inside a while loop on a device that caps loop trips, up to
// kLocalElements, so that only values in scratch memory cost trips there (NUTS's tree of ~1000 leaves then fits
// lavapipe's cap, at the price of longer compiles).
inline constexpr std::int64_t kUnrolled = 8;
inline constexpr std::uint32_t kInstanceGroup = 64;  // invocations per workgroup, one instance each
inline constexpr std::uint32_t kGroupLanes = 256;    // invocations per instance in the workgroup mapping
// On a device that caps loop trips (DeviceFeatures::loop_trips_capped), an invocation stops after this many trips of
// the generated loops and reports it (the math library's own loops need the rest of the 65535 the device allows).
inline constexpr std::uint32_t kTripBudget = 30000;
// The statements one invocation may execute, estimated from the loops' trip counts (a while loop counted as
// kWhileTrips: NUTS's tree of depth 10): a kernel past it is not generated, since a dispatch that runs for seconds
// may lose the device (the H100 lost it in a 10^6-observation test before this budget; the cause was not isolated,
// and with the budget that test's kernels ran there in 15 s). In the workgroup mapping it counts one invocation's
// share (a spread loop's trips divided by kGroupLanes).
inline constexpr double kWorkBudget = 5e7;
inline constexpr double kWhileTrips = 1024;

struct InstanceKernel {
  std::string glsl;
  struct Member {
    int index = 0;            // the graph parameter or output it holds
    std::int64_t offset = 0;  // its first element in the block's row
    std::int64_t elements = 0;
  };
  struct Block {
    DType dtype = DType::f32;
    std::int64_t row = 0;  // elements per instance (batched inputs, outputs) or in all (shared)
    std::vector<Member> members;
  };
  // Binding order: batched, shared, constants, outputs, scratch, then the trip status when cap_trips.
  std::vector<Block> batched, shared, outputs;
  struct Constants {
    DType dtype = DType::f32;
    std::vector<std::byte> bytes;  // every non-scalar constant of that dtype, concatenated
  };
  std::vector<Constants> constants;
  struct Scratch {
    std::string type;  // GLSL compute type
    std::int64_t elements = 0;
    std::size_t bytes = 0;  // per element
  };
  std::vector<Scratch> scratch;  // per instance
  bool cap_trips = false;        // binds a u32 per instance: nonzero when the invocation stopped at kTripBudget
  bool group = false;            // a workgroup of kGroupLanes invocations per instance (else kInstanceGroup instances)
  std::size_t shared_bytes = 0;  // workgroup shared memory the kernel declares
  std::size_t bindings() const;
};

// What the device needs from the generated code.
struct InstanceOptions {
  bool cap_trips = false;  // count loop trips and stop at kTripBudget (a device with loop_trips_capped)
  // Spell float constants as literals instead of loading them from the constants buffer. Loads keep a GPU driver
  // from folding a constant into the arithmetic around it; on llvmpipe, whose LLVM folds exactly, literals keep
  // a large kernel's compile from growing superlinearly (a model using every distribution took minutes with loads).
  bool float_literals = false;
  // A workgroup of kGroupLanes invocations per instance (the file comment), with at most `shared_bytes` of shared
  // memory for its spread values and lanes (the device's maxComputeSharedMemorySize).
  bool group = false;
  std::size_t shared_bytes = 16384;
};

// The kernel for `graph` (one instance; parameter i batched where batched[i]), or nullopt with `why` when the graph
// has an op, a dtype or a form this generator does not handle (the caller vectorizes instead).
std::optional<InstanceKernel> generate_instance_kernel(const Graph& graph, const std::vector<bool>& batched,
                                                       const InstanceOptions& options, std::string& why);

}  // namespace nxv::vulkan::fusion
