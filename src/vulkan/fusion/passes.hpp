// The planner's passes (plan_stages in plan.cpp runs them in order) and the state they share. Each pass reads
// what the earlier ones filled in and fills in its own part; docs/fusion-compiler.md explains the design.
#pragma once
#include <cstdint>
#include <map>
#include <vector>

#include "vulkan/fusion/plan.hpp"

namespace nxv::vulkan::fusion {

// A region's kernel: every member at the region's domain, then only what other stages and the outputs need.
struct RegionKernel {
  Kernel full;                         // every member, in topological order
  std::map<NodeId, int> member_value;  // the members `full` computes at its own element (those it can write)
  std::vector<NodeId> outputs;         // the members that must exist as tensors
  Kernel kernel;                       // `full` pruned to `outputs` (when the region is not absorbed)
};

// A candidate reduction stage: a reduction whose input is computed by elementwise ops.
struct ReductionStage {
  int region = -1;                     // the region whose members it computes (-1: none)
  Kernel full;                         // the region's members, then the reduction's input element
  std::map<NodeId, int> member_value;  // as RegionKernel's
  Kernel kernel;                       // `full` pruned to the region's outputs it writes (when it absorbs it)
};

// What the passes share. The comment above each group of fields names the passes that fill it in.
struct Planning {
  Planning(const Graph& graph, std::uint32_t max_bindings, bool fuse_reductions);
  // Whether region r is computed by the reduction stage that absorbs it (that reduction is needed).
  bool absorbed(int r) const { return absorber[r] >= 0 && needed[absorber[r]]; }

  const Graph& graph;
  std::uint32_t max_bindings;  // the storage buffers one kernel may bind
  bool fuse_reductions;        // reduction stages, epilogues and nested reductions (false: elementwise regions only)

  // group_elementwise_regions; split_oversized_region splits a region in two.
  std::vector<std::vector<NodeId>> regions;  // per region, its members in topological order
  std::vector<int> region_of;                // per node: its region, or -1
  // build_region_kernels (full, member_value); find_needed_values (outputs, kernel).
  std::vector<RegionKernel> region_kernels;  // per region
  // Per node, whether it may become a reduction stage: every node when fuse_reductions, until
  // keep_oversized_reduction_eager clears one.
  std::vector<bool> reduction_allowed;
  // plan_reduction_stages; find_needed_values (each needed reduction's kernel).
  std::map<NodeId, ReductionStage> reductions;  // by reduce node
  std::vector<NodeId> absorber;                 // per region: the first reduction stage computing its members, or -1
  // find_needed_values.
  std::vector<bool> needed;  // per node: whether it must exist as a tensor
  // form_stages; merge_epilogues and merge_nested_reductions merge stages into others, leaving the merged ones in
  // place; order_stages puts the others in execution order (deps and first_node follow, merged_into all -1).
  std::vector<Stage> stages;
  std::vector<std::vector<int>> deps;  // per stage: the stages it reads from
  std::vector<int> merged_into;        // per stage: the stage it was merged into, or -1
  std::vector<NodeId> first_node;      // per stage: its first node, for its place in the traced order
};

// ---- the passes, in plan_stages' order -------------------------------------------------------------------------
// Groups the live fusible nodes into elementwise regions (regions, region_of) such that the stage graph they
// induce is acyclic (grouping.cpp).
void group_elementwise_regions(Planning& p);
// Builds each region's kernel of every member (region_kernels[r].full, member_value) (program.cpp).
void build_region_kernels(Planning& p);
// Makes each allowed reduction whose input is computed a candidate reduction stage, computing that input's region
// when it is the region's own domain (reductions), and picks the reduction that absorbs each region (absorber)
// (reductions.cpp).
void plan_reduction_stages(Planning& p);
// Finds the values that must exist as tensors (needed: outputs, eager stages' inputs, active kernels' reads) and
// prunes every active kernel to what it must write (region_kernels[r].outputs and kernel, reductions' kernel)
// (needed.cpp).
void find_needed_values(Planning& p);
// When a region's kernel needs more bindings than allowed, splits the first such region in topological order
// and says so; the kernels must then be planned again (needed.cpp).
bool split_oversized_region(Planning& p);
// When a reduction stage's kernel needs more bindings than allowed, keeps the first such reduction eager and says
// so; the kernels must then be planned again (needed.cpp).
bool keep_oversized_reduction_eager(Planning& p);
// When a reduction's input is a member of a region that another reduction absorbs and writes anyway (someone
// else reads it), keeps that reduction eager, so that it reads the written value instead of computing the region
// again (two reductions over a NUTS likelihood's terms recomputed its transcendentals per element); says so, and
// the kernels must then be planned again (needed.cpp).
bool read_materialised_reduction_inputs(Planning& p);
// One stage per needed eager node, unabsorbed region and reduction stage, in the order of their first node, and
// their dependencies (stages, deps, first_node; merged_into all -1) (stages.cpp).
void form_stages(Planning& p);
// Merges regions over a reduction's or a dot's (conv's) result into that stage as its epilogue (epilogue.cpp).
void merge_epilogues(Planning& p);
// Merges a reduction of short rows into the reduction to one value that reads it (nested.cpp).
void merge_nested_reductions(Planning& p);
// Drops the merged stages and orders the rest topologically, staying close to the traced order (stages.cpp).
void order_stages(Planning& p);
// Reorders the ordered stages by dependency level (a stage's level: 1 + its deepest input stage's), stable within a
// level, so that stages that do not depend on each other run side by side: the runtime puts a barrier before a
// dispatch only when it reads what the current epoch wrote (batch.cpp), so independent stages interleaved with a
// dependent chain cost a barrier each, and grouped by level they share one (stages.cpp).
void schedule_by_level(Planning& p);

// Whether `stage` depends on `target` through some other stage (`deps[s]`: the stages s reads from): merging the
// two would then make a cycle (stages.cpp).
bool depends_indirectly(const std::vector<std::vector<int>>& deps, int stage, int target);

}  // namespace nxv::vulkan::fusion
