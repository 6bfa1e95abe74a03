#include <cmath>
#include <fstream>
#include <sstream>

#include "bench/child.hpp"
#include "bench/suites/peers.hpp"
#include "core/text.hpp"
#include "io/json.hpp"
#include "nxv/error.hpp"

namespace nxv::bench {

namespace {

double number(const io::json::Value* v) {
  return v != nullptr && v->kind == io::json::Value::Kind::number ? std::stod(v->text) : std::nan("");
}

}  // namespace

const PeerSeries* PeerRun::find(const std::string& id) const {
  for (const PeerSeries& s : series)
    if (s.id == id) return &s;
  return nullptr;
}

std::string peer_script(const Options& o) {
  if (!o.peer_script.empty()) return o.peer_script;
  const std::filesystem::path here = "bench/peers/torch_step.py";
  if (std::filesystem::exists(here)) return here.string();
  return std::string(NXV_SOURCE_DIR) + "/bench/peers/torch_step.py";
}

PeerRun run_peer(const Options& o, const std::vector<std::string>& args, const std::filesystem::path& json_file) {
  std::vector<std::string> argv{o.python, peer_script(o)};
  argv.insert(argv.end(), args.begin(), args.end());
  const ChildResult child = run_child(argv);
  PeerRun run;
  run.exit_code = child.exit_code;
  run.output = std::string(trim_whitespace(child.output));
  switch (child.exit_code) {
    case 0:
      break;
    case 127:
      run.status = "skipped: no torch";
      run.detail = "no python3: " + run.output;
      return run;
    case 77:
      run.status = "skipped: no torch";
      run.detail = run.output;
      return run;
    case 76:
      run.status = "skipped: no CUDA device";
      run.detail = run.output;
      return run;
    default:
      run.status = "failed: torch_step.py exited with " + std::to_string(child.exit_code);
      run.detail = run.output;
      return run;
  }
  if (json_file.empty()) return run;
  std::ifstream in(json_file);
  std::stringstream text;
  text << in.rdbuf();
  try {
    const io::json::Value root = io::json::parse(text.str());
    const io::json::Value* torch = root.find("torch");
    const io::json::Value* device = root.find("device");
    run.detail = "torch " + (torch ? torch->text : std::string("?")) + " on " + (device ? device->text : "?");
    const io::json::Value* series = root.find("series");
    NXV_CHECK(series != nullptr && series->kind == io::json::Value::Kind::array, "nxv-bench", json_file.string(),
              " has no \"series\" array");
    for (const io::json::Value& s : series->items) {
      PeerSeries p;
      const io::json::Value* id = s.find("id");
      const io::json::Value* samples = s.find("samples_s");
      NXV_CHECK(id != nullptr && samples != nullptr && samples->kind == io::json::Value::Kind::array, "nxv-bench",
                json_file.string(), ": a series lacks \"id\" or \"samples_s\"");
      p.id = id->text;
      for (const io::json::Value& v : samples->items) p.samples.push_back(number(&v));
      p.first_loss = number(s.find("first_loss"));
      run.series.push_back(std::move(p));
    }
    run.available = true;
  } catch (const Error& e) {
    run.status = std::string("failed: reading torch_step.py's output: ") + e.what();
  }
  return run;
}

}  // namespace nxv::bench
