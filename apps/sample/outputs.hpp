// What nxv-sample writes: the draws and sampler statistics as CSV and safetensors, the summary table, and trace
// and rank plots as PNG.
#pragma once
#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "nxv/mcmc.hpp"

namespace nxv::sample_app {

// One scalar element of a parameter, e.g. "beta[3]" or "L[1,0]" (the summary table's names), with its draws.
struct ElementDraws {
  std::string name;
  std::vector<std::vector<double>> chains;  // [chain][draw]
};
// Every element of every parameter, in the model's order (row-major within a parameter).
std::vector<ElementDraws> element_draws(const mcmc::Samples& samples);

// draws.csv: one row per (chain, draw): chain, draw, each parameter element, log_density, accept_stat, diverging,
// tree_depth, num_steps, step_size, energy (each number the shortest text that reads back as exactly its double).
// `elements` is element_draws(samples), which write_outputs also plots.
void write_draws_csv(const std::filesystem::path& path, const mcmc::Samples& samples,
                     const std::vector<ElementDraws>& elements);
// draws.safetensors: each parameter [chains, draws, shape...] under its name, and "unconstrained", "log_density",
// "accept_stat", "energy", "diverging", "num_steps", "tree_depth", "step_size", "inverse_mass" (metadata: the run).
void write_draws_safetensors(const std::filesystem::path& path, const mcmc::Samples& samples,
                             const std::map<std::string, std::string>& metadata);

// The rank histogram of each chain (ArviZ's plot_rank): the draws of all chains ranked together (ties get their
// average rank), the ranks cut into `bins` equal bins; [chain][bin] counts. Uniform for chains that mix.
std::vector<std::vector<double>> rank_histograms(const std::vector<std::vector<double>>& chains, int bins);
// trace_<name>.png: each chain's draws against the draw index. rank_<name>.png: one bar histogram of ranks per
// chain, stacked, with the uniform count as a dashed line (ArviZ's plot_rank, kind "bars").
void write_trace_plot(const std::filesystem::path& path, const ElementDraws& e);
void write_rank_plot(const std::filesystem::path& path, const ElementDraws& e);

// Writes everything above into `dir` (created): draws.csv, draws.safetensors, summary.txt (`summary`), and the
// plots of the first `max_plotted` elements. Returns the files written, in order.
std::vector<std::filesystem::path> write_outputs(const std::filesystem::path& dir, const mcmc::Samples& samples,
                                                 const std::string& summary,
                                                 const std::map<std::string, std::string>& metadata,
                                                 std::size_t max_plotted = 12);

}  // namespace nxv::sample_app
