#include "common/progress.hpp"

#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>

#include "nxv/error.hpp"

namespace nxv::io {

namespace {

constexpr int kBarWidth = 24;
constexpr auto kRedrawInterval = std::chrono::milliseconds(100);

std::string format(const char* fmt, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, fmt, v);
  return buf;
}

std::string duration(double seconds) {
  if (!std::isfinite(seconds) || seconds < 0) return "?";
  const auto s = static_cast<long long>(std::lround(seconds));
  char buf[32];
  if (s >= 3600)
    std::snprintf(buf, sizeof buf, "%lld:%02lld:%02lld", s / 3600, s / 60 % 60, s % 60);
  else
    std::snprintf(buf, sizeof buf, "%lld:%02lld", s / 60, s % 60);
  return buf;
}

// Columns of the terminal behind `out`, or 0 when unknown: a line wider than the terminal wraps, and "\r" then
// redraws only its last row.
int terminal_columns(std::FILE* out) {
  winsize ws{};
  return ioctl(fileno(out), TIOCGWINSZ, &ws) == 0 ? ws.ws_col : 0;
}

}  // namespace

ProgressBar::ProgressBar(std::int64_t total_steps, std::string label, std::FILE* out, Mode mode, Now now)
    : total_(total_steps),
      label_(std::move(label)),
      out_(out),
      terminal_(mode == Mode::terminal || (mode == Mode::automatic && isatty(fileno(out)))),
      now_(std::move(now)),
      start_(now_()) {
  NXV_CHECK(total_steps > 0, "ProgressBar", "got total_steps ", total_steps, ", expected > 0");
  NXV_CHECK(out != nullptr, "ProgressBar", "got a null output stream");
}

ProgressBar::~ProgressBar() { finish(); }

void ProgressBar::update(std::int64_t step, const std::vector<Metric>& metrics, std::int64_t samples) {
  if (finished_) return;
  metrics_ = metrics;
  if (advance(step, samples)) draw();
}

void ProgressBar::update_lazy(std::int64_t step, const std::function<std::vector<Metric>()>& metrics,
                              std::int64_t samples) {
  if (finished_ || !advance(step, samples)) return;
  metrics_ = metrics();
  draw();
}

bool ProgressBar::advance(std::int64_t step, std::int64_t samples) {
  step_ = std::clamp<std::int64_t>(step, 0, total_);
  samples_ = samples;
  if (terminal_) return step_ == total_ || printed_step_ < 0 || now_() - last_draw_ >= kRedrawInterval;
  if (step_ > 0 && step_ * 10 >= total_ * next_plain_tenth_) {
    next_plain_tenth_ = step_ * 10 / total_ + 1;
    return true;
  }
  return false;
}

void ProgressBar::finish() {
  if (finished_) return;
  if (terminal_) {
    draw();
    std::fputc('\n', out_);
  } else if (printed_step_ != step_) {
    draw();
  }
  finished_ = true;
  std::fflush(out_);
}

std::string ProgressBar::line(bool with_bar, Clock::time_point now) const {
  std::string s = label_;
  if (with_bar) {
    const int filled = static_cast<int>(kBarWidth * step_ / total_);
    s += " [" + std::string(filled, '=') + (filled < kBarWidth ? ">" : "") +
         std::string(std::max(0, kBarWidth - filled - 1), ' ') + "]";
  }
  s += " step " + std::to_string(step_) + "/" + std::to_string(total_) +
       format(" (%.0f%%)", 100.0 * static_cast<double>(step_) / static_cast<double>(total_));
  for (const auto& m : metrics_)
    s += "  " + m.name + " " + format(m.integer ? "%.0f" : std::abs(m.value) < 1000 ? "%.4f" : "%.4g", m.value);
  const double elapsed = std::chrono::duration<double>(now - start_).count();
  if (samples_ > 0 && elapsed > 0) s += format("  %.0f ", static_cast<double>(samples_) / elapsed) + rate_unit_;
  if (step_ == total_)
    s += "  " + duration(elapsed) + " elapsed";
  else if (step_ > 0)
    s += "  ETA " + duration(elapsed / static_cast<double>(step_) * static_cast<double>(total_ - step_));
  return s;
}

void ProgressBar::draw() {
  last_draw_ = now_();
  printed_step_ = step_;
  if (!terminal_) {
    std::fprintf(out_, "%s\n", line(false, last_draw_).c_str());
    std::fflush(out_);
    return;
  }
  std::string s = line(true, last_draw_);
  const int columns = terminal_columns(out_);
  if (columns > 1 && static_cast<int>(s.size()) >= columns) s.resize(static_cast<std::size_t>(columns - 1));
  std::fprintf(out_, "\r%s\x1b[K", s.c_str());  // ESC[K clears what a longer previous line left behind
  std::fflush(out_);
}

}  // namespace nxv::io
