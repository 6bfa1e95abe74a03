#include "bench/headlines.hpp"

#include <set>
#include <sstream>

namespace nxv::bench {

namespace {

struct Headline {
  const char* id;
  const char* label;
};

// The rows the README shows, in its order: the project's targets (issues 6 and 7) and what they are measured
// against. Ids are those of the full-size runs (batch 32, 2^28 elements, GEMM 4096³).
constexpr Headline kHeadlines[] = {
    {"peers.mlp.b32.f32.eager", "MLP training step, batch 32, f32, op by op, against PyTorch eager"},
    {"peers.mlp.b32.f32.compiled", "MLP training step, batch 32, f32, op by op, against `torch.compile`"},
    {"peers.lenet.b32.f32.eager", "LeNet-style step, batch 32, f32, op by op, against PyTorch eager"},
    {"peers.lenet.b32.f32.compiled", "LeNet-style step, batch 32, f32, op by op, against `torch.compile`"},
    {"peers.mlp.b32.f32.fusion", "MLP step, compiled against op by op"},
    {"peers.lenet.b32.f32.fusion", "LeNet step, compiled against op by op"},
    {"peers.lenet.b32.f32.fusion.compiled", "LeNet step, compiled, against `torch.compile`"},
    {"peers.lenet.b32.f32.replay", "LeNet step replayed against recorded every call"},
    {"train.lenet.b32.f32.batching", "batching on the LeNet step (default against `NXV_BATCH_MAX=0`)"},
    {"kernels.record_op", "recording one eager op (host)"},
    {"kernels.add.268435456", "f32 add, 2^28 elements, against a device copy"},
    {"kernels.add.268435456.vs_torch", "f32 add, 2^28 elements, against PyTorch"},
    {"kernels.sum.268435456", "f32 sum, 2^28 elements, against a device copy"},
    {"kernels.sum.268435456.vs_torch", "f32 sum, 2^28 elements, against PyTorch"},
    {"kernels.gemm.f32.exact.4096.vs_torch", "f32 GEMM 4096³, exact (bit-identical)"},
    {"kernels.gemm.f64.exact.4096.vs_torch", "f64 GEMM 4096³, exact (bit-identical)"},
    {"kernels.gemm.f32.fast.4096.vs_torch", "f32 GEMM 4096³, fast (the default)"},
    {"kernels.gemm.f64.fast.4096.vs_torch", "f64 GEMM 4096³, fast (the default)"},
    {"kernels.conv.forward.vs_torch", "conv 64→64 3×3 on 32×64×56×56, forward"},
    {"kernels.conv.forward_backward.vs_torch", "conv 64→64 3×3 on 32×64×56×56, forward + backward"},
    {"kernels.cold_start", "warm against cold start (first LeNet step of a new process)"},
};

const BaselineRow* find_row(const Baseline& b, const std::string& id) {
  for (const BaselineSuite& s : b.suites)
    if (const BaselineRow* r = s.find(id)) return r;
  return nullptr;
}

std::string arm_cell(const BaselineArm& a, const std::string& unit) {
  return a.arm + ": " + format_number(a.value) + " " + unit + " (" + format_number(a.p10) + "–" + format_number(a.p90) +
         ")";
}

std::string target_cell(const BaselineRow& r) {
  if (!r.target) return "";
  const std::optional<double> subject = r.b ? r.ratio() : std::optional<double>(r.a.value);
  std::string s = (r.target->op == "<=" ? "≤ " : "≥ ") + format_number(r.target->value);
  if (!r.b) s += " " + r.unit;
  if (subject) s += r.target->met(*subject) ? ": met" : ": **missed**";
  return s;
}

std::string joined(const std::set<std::string>& items) {
  std::string s;
  for (const std::string& i : items) s += (s.empty() ? "" : ", ") + i;
  return s;
}

}  // namespace

std::string headlines_markdown(const Baseline& b) {
  std::ostringstream s;
  std::set<std::string> devices, dates, commits;
  for (const BaselineSuite& suite : b.suites) {
    devices.insert(suite.device + " (" + suite.driver + ")");
    dates.insert(suite.date.substr(0, 10));
    commits.insert(suite.commit);
  }
  s << "Measured on " << (devices.empty() ? "no device" : joined(devices)) << ", " << joined(dates) << ", commit"
    << (commits.size() == 1 ? " " : "s ") << joined(commits)
    << " (`bench/baseline.json`; medians, p10–p90 in parentheses):\n\n";
  s << "| | nx_vulkan | against | ratio | target |\n|---|---|---|---|---|\n";
  for (const Headline& h : kHeadlines) {
    const BaselineRow* r = find_row(b, h.id);
    if (r == nullptr) {
      s << "| " << h.label << " | not in the baseline | | | |\n";
      continue;
    }
    const std::optional<double> ratio = r->ratio();
    s << "| " << h.label << " | " << arm_cell(r->a, r->unit) << " | " << (r->b ? arm_cell(*r->b, r->unit) : "") << " | "
      << (ratio ? format_number(*ratio) + " (" + r->ratio_meaning + ")" : std::string()) << " | " << target_cell(*r)
      << " |\n";
  }
  return s.str();
}

std::optional<std::string> readme_headlines(const std::string& readme) {
  const std::string begin = kHeadlinesBegin, end = kHeadlinesEnd;
  const std::size_t from = readme.find(begin), to = readme.find(end);
  if (from == std::string::npos || to == std::string::npos || to < from) return std::nullopt;
  return readme.substr(from + begin.size(), to - from - begin.size());
}

}  // namespace nxv::bench
