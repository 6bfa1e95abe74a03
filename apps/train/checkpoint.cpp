#include "train/checkpoint.hpp"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <initializer_list>

#include "common/png_plot.hpp"
#include "io/json.hpp"
#include "io/safetensors.hpp"

namespace nxv::train {

namespace {

constexpr const char* kFormat = "nxv-train/1";
constexpr std::string_view kOptimizerPrefix = "optimizer.";
constexpr std::string_view kStatePrefix = "state.";

// The shortest text that reads back as exactly `v` (std::to_chars), so that a resumed run continues at the same
// rate and the metrics read back are the ones written.
std::string exact(double v) {
  char buf[32];
  const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, end);
}

// A metric in JSON: JSON has no NaN or infinity, so a value that is not finite is written as null (and read back
// as NaN).
std::string json_number(double v) { return std::isfinite(v) ? exact(v) : "null"; }

// A metric in metrics.csv: 9 significant digits, enough for the f32 losses they come from.
std::string csv_number(double v) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.9g", v);
  return buf;
}

bool is_one_of(const std::string& v, std::initializer_list<const char*> names) {
  for (const char* n : names)
    if (v == n) return true;
  return false;
}

// What a checkpoint's settings may be. load_checkpoint refuses anything else and save_checkpoint checks the same
// before it writes, so nxv-train never writes a checkpoint that it cannot read back. `where` starts the message.
void check_settings(const Checkpoint& c, const std::string& where) {
  auto require = [&](bool ok, const char* field, const auto& got, const char* expected) {
    if (!ok) detail::fail(where, " \"", field, "\" is ", got, ", expected ", expected);
  };
  require(is_one_of(c.model, {"lenet", "mlp", "cnn"}), "model", "\"" + c.model + "\"", "lenet, mlp or cnn");
  require(is_one_of(c.optimizer, {"sgd", "adam", "adamw"}), "optimizer", "\"" + c.optimizer + "\"",
          "sgd, adam or adamw");
  require(is_one_of(std::string(name(c.dtype)), {"f32", "f64", "bf16", "f16"}), "dtype", name(c.dtype),
          "f32, f64, bf16 or f16");
  require(c.epoch >= 0, "epoch", c.epoch, "an integer >= 0");
  require(c.step >= 0, "step", c.step, "an integer >= 0");
  require(c.batch >= 1, "batch", c.batch, "an integer >= 1");
  require(c.lr > 0 && std::isfinite(c.lr), "lr", c.lr, "a positive finite number");
  require(is_one_of(c.schedule.kind, {"constant", "step", "cosine"}), "schedule", "\"" + c.schedule.kind + "\"",
          "constant, step or cosine");
  require(c.schedule.decay_every >= 1, "decay_every", c.schedule.decay_every, "an integer >= 1");
  require(c.schedule.decay_factor > 0 && std::isfinite(c.schedule.decay_factor), "decay_factor",
          c.schedule.decay_factor, "a positive finite number");
  require(c.schedule.final_lr_fraction >= 0 && c.schedule.final_lr_fraction <= 1, "final_lr_fraction",
          c.schedule.final_lr_fraction, "a number from 0 to 1");
  require(static_cast<std::int64_t>(c.history.size()) == c.epoch, "metrics",
          std::to_string(c.history.size()) + " epochs long", "one entry per epoch up to \"epoch\"");
}

// The metadata's fields, parsed in full: "12abc" is not 12.
class MetadataReader {
 public:
  MetadataReader(const std::map<std::string, std::string>& metadata, const std::filesystem::path& path)
      : metadata_(metadata), path_(path) {}

  const std::string& text(const char* key) const {
    const auto it = metadata_.find(key);
    if (it == metadata_.end()) detail::fail("checkpoint ", path_.string(), ": the metadata has no \"", key, "\"");
    return it->second;
  }
  template <class T>
  T parse(const char* key, const char* expected) const {
    const std::string& s = text(key);
    T v{};
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || end != s.data() + s.size() || s.empty())
      detail::fail("checkpoint ", path_.string(), ": metadata \"", key, "\" is \"", s, "\", expected ", expected);
    return v;
  }

 private:
  const std::map<std::string, std::string>& metadata_;
  const std::filesystem::path& path_;
};

// Writes `text` to `path` through "<path>.tmp" and a rename, checking each step: the file is the old one or the
// new one, never half of one, and a failed write is an error naming it.
void write_text_file(const std::filesystem::path& path, const std::string& text) {
  const std::filesystem::path tmp = path.string() + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    NXV_CHECK(out, "write_metrics", tmp.string(), ": cannot be created (", std::strerror(errno), ")");
    out << text;
    out.close();
    NXV_CHECK(out, "write_metrics", tmp.string(), ": write error (disk full?)");
  }
  std::error_code ec;
  std::filesystem::rename(tmp, path, ec);
  if (ec) {
    std::filesystem::remove(tmp);
    detail::fail("write_metrics: cannot write ", path.string(), " (renaming ", tmp.string(), " to it: ", ec.message(),
                 ")");
  }
}

}  // namespace

