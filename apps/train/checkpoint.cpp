#include "train/checkpoint.hpp"

#include <cstdio>
#include <fstream>

#include "common/png_plot.hpp"
#include "io/json.hpp"
#include "io/safetensors.hpp"

namespace nxv::train {

namespace {

constexpr const char* kFormat = "nxv-train/1";
constexpr std::string_view kOptimizerPrefix = "optimizer.";
constexpr std::string_view kStatePrefix = "state.";

std::string number(double v) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.9g", v);
  return buf;
}

const std::string& field(const std::map<std::string, std::string>& metadata, const std::string& key,
                         const std::filesystem::path& path) {
  const auto it = metadata.find(key);
  if (it == metadata.end()) detail::fail("checkpoint ", path.string(), ": the metadata has no \"", key, "\"");
  return it->second;
}

}  // namespace

void save_checkpoint(const std::filesystem::path& path, const Checkpoint& c) {
  std::map<std::string, Tensor> tensors = c.params;
  for (const auto& [name, t] : c.optimizer_state) tensors.emplace(std::string(kOptimizerPrefix) + name, t);
  for (const auto& [name, t] : c.model_state) tensors.emplace(std::string(kStatePrefix) + name, t);
  const std::map<std::string, std::string> metadata{
      {"format", kFormat},
      {"model", c.model},
      {"optimizer", c.optimizer},
      {"dtype", std::string(name(c.dtype))},
      {"epoch", std::to_string(c.epoch)},
      {"step", std::to_string(c.step)},
      {"batch", std::to_string(c.batch)},
      {"seed", std::to_string(c.seed)},
      {"lr", number(c.lr)},
      {"metrics", metrics_json(c.history)},
      {"schedule", c.schedule.kind},
      {"decay_every", std::to_string(c.schedule.decay_every)},
      {"decay_factor", number(c.schedule.decay_factor)},
      {"final_lr_fraction", number(c.schedule.final_lr_fraction)},
  };
  io::save_safetensors(path, tensors, metadata);
}

Checkpoint load_checkpoint(const std::filesystem::path& path, Backend& backend) {
  io::SafetensorsFile file = io::load_safetensors(path, backend);
  const auto format = file.metadata.find("format");
  NXV_CHECK(format != file.metadata.end() && format->second == kFormat, "checkpoint " + path.string(),
            "not an nxv-train checkpoint (metadata \"format\" is not \"", kFormat, "\")");
  Checkpoint c;
  try {
    c.model = field(file.metadata, "model", path);
    c.optimizer = field(file.metadata, "optimizer", path);
    c.dtype = dtype_from_name(field(file.metadata, "dtype", path));
    c.epoch = std::stoll(field(file.metadata, "epoch", path));
    c.step = std::stoll(field(file.metadata, "step", path));
    c.batch = std::stoll(field(file.metadata, "batch", path));
    c.seed = std::stoull(field(file.metadata, "seed", path));
    c.lr = std::stod(field(file.metadata, "lr", path));
    c.history = parse_metrics_json(field(file.metadata, "metrics", path));
    // Checkpoints written before --schedule existed trained with a constant rate.
    if (file.metadata.count("schedule")) {
      c.schedule.kind = field(file.metadata, "schedule", path);
      c.schedule.decay_every = std::stoll(field(file.metadata, "decay_every", path));
      c.schedule.decay_factor = std::stod(field(file.metadata, "decay_factor", path));
      c.schedule.final_lr_fraction = std::stod(field(file.metadata, "final_lr_fraction", path));
    }
  } catch (const std::logic_error& e) {  // stoll & co.
    detail::fail("checkpoint ", path.string(), ": malformed metadata (", e.what(), ")");
  }
  for (auto& [name, t] : file.tensors) {
    if (name.starts_with(kOptimizerPrefix))
      c.optimizer_state.emplace(name.substr(kOptimizerPrefix.size()), std::move(t));
    else if (name.starts_with(kStatePrefix))
      c.model_state.emplace(name.substr(kStatePrefix.size()), std::move(t));
    else
      c.params.emplace(name, std::move(t));
  }
  return c;
}

std::string metrics_json(const std::vector<EpochMetrics>& history) {
  std::string s = "[";
  for (const EpochMetrics& m : history) {
    s += (s.size() > 1 ? ",\n " : "") + std::string("{\"epoch\": ") + std::to_string(m.epoch) +
         ", \"train_loss\": " + number(m.train_loss) + ", \"test_loss\": " + number(m.test_loss) +
         ", \"test_accuracy\": " + number(m.test_accuracy) + ", \"seconds\": " + number(m.seconds) +
         ", \"samples_per_second\": " + number(m.samples_per_second) + "}";
  }
  return s + "]";
}

std::vector<EpochMetrics> parse_metrics_json(const std::string& text) {
  const io::json::Value v = io::json::parse(text);
  NXV_CHECK(v.kind == io::json::Value::Kind::array, "metrics", "expected a JSON array");
  std::vector<EpochMetrics> history;
  for (const io::json::Value& item : v.items) {
    auto get = [&](const char* key) {
      const io::json::Value* f = item.find(key);
      NXV_CHECK(f && f->kind == io::json::Value::Kind::number, "metrics", "an entry has no number \"", key, "\"");
      return std::stod(f->text);
    };
    history.push_back({static_cast<std::int64_t>(get("epoch")), get("train_loss"), get("test_loss"),
                       get("test_accuracy"), get("seconds"), get("samples_per_second")});
  }
  return history;
}

void write_metrics(const std::filesystem::path& dir, const std::vector<EpochMetrics>& history,
                   const std::string& title) {
  std::filesystem::create_directories(dir);
  std::ofstream csv(dir / "metrics.csv");
  csv << "epoch,train_loss,test_loss,test_accuracy,seconds,samples_per_second\n";
  for (const EpochMetrics& m : history)
    csv << m.epoch << ',' << number(m.train_loss) << ',' << number(m.test_loss) << ',' << number(m.test_accuracy) << ','
        << number(m.seconds) << ',' << number(m.samples_per_second) << '\n';
  std::ofstream(dir / "metrics.json") << metrics_json(history) << '\n';

  io::PlotSpec plot;
  plot.title = title;
  plot.x_label = "epoch";
  plot.left_label = "loss";
  plot.right_label = "test accuracy";
  io::PlotSeries train_loss{"train loss", {}, io::colours::blue, io::YAxis::left};
  io::PlotSeries test_loss{"test loss", {}, io::colours::orange, io::YAxis::left};
  io::PlotSeries accuracy{"test accuracy", {}, io::colours::green, io::YAxis::right};
  for (const EpochMetrics& m : history) {
    plot.x.push_back(static_cast<double>(m.epoch));
    train_loss.values.push_back(m.train_loss);
    test_loss.values.push_back(m.test_loss);
    accuracy.values.push_back(m.test_accuracy);
  }
  plot.series = {train_loss, test_loss, accuracy};
  io::write_line_plot(dir / "curves.png", plot);
}

}  // namespace nxv::train
