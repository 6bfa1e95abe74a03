// nxv-sample: draws from a built-in Bayesian model's posterior (eight schools, logistic regression, a hierarchical
// regression, the regime model) with HMC or NUTS over many chains, printing the summary table and writing draws,
// statistics and plots. The work is in apps/sample/ (a library, so the tests drive it directly); this file maps
// it to exit statuses: 0 done, 1 an error, 2 a command-line or data-file mistake.
#include <cstdio>
#include <string>
#include <vector>

#include "core/settings.hpp"
#include "sample/options.hpp"
#include "sample/runner.hpp"

int main(int argc, char** argv) {
  using namespace nxv::sample_app;
  const std::vector<std::string> args(argv + 1, argv + argc);
  try {
    nxv::settings::check_all();
    const SampleAppOptions options = parse_args(args);
    if (options.help) {
      std::fputs(kUsage, stdout);
      return 0;
    }
    run_sampling(options, stdout);
    return 0;
  } catch (const UsageError& e) {
    std::fprintf(stderr, "nxv-sample: %s\n(nxv-sample --help lists the options)\n", e.what());
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "nxv-sample: %s\n", e.what());
    return 1;
  }
}