void save_checkpoint(const std::filesystem::path& path, const Checkpoint& c) {
  check_settings(c, "save_checkpoint: " + path.string() + ": not written: metadata");
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
      {"lr", exact(c.lr)},
      {"metrics", metrics_json(c.history)},
      {"schedule", c.schedule.kind},
      {"decay_every", std::to_string(c.schedule.decay_every)},
      {"decay_factor", exact(c.schedule.decay_factor)},
      {"final_lr_fraction", exact(c.schedule.final_lr_fraction)},
  };
  // Read back before it replaces the previous checkpoint, which often is the one this run resumed from.
  io::save_safetensors(path, tensors, metadata, [&](const std::filesystem::path& written) {
    try {
      load_checkpoint(written, reference_backend());
    } catch (const Error& e) {
      detail::fail("save_checkpoint: ", path.string(), " was left as it was: the new checkpoint does not read back (",
                   e.what(), ")");
    }
  });
}

Checkpoint load_checkpoint(const std::filesystem::path& path, Backend& backend) {
  io::SafetensorsFile file = io::load_safetensors(path, backend);
  const auto format = file.metadata.find("format");
  NXV_CHECK(format != file.metadata.end() && format->second == kFormat, "checkpoint " + path.string(),
            "not an nxv-train checkpoint (metadata \"format\" is not \"", kFormat, "\")");
  const MetadataReader m(file.metadata, path);
  Checkpoint c;
  c.model = m.text("model");
  c.optimizer = m.text("optimizer");
  const std::string& dtype = m.text("dtype");
  if (!is_one_of(dtype, {"f32", "f64", "bf16", "f16"}))
    detail::fail("checkpoint ", path.string(), ": metadata \"dtype\" is \"", dtype,
                 "\", expected f32, f64, bf16 or f16");
  c.dtype = dtype_from_name(dtype);
  c.epoch = m.parse<std::int64_t>("epoch", "an integer");
  c.step = m.parse<std::int64_t>("step", "an integer");
  c.batch = m.parse<std::int64_t>("batch", "an integer");
  c.seed = m.parse<std::uint64_t>("seed", "an unsigned integer");
  c.lr = m.parse<double>("lr", "a number");
  c.history = parse_metrics_json(m.text("metrics"), "checkpoint " + path.string() + ", metadata \"metrics\"");
  // Checkpoints written before --schedule existed trained with a constant rate.
  if (file.metadata.count("schedule")) {
    c.schedule.kind = m.text("schedule");
    c.schedule.decay_every = m.parse<std::int64_t>("decay_every", "an integer");
    c.schedule.decay_factor = m.parse<double>("decay_factor", "a number");
    c.schedule.final_lr_fraction = m.parse<double>("final_lr_fraction", "a number");
  }
  check_settings(c, "checkpoint " + path.string() + ": metadata");
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
         ", \"train_loss\": " + json_number(m.train_loss) + ", \"test_loss\": " + json_number(m.test_loss) +
         ", \"test_accuracy\": " + json_number(m.test_accuracy) + ", \"seconds\": " + json_number(m.seconds) +
         ", \"samples_per_second\": " + json_number(m.samples_per_second) + "}";
  }
  return s + "]";
}

std::vector<EpochMetrics> parse_metrics_json(const std::string& text, const std::string& source) {
  const io::json::Value v = io::json::parse(text, source);
  NXV_CHECK(v.kind == io::json::Value::Kind::array, source, "expected a JSON array of epochs, got ",
            io::json::name(v.kind));
  std::vector<EpochMetrics> history;
  for (const io::json::Value& item : v.items) {
    const std::string entry = "entry " + std::to_string(history.size());
    NXV_CHECK(item.kind == io::json::Value::Kind::object, source, entry, " is ", io::json::name(item.kind),
              ", expected an object");
    auto get = [&](const char* key) {
      const io::json::Value* f = item.find(key);
      NXV_CHECK(f && (f->kind == io::json::Value::Kind::number || f->kind == io::json::Value::Kind::null), source,
                entry, " has no number (or null) \"", key, "\"");
      if (f->kind == io::json::Value::Kind::null) return std::nan("");
      double x = 0;
      const auto [end, ec] = std::from_chars(f->text.data(), f->text.data() + f->text.size(), x);
      NXV_CHECK(ec == std::errc() && end == f->text.data() + f->text.size(), source, entry, ": \"", key, "\" is ",
                f->text, ", beyond the range of a double");
      return x;
    };
    const io::json::Value* epoch = item.find("epoch");
    NXV_CHECK(epoch && epoch->as_uint64() && *epoch->as_uint64() <= INT64_MAX, source, entry,
              " has no epoch number (an integer >= 0) \"epoch\"");
    history.push_back({static_cast<std::int64_t>(*epoch->as_uint64()), get("train_loss"), get("test_loss"),
                       get("test_accuracy"), get("seconds"), get("samples_per_second")});
  }
  return history;
}

void write_metrics(const std::filesystem::path& dir, const std::vector<EpochMetrics>& history,
                   const std::string& title) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  NXV_CHECK(!ec, "write_metrics", "cannot create the output directory ", dir.string(), " (", ec.message(), ")");
  std::string csv = "epoch,train_loss,test_loss,test_accuracy,seconds,samples_per_second\n";
  for (const EpochMetrics& m : history)
    csv += std::to_string(m.epoch) + ',' + csv_number(m.train_loss) + ',' + csv_number(m.test_loss) + ',' +
           csv_number(m.test_accuracy) + ',' + csv_number(m.seconds) + ',' + csv_number(m.samples_per_second) + '\n';
  write_text_file(dir / "metrics.csv", csv);
  write_text_file(dir / "metrics.json", metrics_json(history) + '\n');

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
