// The epoch progress bar (apps/common/progress): plain lines for logs, one redrawn line for terminals.
#include "common/progress.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>

#include "nxv/error.hpp"

namespace nxv::io {
namespace {

// Everything written to a temporary FILE* (not a terminal).
class Capture {
 public:
  Capture() : file_(std::tmpfile()) {}
  ~Capture() { std::fclose(file_); }
  std::FILE* file() { return file_; }
  std::string text() {
    std::fflush(file_);
    std::rewind(file_);
    std::string s;
    for (int c; (c = std::fgetc(file_)) != EOF;) s += static_cast<char>(c);
    return s;
  }
  std::vector<std::string> lines() {
    std::vector<std::string> out;
    std::istringstream in(text());
    for (std::string l; std::getline(in, l);) out.push_back(l);
    return out;
  }

 private:
  std::FILE* file_;
};

// A clock that moves only when told: the lines' rates and times are then exact, not wall-clock measurements.
struct FakeClock {
  ProgressBar::Clock::time_point now{};
  void advance(double seconds) {
    now += std::chrono::duration_cast<ProgressBar::Clock::duration>(std::chrono::duration<double>(seconds));
  }
  ProgressBar::Now source() {
    return [this] { return now; };
  }
};

TEST(ProgressBar, PrintsPlainLinesEveryTenthWhenNotATerminal) {
  Capture out;
  FakeClock clock;
  {
    // Automatic mode: a tmpfile is not a terminal.
    ProgressBar bar(20, "epoch 1/3", out.file(), ProgressBar::Mode::automatic, clock.source());
    for (int step = 1; step <= 20; ++step) {
      clock.advance(0.5);  // 64 samples a step: 128 samples/s
      bar.update(step, {{"loss", 1.0 / step}}, 64 * step);
    }
    bar.finish();
  }
  const auto lines = out.lines();
  ASSERT_EQ(lines.size(), 10u);
  EXPECT_EQ(lines[0], "epoch 1/3 step 2/20 (10%)  loss 0.5000  128 samples/s  ETA 0:09") << lines[0];
  EXPECT_NE(lines[4].find("step 10/20 (50%)"), std::string::npos) << lines[4];
  EXPECT_EQ(lines[9], "epoch 1/3 step 20/20 (100%)  loss 0.0500  128 samples/s  0:10 elapsed") << lines[9];
  EXPECT_EQ(out.text().find('\r'), std::string::npos) << "no terminal control characters in a log";
}

TEST(ProgressBar, PlainModePrintsEveryStepOfAShortEpochAndTheLastStepOfAnAbandonedOne) {
  Capture shortrun;
  {
    ProgressBar bar(3, "eval", shortrun.file(), ProgressBar::Mode::plain);
    for (int step = 1; step <= 3; ++step) bar.update(step, {}, 0);
  }  // the destructor finishes the bar without repeating the last line
  EXPECT_EQ(shortrun.lines().size(), 3u);

  Capture abandoned;
  {
    ProgressBar bar(100, "train", abandoned.file(), ProgressBar::Mode::plain);
    for (int step = 1; step <= 15; ++step) bar.update(step, {{"loss", 2.0}}, 10 * step);
    bar.finish();
    bar.finish();
  }
  const auto lines = abandoned.lines();
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_NE(lines[0].find("step 10/100"), std::string::npos);
  EXPECT_NE(lines[1].find("step 15/100"), std::string::npos) << "finish() prints where the epoch stopped";
}

// What nxv-train relies on to download only the losses it prints.
TEST(ProgressBar, LazyMetricsAreReadOnlyForTheLinesDrawn) {
  Capture out;
  int reads = 0;
  {
    ProgressBar bar(100, "epoch 1/1", out.file(), ProgressBar::Mode::plain);
    for (int step = 1; step <= 100; ++step)
      bar.update_lazy(
          step,
          [&] {
            return std::vector<Metric>{{"loss", static_cast<double>(++reads)}};
          },
          10 * step);
  }
  EXPECT_EQ(reads, 10) << "one read per line";
  const auto lines = out.lines();
  ASSERT_EQ(lines.size(), 10u);
  EXPECT_NE(lines[0].find("step 10/100 (10%)  loss 1.0000"), std::string::npos) << lines[0];
  EXPECT_NE(lines[9].find("step 100/100 (100%)  loss 10.0000"), std::string::npos) << lines[9];
}

TEST(ProgressBar, TerminalModeRedrawsOneLineWithABar) {
  Capture out;
  FakeClock clock;
  {
    ProgressBar bar(4, "epoch 2/5", out.file(), ProgressBar::Mode::terminal, clock.source());
    clock.advance(1);
    bar.update(2, {{"loss", 0.25}, {"accuracy", 0.5}}, 100);
    clock.advance(1);
    bar.update(4, {{"loss", 0.125}, {"accuracy", 0.75}}, 200);
    bar.finish();
  }
  const std::string text = out.text();
  EXPECT_NE(
      text.find(
          "\repoch 2/5 [============>           ] step 2/4 (50%)  loss 0.2500  accuracy 0.5000  100 samples/s  ETA "),
      std::string::npos)
      << text;
  EXPECT_NE(text.find("\repoch 2/5 [========================] step 4/4 (100%)  loss 0.1250"), std::string::npos)
      << text;
  EXPECT_EQ(text.back(), '\n');
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 1) << "one line, redrawn in place";
}

// nxv-train's steps are recorded lazily and run when the running loss is read: the first line of every epoch after
// the first showed the rate of steps queued, not run (10-200x too high). The clock is read after the metrics.
TEST(ProgressBar, TheRateCountsOnlyWorkThatReadingTheMetricsHasRun) {
  Capture out;
  FakeClock clock;
  {
    ProgressBar bar(10, "epoch 2/2", out.file(), ProgressBar::Mode::plain, clock.source());
    clock.advance(0.01);  // recording one step of 100 samples takes no time; reading its loss runs it: 2 s
    bar.update_lazy(
        1,
        [&] {
          clock.advance(2);
          return std::vector<Metric>{{"loss", 0.5}};
        },
        100);
  }
  const auto lines = out.lines();
  ASSERT_FALSE(lines.empty());
  EXPECT_EQ(lines[0], "epoch 2/2 step 1/10 (10%)  loss 0.5000  50 samples/s  ETA 0:18") << "100 samples in 2.01 s";
}

TEST(ProgressBar, ShowsNoRateBeforeAnyTimeHasPassed) {
  Capture out;
  FakeClock clock;
  {
    ProgressBar bar(1, "eval", out.file(), ProgressBar::Mode::plain, clock.source());
    bar.update(1, {}, 100);
  }
  EXPECT_EQ(out.lines().at(0), "eval step 1/1 (100%)  0:00 elapsed") << "not inf samples/s";
}

// nxv-sample's bars: a count shown without decimals, and the rate in iterations.
TEST(ProgressBar, CountsAndARateUnitOfItsOwn) {
  Capture out;
  FakeClock clock;
  {
    ProgressBar bar(10, "sampling", out.file(), ProgressBar::Mode::plain, clock.source());
    bar.set_rate_unit("iterations/s");
    for (int step = 1; step <= 10; ++step) {
      clock.advance(0.2);
      bar.update(step, {{"divergences", 3.0 * step, true}}, step);
    }
  }
  const auto lines = out.lines();
  ASSERT_FALSE(lines.empty());
  EXPECT_EQ(lines.back(), "sampling step 10/10 (100%)  divergences 30  5 iterations/s  0:02 elapsed") << lines.back();
}

TEST(ProgressBar, RejectsAnEmptyEpoch) { EXPECT_THROW(ProgressBar(0, "x", stdout), Error); }

}  // namespace
}  // namespace nxv::io
