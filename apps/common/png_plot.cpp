#include "common/png_plot.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "common/bitmap_font.hpp"
#include "nxv/error.hpp"

namespace nxv::io {

namespace {

constexpr Rgb kBackground{255, 255, 255};
constexpr Rgb kInk{40, 40, 40};      // title, legend
constexpr Rgb kAxisInk{90, 90, 90};  // frame, ticks, tick labels
constexpr Rgb kGrid{228, 228, 228};
constexpr int kTickLength = 5;
constexpr int kMaxMarkedPoints = 40;  // beyond this, point markers would merge into a thick line

// A numeric axis: its range and tick values, chosen as multiples of 1, 2 or 5 × 10^k.
struct Axis {
  double lo = 0, hi = 1;
  std::vector<double> ticks;
  int decimals = 0;
};

double nice_step(double span, int target_ticks) {
  const double raw = span / std::max(target_ticks, 1);
  const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
  for (double m : {1.0, 2.0, 5.0})
    if (m * magnitude >= raw * (1 - 1e-9)) return m * magnitude;
  return 10 * magnitude;
}

int decimals_for(double step) { return std::max(0, -static_cast<int>(std::floor(std::log10(step) + 1e-9))); }

// A y axis covering [lo, hi] with 5% padding, extended outwards to whole ticks.
Axis value_axis(double lo, double hi, int target_ticks) {
  if (!(lo <= hi)) {
    lo = 0;
    hi = 1;
  }  // no finite data
  if (hi - lo < 1e-12 * std::max(1.0, std::abs(hi))) {
    const double half = std::abs(lo) > 0 ? std::abs(lo) * 0.1 : 0.5;
    lo -= half;
    hi += half;
  }
  const double pad = (hi - lo) * 0.05;
  const double step = nice_step(hi - lo + 2 * pad, target_ticks);
  Axis a;
  const auto first = static_cast<long long>(std::floor((lo - pad) / step + 1e-9));
  const auto last = static_cast<long long>(std::ceil((hi + pad) / step - 1e-9));
  for (long long k = first; k <= last; ++k) a.ticks.push_back(static_cast<double>(k) * step);
  a.lo = a.ticks.front();
  a.hi = a.ticks.back();
  a.decimals = decimals_for(step);
  return a;
}

// The x axis spans exactly the data; ticks are the multiples of the step inside it (whole numbers for epochs).
Axis position_axis(double lo, double hi, bool whole_numbers, int target_ticks) {
  Axis a;
  a.lo = lo;
  a.hi = hi;
  if (hi <= lo) {
    a.ticks = {lo};
    a.decimals = whole_numbers ? 0 : 2;
    return a;
  }
  double step = nice_step(hi - lo, target_ticks);
  if (whole_numbers) step = std::max(step, 1.0);
  for (auto k = static_cast<long long>(std::ceil(lo / step - 1e-9)); k * step <= hi + step * 1e-9; ++k)
    a.ticks.push_back(static_cast<double>(k) * step);
  a.decimals = decimals_for(step);
  return a;
}

std::string tick_label(double v, int decimals) {
  char buf[32];
  if (std::abs(v) >= 1e6)
    std::snprintf(buf, sizeof buf, "%.3g", v);
  else
    std::snprintf(buf, sizeof buf, "%.*f", decimals, std::abs(v) < 1e-12 ? 0.0 : v);
  return buf;
}

int widest_label(const Axis& a, int scale) {
  int w = 0;
  for (double t : a.ticks) w = std::max(w, text_width(tick_label(t, a.decimals), scale));
  return w;
}

// The label of a y axis: the caller's, or the names of the series on it, in the series' colour when only one.
std::pair<std::string, Rgb> axis_label(const PlotSpec& spec, YAxis side) {
  std::string label = side == YAxis::left ? spec.left_label : spec.right_label;
  std::string names;
  Rgb colour = kInk;
  int count = 0;
  for (const auto& s : spec.series) {
    if (s.axis != side) continue;
    names += (count++ ? ", " : "") + s.name;
    colour = s.colour;
  }
  return {label.empty() ? names : label, count == 1 ? colour : kInk};
}

}  // namespace

Image render_line_plot(const PlotSpec& spec) {
  NXV_CHECK(!spec.series.empty(), "write_line_plot", "got no series, expected 1 to 3");
  std::size_t n = 0;
  for (const auto& s : spec.series) n = std::max(n, s.values.size());
  std::vector<double> xs = spec.x;
  if (xs.empty())
    for (std::size_t i = 0; i < n; ++i) xs.push_back(static_cast<double>(i + 1));
  NXV_CHECK(xs.size() >= n, "write_line_plot", "got ", xs.size(), " x values for a series of ", n,
            " values, expected one x per value");

  Image img(spec.width, spec.height, kBackground);
  const int scale = spec.width >= 600 && spec.height >= 360 ? 2 : 1;
  const int text_h = text_height(scale);

  // ---- ranges ----
  bool has[2] = {false, false};
  double lo[2] = {INFINITY, INFINITY}, hi[2] = {-INFINITY, -INFINITY};
  for (const auto& s : spec.series) {
    const int side = s.axis == YAxis::left ? 0 : 1;
    has[side] = true;
    for (double v : s.values)
      if (std::isfinite(v)) {
        lo[side] = std::min(lo[side], v);
        hi[side] = std::max(hi[side], v);
      }
  }
  double x_lo = INFINITY, x_hi = -INFINITY;
  bool whole = true;
  for (std::size_t i = 0; i < std::max<std::size_t>(n, 1) && i < xs.size(); ++i) {
    x_lo = std::min(x_lo, xs[i]);
    x_hi = std::max(x_hi, xs[i]);
    whole = whole && xs[i] == std::round(xs[i]);
  }
  if (!(x_lo <= x_hi)) x_lo = x_hi = 1;

  // ---- layout: title, legend, then the plot box with room for the tick labels and axis labels ----
  const int title_scale = text_width(spec.title, scale) + 20 <= spec.width ? scale : 1;
  const int title_y = 10;
  const int legend_y = title_y + (spec.title.empty() ? 0 : text_height(title_scale) + 12);
  const int top = legend_y + text_h + 16;
  const int bottom = spec.height - (kTickLength + 6 + text_h + (spec.x_label.empty() ? 10 : 12 + text_h + 10));
  const int target_y_ticks = std::max(2, (bottom - top) / (text_h * 3));
  Axis y[2] = {value_axis(lo[0], hi[0], target_y_ticks), value_axis(lo[1], hi[1], target_y_ticks)};
  const auto left_label = axis_label(spec, YAxis::left);
  const auto right_label = axis_label(spec, YAxis::right);
  const int left = 10 + (has[0] && !left_label.first.empty() ? text_h + 10 : 0) +
                   (has[0] ? widest_label(y[0], scale) + kTickLength + 6 : 0);
  const int right =
      spec.width -
      (has[1] ? 10 + (right_label.first.empty() ? 0 : text_h + 10) + widest_label(y[1], scale) + kTickLength + 6 : 24);
  NXV_CHECK(right - left >= 40 && bottom - top >= 40, "write_line_plot", "the image (", spec.width, "x", spec.height,
            ") is too small for its labels");
  const PixelRect box{left, top, right + 1, bottom + 1};
  const Axis x = position_axis(x_lo, x_hi, whole, std::max(2, (right - left) / (text_h * 4)));

  const double inset = 12;  // keeps the first and last points (and their markers) off the frame
  const auto px = [&](double v) {
    return x.hi > x.lo ? left + inset + (v - x.lo) / (x.hi - x.lo) * (right - left - 2 * inset) : (left + right) / 2.0;
  };
  const auto py = [&](double v, int side) {
    return bottom - (v - y[side].lo) / (y[side].hi - y[side].lo) * (bottom - top);
  };

  // ---- grid, frame, ticks and tick labels ----
  const int grid_side = has[0] ? 0 : 1;
  for (double t : y[grid_side].ticks) img.hline(left, right, static_cast<int>(std::lround(py(t, grid_side))), kGrid);
  for (double t : x.ticks) img.vline(static_cast<int>(std::lround(px(t))), top, bottom, kGrid);
  img.hline(left, right, top, kAxisInk);
  img.hline(left, right, bottom, kAxisInk);
  img.vline(left, top, bottom, kAxisInk);
  img.vline(right, top, bottom, kAxisInk);
  for (double t : x.ticks) {
    const int tx = static_cast<int>(std::lround(px(t)));
    img.vline(tx, bottom, bottom + kTickLength, kAxisInk);
    const std::string label = tick_label(t, x.decimals);
    draw_text(img, tx - text_width(label, scale) / 2, bottom + kTickLength + 6, label, kAxisInk, scale);
  }
  for (int side = 0; side < 2; ++side) {
    if (!has[side]) continue;
    for (double t : y[side].ticks) {
      const int ty = static_cast<int>(std::lround(py(t, side)));
      const std::string label = tick_label(t, y[side].decimals);
      if (side == 0) {
        img.hline(left - kTickLength, left, ty, kAxisInk);
        draw_text(img, left - kTickLength - 6 - text_width(label, scale), ty - text_h / 2, label, kAxisInk, scale);
      } else {
        img.hline(right, right + kTickLength, ty, kAxisInk);
        draw_text(img, right + kTickLength + 6, ty - text_h / 2, label, kAxisInk, scale);
      }
    }
  }

  // ---- axis labels and title ----
  if (!spec.x_label.empty())
    draw_text(img, (left + right - text_width(spec.x_label, scale)) / 2, bottom + kTickLength + 6 + text_h + 12,
              spec.x_label, kInk, scale);
  const int middle = (top + bottom) / 2;
  if (has[0] && !left_label.first.empty())
    draw_text(img, 10, middle + text_width(left_label.first, scale) / 2, left_label.first, left_label.second, scale,
              TextDirection::upward);
  if (has[1] && !right_label.first.empty())
    draw_text(img, spec.width - 10 - text_h, middle + text_width(right_label.first, scale) / 2, right_label.first,
              right_label.second, scale, TextDirection::upward);
  if (!spec.title.empty())
    draw_text(img, (spec.width - text_width(spec.title, title_scale)) / 2, title_y, spec.title, kInk, title_scale,
              TextDirection::horizontal, true);

  // ---- the series: 2-pixel lines, broken at non-finite values, with a marker on each point ----
  const bool markers = n <= static_cast<std::size_t>(kMaxMarkedPoints);
  for (const auto& s : spec.series) {
    const int side = s.axis == YAxis::left ? 0 : 1;
    for (std::size_t i = 0; i + 1 < s.values.size(); ++i)
      if (std::isfinite(s.values[i]) && std::isfinite(s.values[i + 1]))
        img.line(px(xs[i]), py(s.values[i], side), px(xs[i + 1]), py(s.values[i + 1], side), 2.0, s.colour, box);
    for (std::size_t i = 0; i < s.values.size(); ++i)
      if (std::isfinite(s.values[i]) && (markers || s.values.size() == 1))
        img.disc(px(xs[i]), py(s.values[i], side), 3.5, s.colour);
  }

  // ---- legend: one row under the title, a line sample and the name per series ----
  constexpr int kSample = 28, kGap = 8, kSpacing = 28;
  int legend_w = 0;
  for (const auto& s : spec.series) legend_w += (legend_w ? kSpacing : 0) + kSample + kGap + text_width(s.name, scale);
  int lx = (spec.width - legend_w) / 2;
  for (const auto& s : spec.series) {
    const double ly = legend_y + text_h / 2.0 - 0.5;
    img.line(lx, ly, lx + kSample, ly, 2.0, s.colour, {0, 0, spec.width, spec.height});
    if (markers) img.disc(lx + kSample / 2.0, ly, 3.5, s.colour);
    draw_text(img, lx + kSample + kGap, legend_y, s.name, kInk, scale);
    lx += kSample + kGap + text_width(s.name, scale) + kSpacing;
  }
  return img;
}

void write_line_plot(const std::filesystem::path& path, const PlotSpec& spec) {
  write_png(path, render_line_plot(spec));
}

}  // namespace nxv::io
