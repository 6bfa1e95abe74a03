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

TEST(ProgressBar, PrintsPlainLinesEveryTenthWhenNotATerminal) {
  Capture out;
  {
    ProgressBar bar(20, "epoch 1/3", out.file());  // automatic mode: a tmpfile is not a terminal
    for (int step = 1; step <= 20; ++step) bar.update(step, {{"loss", 1.0 / step}}, 1234.4);
    bar.finish();
  }
  const auto lines = out.lines();
  ASSERT_EQ(lines.size(), 10u);
  EXPECT_EQ(lines[0].rfind("epoch 1/3 step 2/20 (10%)  loss 0.5000  1234 samples/s  ETA ", 0), 0u) << lines[0];
  EXPECT_NE(lines[4].find("step 10/20 (50%)"), std::string::npos) << lines[4];
  EXPECT_EQ(lines[9].rfind("epoch 1/3 step 20/20 (100%)  loss 0.0500  1234 samples/s  ", 0), 0u) << lines[9];
  EXPECT_NE(lines[9].find("elapsed"), std::string::npos) << lines[9];
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
    for (int step = 1; step <= 15; ++step) bar.update(step, {{"loss", 2.0}}, 10);
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
          10);
  }
  EXPECT_EQ(reads, 10) << "one read per line";
  const auto lines = out.lines();
  ASSERT_EQ(lines.size(), 10u);
  EXPECT_NE(lines[0].find("step 10/100 (10%)  loss 1.0000"), std::string::npos) << lines[0];
  EXPECT_NE(lines[9].find("step 100/100 (100%)  loss 10.0000"), std::string::npos) << lines[9];
}

TEST(ProgressBar, TerminalModeRedrawsOneLineWithABar) {
  Capture out;
  {
    ProgressBar bar(4, "epoch 2/5", out.file(), ProgressBar::Mode::terminal);
    bar.update(2, {{"loss", 0.25}, {"accuracy", 0.5}}, 100);
    bar.update(4, {{"loss", 0.125}, {"accuracy", 0.75}}, 100);
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

TEST(ProgressBar, RejectsAnEmptyEpoch) { EXPECT_THROW(ProgressBar(0, "x", stdout), Error); }

}  // namespace
}  // namespace nxv::io
