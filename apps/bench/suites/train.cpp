// Suite `train`: one training step (value_and_grad + SGD update + loss read back) of the MLP, LeNet-style and
// strided CNNs at each batch size and dtype, on three arms run alternately: Vulkan with the default batch cap,
// Vulkan with NXV_BATCH_MAX=0 (the cap is set at run time through set_batch_max, so both arms share one process)
// and the reference backend (fewer samples: it is slow). Before timing, the first step's loss on Vulkan must equal
// the reference's (1e-5 relative in f32) and batching must not change it.
#include <cstdio>

#include "bench/suites/batch_cap.hpp"
#include "bench/suites/steps.hpp"
#include "bench/suites/suites.hpp"
#include "nxv/fallback.hpp"
#include "nxv/vulkan.hpp"

namespace nxv::bench {

namespace {

struct StepCounts {
  vulkan::Counters counters;
  std::uint64_t fallbacks = 0;
};

StepCounts count_one_step(Trainer& t) {
  const vulkan::Counters before = vulkan::counters();
  StepCounts c;
  c.fallbacks = fallback::count_total([&] { t.step(); });
  const vulkan::Counters after = vulkan::counters();
  c.counters.dispatches = after.dispatches - before.dispatches;
  c.counters.submits = after.submits - before.submits;
  c.counters.barriers = after.barriers - before.barriers;
  c.counters.fence_waits = after.fence_waits - before.fence_waits;
  return c;
}

double loss_tolerance(DType dtype) { return dtype == DType::f32 ? 1e-5 : 1e-12; }

}  // namespace

SuiteReport run_train_suite(const Options& o) {
  SuiteReport report{"train", "ok", {}, {}, {}, {}};
  Backend& gpu = vulkan::backend();
  const int default_cap = vulkan::batch_max();
  std::vector<std::vector<std::string>> counts{
      {"step", "dispatches", "submits", "barriers", "fence waits", "host fallbacks", "submits (NXV_BATCH_MAX=0)"}};
  for (const std::string& dtype_name : o.dtypes)
    for (const std::string& model : o.models)
      for (std::int64_t batch : o.batches) {
        const StepSetup setup{model, batch, dtype_name == "f64" ? DType::f64 : DType::f32};
        std::fprintf(stderr, "[train] %s: checking against the reference\n", setup.label().c_str());
        const StepData data = make_step_data(setup, o.lr);
        Trainer on_vulkan(setup, data, gpu), unbatched(setup, data, gpu),
            on_reference(setup, data, reference_backend());
        const double ref_loss = on_reference.step();
        const double vk_loss = on_vulkan.step();
        double unbatched_loss = 0;
        {
          const BatchCap cap(0);
          unbatched_loss = unbatched.step();
        }
        const Check vs_ref = check_close(setup.label() + ": first-step loss, Vulkan vs reference", vk_loss, ref_loss,
                                         loss_tolerance(setup.dtype));
        const Check vs_unbatched =
            check_close(setup.label() + ": first-step loss, NXV_BATCH_MAX=0 vs default", unbatched_loss, vk_loss, 0);
        report.checks.push_back(vs_ref);
        report.checks.push_back(vs_unbatched);
        if (!vs_ref.ok() || !vs_unbatched.ok()) {
          std::fprintf(stderr, "[train] %s: check FAILED (loss %.9g on Vulkan, %.9g unbatched, %.9g reference)\n",
                       setup.label().c_str(), vk_loss, unbatched_loss, ref_loss);
          continue;
        }
        const StepCounts batched_counts = count_one_step(on_vulkan);
        StepCounts unbatched_counts;
        {
          const BatchCap cap(0);
          unbatched_counts = count_one_step(unbatched);
        }
        counts.push_back({setup.label(), std::to_string(batched_counts.counters.dispatches),
                          std::to_string(batched_counts.counters.submits),
                          std::to_string(batched_counts.counters.barriers),
                          std::to_string(batched_counts.counters.fence_waits),
                          std::to_string(batched_counts.fallbacks + unbatched_counts.fallbacks),
                          std::to_string(unbatched_counts.counters.submits)});
        std::fprintf(stderr, "[train] %s: %llu dispatches, %llu submits, %llu fallbacks per step; timing\n",
                     setup.label().c_str(), static_cast<unsigned long long>(batched_counts.counters.dispatches),
                     static_cast<unsigned long long>(batched_counts.counters.submits),
                     static_cast<unsigned long long>(batched_counts.fallbacks));

        const std::vector<Arm> arms{{"Vulkan", [&] { return time_seconds([&] { on_vulkan.step(); }); }, 0, true},
                                    {"NXV_BATCH_MAX=0",
                                     [&] {
                                       const BatchCap cap(0);
                                       return time_seconds([&] { unbatched.step(); });
                                     },
                                     0, true},
                                    {"reference", [&] { return time_seconds([&] { on_reference.step(); }); },
                                     std::min(o.repeat, o.reference_repeat), false}};
        const std::vector<Stats> stats = alternate(arms, o.repeat, o.warmup_ms);
        const Measurement vk = time_in("Vulkan", stats[0], 1e3);
        const Measurement nb = time_in("NXV_BATCH_MAX=0", stats[1], 1e3);
        const Measurement ref = time_in("reference", stats[2], 1e3);
        std::fprintf(stderr, "[train] %s: Vulkan %.3f ms, NXV_BATCH_MAX=0 %.3f ms, reference %.3f ms\n",
                     setup.label().c_str(), vk.value, nb.value, ref.value);

        Row vs_reference{"train." + setup.id() + ".vs_reference",
                         setup.label() + ": training step",
                         "ms",
                         vk,
                         ref,
                         "Vulkan time / reference time",
                         std::nullopt,
                         ""};
        Row batching{"train." + setup.id() + ".batching",
                     setup.label() + ": batching's gain",
                     "ms",
                     time_in("Vulkan (NXV_BATCH_MAX=" + std::to_string(default_cap) + ")", stats[0], 1e3),
                     nb,
                     "batched time / unbatched time",
                     std::nullopt,
                     ""};
        // Issue 6: batching at least 3x faster than NXV_BATCH_MAX=0 on the LeNet step.
        if (model == "lenet" && batch == 32 && setup.dtype == DType::f32) batching.target = Target{"<=", 1.0 / 3.0};
        report.rows.push_back(std::move(vs_reference));
        report.rows.push_back(std::move(batching));
      }
  report.tables.push_back({"Per step (Vulkan, default batch cap " + std::to_string(default_cap) + "):", counts});
  report.notes.push_back("Step: jit(value_and_grad(softmax cross-entropy) + nn::sgd update, lr " + format_number(o.lr) +
                         "), loss read back each step; synthetic 28x28 data, parameters from nn::Sequential::init.");
  report.notes.push_back(
      "NXV_BATCH_MAX=0 arm: the cap is changed at run time (vulkan::set_batch_max), in the same "
      "process as the other arms.");
  return report;
}

}  // namespace nxv::bench
