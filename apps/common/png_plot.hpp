// Line charts as PNG images: the training curves nxv-train writes next to its metrics (loss on the left axis,
// accuracy on the right), drawn with the built-in font and zlib only.
#pragma once
#include <filesystem>
#include <string>
#include <vector>

#include "common/raster.hpp"

namespace nxv::io {

// Colours that stay distinct for colour-blind readers (matplotlib's "tab10" blue, orange, green).
namespace colours {
inline constexpr Rgb blue{31, 119, 180};
inline constexpr Rgb orange{255, 127, 14};
inline constexpr Rgb green{44, 160, 44};
}  // namespace colours

enum class YAxis { left, right };

struct PlotSeries {
  std::string name;            // shown in the legend
  std::vector<double> values;  // one per x; NaN and infinities leave a gap
  Rgb colour = colours::blue;
  YAxis axis = YAxis::left;
};

struct PlotSpec {
  std::string title;
  std::string x_label;             // e.g. "epoch"
  std::string left_label;          // default: the names of the left-axis series
  std::string right_label;         // default: the names of the right-axis series
  std::vector<double> x;           // shared by all series; default 1, 2, ..., n
  std::vector<PlotSeries> series;  // at most 3 read well
  int width = 800, height = 500;
};

// Renders `spec` (frame, gridlines, ticks with numeric labels on every used axis, a legend, 2-pixel lines with
// point markers) and writes it to `path` as a PNG.
void write_line_plot(const std::filesystem::path& path, const PlotSpec& spec);
// The same chart as an image (for tests and for callers that compose images).
Image render_line_plot(const PlotSpec& spec);

}  // namespace nxv::io
