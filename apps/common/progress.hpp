// A progress bar (nxv-train's epochs, nxv-sample's iterations): one redrawn line on a terminal, plain lines in a log.
#pragma once
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace nxv::io {

struct Metric {
  std::string name;  // "loss"
  double value;
  bool integer = false;  // shown without decimals (a count)
};

class ProgressBar {
 public:
  enum class Mode {
    automatic,  // terminal if `out` is a terminal (isatty), else plain
    terminal,   // redraw one line: label [=====>    ] step/total  loss 0.4200  1234 samples/s  ETA 0:12
    plain,      // print a full line at every 10% of the steps and at the end, for logs and CI
  };

  using Clock = std::chrono::steady_clock;
  using Now = std::function<Clock::time_point()>;  // the time source: Clock::now, or a test's own

  ProgressBar(std::int64_t total_steps, std::string label, std::FILE* out = stdout, Mode mode = Mode::automatic,
              Now now = Clock::now);
  ~ProgressBar();  // finishes the bar if finish() was not called
  ProgressBar(const ProgressBar&) = delete;
  ProgressBar& operator=(const ProgressBar&) = delete;

  // Reports that `step` (1..total) steps are done, and `samples` samples with them (0: no rate is shown). A line
  // shows samples / the seconds since the bar started, the clock read when the line is drawn. On a terminal the
  // line is redrawn at most every 100 ms (and always at the last step), so calling this every step costs nothing
  // measurable.
  void update(std::int64_t step, const std::vector<Metric>& metrics, std::int64_t samples);
  // The same, but `metrics` is called only when a line is drawn (and its values kept for finish()): for values
  // that must be read back from a device, so that nothing is read that isn't shown. The clock is read after
  // `metrics`: on a device that records work and runs it when a value is read, reading the metrics runs the
  // steps, so the rate counts work done, not work queued.
  void update_lazy(std::int64_t step, const std::function<std::vector<Metric>()>& metrics, std::int64_t samples);
  // What the rate counts: the `samples` of update() per second are shown as "<rate> <unit>" ("samples/s").
  void set_rate_unit(std::string unit) { rate_unit_ = std::move(unit); }
  // Draws the final state and ends the line; later calls do nothing.
  void finish();

 private:
  // Records step and samples, and says whether this update draws a line.
  bool advance(std::int64_t step, std::int64_t samples);
  std::string line(bool with_bar, Clock::time_point now) const;
  void draw();

  std::int64_t total_;
  std::string label_;
  std::FILE* out_;
  bool terminal_;
  Now now_;
  Clock::time_point start_, last_draw_;
  std::int64_t step_ = 0;
  std::int64_t next_plain_tenth_ = 1;  // plain mode prints when step reaches total * next_plain_tenth_ / 10
  std::vector<Metric> metrics_;
  std::int64_t samples_ = 0;
  std::string rate_unit_ = "samples/s";
  std::int64_t printed_step_ = -1;  // the step the last drawn line showed
  bool finished_ = false;
};

}  // namespace nxv::io
