// nxv-train's checkpoints and metrics files (apps/train/checkpoint): what is written is what is read back, non-finite
// metrics included; settings that could not be read back are never written; a malformed field is an error naming
// the file and the field; a failed metrics write is an error naming the file. No data set needed.
#include "train/checkpoint.hpp"

#include <gtest/gtest.h>

#include <cfloat>
#include <cmath>

#include "io/json.hpp"
#include "io/safetensors.hpp"
#include "support/temp_dir.hpp"
#include "train/models.hpp"

namespace nxv::train {
namespace {

using io_test::expect_error;
using io_test::TempDir;

// An MLP checkpoint for 2x3 images after `epochs` epochs.
Checkpoint small_checkpoint(std::int64_t epochs = 1) {
  Checkpoint c{"mlp", "adam", DType::f32, epochs, 3 * epochs, 32, 7, 1e-3, {"cosine", 3, 0.5, 0.1}, {}, {}, {}, {}};
  const nn::Variables v = make_model("mlp").init_variables(key(0), {1, 6}, DType::f32, reference_backend());
  c.params = v.params;
  c.model_state = v.state;
  c.optimizer_state = nn::adam().init(c.params);
  for (std::int64_t e = 1; e <= epochs; ++e) c.history.push_back({e, 0.5, 0.6, 0.7, 1.25, 1000});
  return c;
}

// A diverged epoch's metrics used to be written as "nan", which no JSON reader reads (and the checkpoint with it).
TEST(TrainMetrics, NonFiniteValuesAreWrittenAsNullAndReadBackAsNaN) {
  const std::vector<EpochMetrics> history{{1, NAN, INFINITY, -INFINITY, 0, 0}};
  const std::string text = metrics_json(history);
  EXPECT_NO_THROW(io::json::parse(text)) << text;
  EXPECT_NE(text.find("\"train_loss\": null, \"test_loss\": null, \"test_accuracy\": null"), std::string::npos) << text;
  const std::vector<EpochMetrics> back = parse_metrics_json(text, "test");
  ASSERT_EQ(back.size(), 1u);
  EXPECT_TRUE(std::isnan(back[0].train_loss));
  EXPECT_TRUE(std::isnan(back[0].test_loss));
  EXPECT_TRUE(std::isnan(back[0].test_accuracy));
}

TEST(TrainMetrics, FiniteValuesRoundTripExactly) {
  const std::vector<EpochMetrics> history{{1, 1.0 / 3, 0.1, DBL_MAX, 4.9e-324, 123456.789}, {2, 0, -0.0, 1, 2, 3}};
  const std::vector<EpochMetrics> back = parse_metrics_json(metrics_json(history), "test");
  ASSERT_EQ(back.size(), 2u);
  for (std::size_t i = 0; i < 2; ++i) {
    EXPECT_EQ(back[i].epoch, history[i].epoch);
    EXPECT_EQ(back[i].train_loss, history[i].train_loss);
    EXPECT_EQ(back[i].test_loss, history[i].test_loss);
    EXPECT_EQ(back[i].test_accuracy, history[i].test_accuracy);
    EXPECT_EQ(back[i].seconds, history[i].seconds);
    EXPECT_EQ(back[i].samples_per_second, history[i].samples_per_second);
  }
}

TEST(TrainMetrics, MalformedMetricsNameTheirSource) {
  expect_error([] { parse_metrics_json(R"([{"epoch": 1, "train_loss": nan}])", "metrics.json"); },
               {"json: metrics.json: at byte", "expected 'null'"});
  expect_error([] { parse_metrics_json(R"({"epoch": 1})", "metrics.json"); },
               {"metrics.json", "expected a JSON array of epochs, got an object"});
  expect_error([] { parse_metrics_json(R"([{"epoch": 1, "train_loss": "x"}])", "metrics.json"); },
               {"metrics.json", "entry 0", "\"train_loss\""});
  expect_error([] { parse_metrics_json(R"([{"epoch": 1.5}])", "metrics.json"); }, {"metrics.json", "\"epoch\""});
}

TEST(TrainCheckpoint, RoundTripsItsSettingsExactly) {
  TempDir dir;
  Checkpoint c = small_checkpoint(2);
  c.lr = 1.0 / 3;  // no short decimal: "%.9g" would have changed it
  save_checkpoint(dir / "c.safetensors", c);
  const Checkpoint back = load_checkpoint(dir / "c.safetensors", reference_backend());
  EXPECT_EQ(back.lr, c.lr);
  EXPECT_EQ(back.schedule.final_lr_fraction, 0.1);
  EXPECT_EQ(back.batch, 32);
  EXPECT_EQ(back.seed, 7u);
  EXPECT_EQ(back.history.size(), 2u);
  EXPECT_EQ(back.params.size(), c.params.size());
  EXPECT_FALSE(std::filesystem::exists(dir / "c.safetensors.tmp"));
}

// Rewrites one metadata field of the checkpoint at `path`.
void set_metadata(const std::filesystem::path& path, const std::string& key, const std::string& value) {
  io::SafetensorsFile f = io::load_safetensors(path, reference_backend());
  f.metadata[key] = value;
  io::save_safetensors(path, f.tensors, f.metadata);
}

// Such values used to be accepted (std::stoll("12abc") is 12) and trained with, a NaN rate included.
TEST(TrainCheckpoint, AMalformedOrOutOfRangeFieldIsAnErrorNamingIt) {
  TempDir dir;
  const auto path = dir / "c.safetensors";
  const struct {
    const char* key;
    const char* value;
    const char* expected;
  } cases[] = {
      {"lr", "nan", "\"lr\" is nan, expected a positive finite number"},
      {"lr", "-1", "\"lr\" is -1, expected a positive finite number"},
      {"lr", "inf", "\"lr\" is inf, expected a positive finite number"},
      {"lr", "fast", "\"lr\" is \"fast\", expected a number"},
      {"final_lr_fraction", "7", "\"final_lr_fraction\" is 7, expected a number from 0 to 1"},
      {"decay_factor", "0", "\"decay_factor\" is 0, expected a positive finite number"},
      {"decay_every", "0", "\"decay_every\" is 0, expected an integer >= 1"},
      {"batch", "12abc", "\"batch\" is \"12abc\", expected an integer"},
      {"batch", "0", "\"batch\" is 0, expected an integer >= 1"},
      {"seed", "-1", "\"seed\" is \"-1\", expected an unsigned integer"},
      {"epoch", "5", "\"metrics\" is 1 epochs long, expected one entry per epoch"},
      {"dtype", "s32", "\"dtype\" is \"s32\", expected f32, f64, bf16 or f16"},
      {"model", "resnet", "\"model\" is \"resnet\", expected lenet, mlp or cnn"},
      {"schedule", "linear", "\"schedule\" is \"linear\", expected constant, step or cosine"},
      {"metrics", "[{\"epoch\": 1, \"train_loss\": nan}]", "metadata \"metrics\": at byte"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(std::string(c.key) + " = " + c.value);
    save_checkpoint(path, small_checkpoint());
    set_metadata(path, c.key, c.value);
    expect_error([&] { load_checkpoint(path, reference_backend()); }, {"checkpoint " + path.string(), c.expected});
  }
}

TEST(TrainCheckpoint, ADirectoryIsAnErrorNamingIt) {
  TempDir dir;
  std::filesystem::create_directory(dir / "ckpt");
  expect_error([&] { load_checkpoint(dir / "ckpt", reference_backend()); },
               {(dir / "ckpt").string(), "is a directory"});
}

TEST(TrainCheckpoint, SettingsThatCouldNotBeReadBackAreNeverWritten) {
  TempDir dir;
  const auto path = dir / "c.safetensors";
  save_checkpoint(path, small_checkpoint());
  const std::string good = io_test::read_bytes(path);
  Checkpoint bad = small_checkpoint();
  bad.lr = NAN;
  expect_error([&] { save_checkpoint(path, bad); }, {path.string(), "not written", "\"lr\" is nan"});
  bad = small_checkpoint();
  bad.epoch = 2;  // one epoch of metrics
  expect_error([&] { save_checkpoint(path, bad); }, {path.string(), "not written", "\"metrics\""});
  EXPECT_EQ(io_test::read_bytes(path), good) << "the good checkpoint is untouched";
  EXPECT_FALSE(std::filesystem::exists(dir / "c.safetensors.tmp"));
}

// They used to be written with unchecked ofstreams: a failure went unnoticed and nxv-train exited with 0.
TEST(TrainMetrics, AFailedWriteIsAnErrorNamingTheFile) {
  for (const char* name : {"metrics.csv", "metrics.json"}) {
    TempDir dir;
    std::filesystem::create_directories(dir / name / "in the way");
    expect_error([&] { write_metrics(dir.path(), small_checkpoint().history, "title"); }, {(dir / name).string()});
  }
  TempDir dir;
  io_test::write_bytes(dir / "file", "");
  expect_error([&] { write_metrics(dir / "file", small_checkpoint().history, "title"); },
               {(dir / "file").string(), "cannot create the output directory"});
}

}  // namespace
}  // namespace nxv::train
