// nxv-sample's trace and rank plots (outputs.hpp): traces through the shared line chart, rank histograms drawn
// here as stacked bar rows, one per chain, as ArviZ's plot_rank draws them.
#include <algorithm>
#include <cmath>
#include <numeric>

#include "common/bitmap_font.hpp"
#include "common/png_plot.hpp"
#include "nxv/error.hpp"
#include "sample/outputs.hpp"

namespace nxv::sample_app {

namespace {

// matplotlib's tab10, cycled: the colours ArviZ gives its chains.
constexpr io::Rgb kChainColours[] = {{31, 119, 180}, {255, 127, 14},  {44, 160, 44},   {214, 39, 40},  {148, 103, 189},
                                     {140, 86, 75},  {227, 119, 194}, {127, 127, 127}, {188, 189, 34}, {23, 190, 207}};
constexpr int kChainColourCount = sizeof kChainColours / sizeof kChainColours[0];
// More chains than this make an unreadable picture; the plots show the first ones and say so in the title.
constexpr std::size_t kMaxPlottedChains = 8;

std::string title_for(const ElementDraws& e, const char* what) {
  std::string t = std::string(what) + " of " + e.name;
  if (e.chains.size() > kMaxPlottedChains)
    t += " (the first " + std::to_string(kMaxPlottedChains) + " of " + std::to_string(e.chains.size()) + " chains)";
  return t;
}

}  // namespace

std::vector<std::vector<double>> rank_histograms(const std::vector<std::vector<double>>& chains, int bins) {
  NXV_CHECK(bins >= 1 && !chains.empty(), "rank_histograms", bins, " bins over ", chains.size(),
            " chains, expected at least 1 of each");
  std::vector<std::pair<double, std::size_t>> all;  // (value, chain)
  for (std::size_t c = 0; c < chains.size(); ++c)
    for (double v : chains[c]) all.emplace_back(v, c);
  std::sort(all.begin(), all.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<std::vector<double>> counts(chains.size(), std::vector<double>(bins, 0.0));
  const double n = static_cast<double>(all.size());
  for (std::size_t i = 0; i < all.size();) {
    std::size_t j = i;
    while (j < all.size() && all[j].first == all[i].first) ++j;
    const double rank = 0.5 * static_cast<double>(i + j - 1);  // 0-based, ties averaged
    const int bin = std::min(bins - 1, static_cast<int>(rank / n * bins));
    for (std::size_t k = i; k < j; ++k) counts[all[k].second][bin] += 1;
    i = j;
  }
  return counts;
}

void write_trace_plot(const std::filesystem::path& path, const ElementDraws& e) {
  io::PlotSpec spec;
  spec.title = title_for(e, "trace");
  spec.x_label = "draw";
  spec.left_label = e.name;
  for (std::size_t c = 0; c < e.chains.size() && c < kMaxPlottedChains; ++c)
    spec.series.push_back({"chain " + std::to_string(c), e.chains[c], kChainColours[c % kChainColourCount]});
  if (!e.chains.empty()) {
    spec.x.resize(e.chains[0].size());
    std::iota(spec.x.begin(), spec.x.end(), 0.0);
  }
  io::write_line_plot(path, spec);
}

void write_rank_plot(const std::filesystem::path& path, const ElementDraws& e) {
  const std::size_t shown = std::min(e.chains.size(), kMaxPlottedChains);
  const std::size_t draws = e.chains.empty() ? 0 : e.chains[0].size();
  // ArviZ's default: about sqrt(draws per chain) bins, at most 20 here so that a bar stays a few pixels wide.
  const int bins = std::clamp(static_cast<int>(std::sqrt(static_cast<double>(draws))), 1, 20);
  const std::vector<std::vector<double>> counts = rank_histograms(e.chains, bins);
  const int width = 800, row_height = 60, top = 40, left = 90, right = 20, bottom = 40;
  const int height = top + static_cast<int>(shown) * row_height + bottom;
  io::Image image(width, height, {255, 255, 255});
  const io::Rgb ink{40, 40, 40}, grey{150, 150, 150};
  io::draw_text(image, left, 12, title_for(e, "rank histogram"), ink, 2);
  const double uniform = static_cast<double>(draws) / bins;  // the expected count per bin and chain
  double tallest = uniform;
  for (std::size_t c = 0; c < shown; ++c)
    for (double v : counts[c]) tallest = std::max(tallest, v);
  const double plot_width = width - left - right;
  for (std::size_t c = 0; c < shown; ++c) {
    const int base = top + static_cast<int>(c + 1) * row_height - 4;  // the row's baseline
    const double scale = (row_height - 10) / tallest;
    io::draw_text(image, 8, base - row_height / 2, "chain " + std::to_string(c), ink, 1);
    for (int b = 0; b < bins; ++b) {
      const int x0 = left + static_cast<int>(b * plot_width / bins) + 1;
      const int x1 = left + static_cast<int>((b + 1) * plot_width / bins) - 1;
      image.fill_rect(x0, base - static_cast<int>(counts[c][b] * scale), x1, base,
                      kChainColours[c % kChainColourCount]);
    }
    image.hline(left, width - right, base, ink);
    const int expected = base - static_cast<int>(uniform * scale);
    for (int x = left; x < width - right; x += 8) image.hline(x, std::min(x + 4, width - right), expected, grey);
  }
  io::draw_text(image, left, height - bottom + 12,
                "rank (all chains together), " + std::to_string(bins) + " bins; dashed: the uniform count", ink, 1);
  io::write_png(path, image);
}

}  // namespace nxv::sample_app
