// nxv-train: trains LeNet, an MLP or a small CNN on Fashion-MNIST (or any IDX data set), with a progress bar,
// per-epoch test metrics, metrics.csv/json, curves.png and a safetensors checkpoint; or evaluates a checkpoint.
// The work is in apps/train/ (a library, so the tests drive it directly); this file maps it to exit statuses:
// 0 done, 1 an error, 2 a command-line mistake, 3 the training diverged (README, Training).
#include <cstdio>
#include <string>
#include <vector>

#include "core/settings.hpp"
#include "nxv/error.hpp"
#include "train/options.hpp"
#include "train/trainer.hpp"

int main(int argc, char** argv) {
  using namespace nxv::train;
  const std::vector<std::string> args(argv + 1, argv + argc);
  try {
    nxv::settings::check_all();
    const TrainOptions options = parse_args(args);
    if (options.help) {
      std::fputs(kUsage, stdout);
      return 0;
    }
    if (!options.evaluate.empty())
      run_evaluation(options, stdout);
    else
      run_training(options, stdout);
    return 0;
  } catch (const DivergedError& e) {
    std::fprintf(stderr, "nxv-train: %s\n", e.what());
    return 3;
  } catch (const UsageError& e) {
    std::fprintf(stderr, "nxv-train: %s\n(nxv-train --help lists the options)\n", e.what());
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "nxv-train: %s\n", e.what());
    return 1;
  }
}
