#include "sample/outputs.hpp"

#include <cerrno>
#include <charconv>
#include <cstring>
#include <fstream>

#include "io/safetensors.hpp"
#include "nxv/error.hpp"
#include "nxv/ops.hpp"

namespace nxv::sample_app {

namespace {

std::vector<double> host_doubles(const Tensor& t) { return as_type(t.to_host(), DType::f64).to_vector<double>(); }

// "beta[1,0]" for element `flat` of a parameter of shape `shape`, as the summary table names it.
std::string element_name(const std::string& param, const Shape& shape, std::int64_t flat) {
  if (shape.empty()) return param;
  std::vector<std::int64_t> index(shape.size());
  for (int a = shape.size() - 1; a >= 0; --a) {
    index[a] = flat % shape[a];
    flat /= shape[a];
  }
  std::string s = param + "[";
  for (std::size_t a = 0; a < index.size(); ++a) s += (a ? "," : "") + std::to_string(index[a]);
  return s + "]";
}

// Through "<path>.tmp" and a rename: a reader never sees half a file.
void write_text_file(const std::filesystem::path& path, const std::string& text) {
  const std::filesystem::path tmp = path.string() + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    NXV_CHECK(out, "nxv-sample", tmp.string(), ": cannot be created (", std::strerror(errno), ")");
    out << text;
    out.close();
    NXV_CHECK(out, "nxv-sample", tmp.string(), ": write error (disk full?)");
  }
  std::error_code ec;
  std::filesystem::rename(tmp, path, ec);
  NXV_CHECK(!ec, "nxv-sample", "cannot write ", path.string(), " (", ec.message(), ")");
}

// The shortest text that reads back as exactly `v` (std::to_chars): a tenth of snprintf's "%.17g" time, which was
// most of writing draws.csv (719 MB at 65536 chains x 40 draws of the logistic model), and shorter files.
std::string number(double v) {
  char buf[32];  // the longest shortest form of a double ("-2.2250738585072014e-308") is 24 characters
  return std::string(buf, std::to_chars(buf, buf + sizeof buf, v).ptr);
}

// File names keep letters, digits, '_' and '-': "beta[1,0]" -> "beta_1_0".
std::string file_stem(const std::string& name) {
  std::string s;
  for (char c : name)
    if (std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-')
      s += c;
    else if (c == '[' || c == ',')
      s += '_';
  return s;
}

}  // namespace

std::vector<ElementDraws> element_draws(const mcmc::Samples& s) {
  std::vector<ElementDraws> out;
  for (const std::string& name : s.names) {
    const Tensor& t = s.draws.at(name);
    NXV_CHECK(t.rank() >= 2, "nxv-sample", "draws of '", name, "' are ", to_string(t.type()),
              ", expected [chains, draws, ...]");
    const std::int64_t chains = t.dim(0), draws = t.dim(1), elements = t.size() / (chains * draws);
    const Shape shape(t.shape().begin() + 2, t.shape().end());
    const std::vector<double> v = host_doubles(t);
    for (std::int64_t e = 0; e < elements; ++e) {
      ElementDraws d{element_name(name, shape, e), std::vector<std::vector<double>>(chains)};
      for (std::int64_t c = 0; c < chains; ++c)
        for (std::int64_t i = 0; i < draws; ++i) d.chains[c].push_back(v[(c * draws + i) * elements + e]);
      out.push_back(std::move(d));
    }
  }
  return out;
}

void write_draws_csv(const std::filesystem::path& path, const mcmc::Samples& s,
                     const std::vector<ElementDraws>& elements) {
  const std::int64_t chains = s.log_density.dim(0), draws = s.log_density.dim(1);
  std::string text = "chain,draw";
  for (const ElementDraws& e : elements) text += ',' + e.name;
  text += ",log_density,accept_stat,diverging,tree_depth,num_steps,step_size,energy\n";
  const std::vector<double> lp = host_doubles(s.log_density), accept = host_doubles(s.accept_stat),
                            diverging = host_doubles(s.diverging), depth = host_doubles(s.tree_depth),
                            steps = host_doubles(s.num_steps), step_size = host_doubles(s.step_size),
                            energy = host_doubles(s.energy);
  for (std::int64_t c = 0; c < chains; ++c)
    for (std::int64_t i = 0; i < draws; ++i) {
      const std::size_t k = c * draws + i;
      text += std::to_string(c) + ',' + std::to_string(i);
      for (const ElementDraws& e : elements) text += ',' + number(e.chains[c][i]);
      text += ',' + number(lp[k]) + ',' + number(accept[k]) + ',' + std::to_string(static_cast<int>(diverging[k])) +
              ',' + std::to_string(static_cast<std::int64_t>(depth[k])) + ',' +
              std::to_string(static_cast<std::int64_t>(steps[k])) + ',' + number(step_size[c]) + ',' +
              number(energy[k]) + '\n';
    }
  write_text_file(path, text);
}

void write_draws_safetensors(const std::filesystem::path& path, const mcmc::Samples& s,
                             const std::map<std::string, std::string>& metadata) {
  std::map<std::string, Tensor> tensors;
  for (const std::string& name : s.names) tensors[name] = s.draws.at(name);
  const std::map<std::string, Tensor> stats{{"unconstrained", s.unconstrained}, {"log_density", s.log_density},
                                            {"accept_stat", s.accept_stat},     {"energy", s.energy},
                                            {"diverging", s.diverging},         {"num_steps", s.num_steps},
                                            {"tree_depth", s.tree_depth},       {"step_size", s.step_size},
                                            {"inverse_mass", s.inverse_mass}};
  for (const auto& [name, t] : stats) {
    NXV_CHECK(!tensors.count(name), "nxv-sample", "a parameter is named '", name,
              "', which draws.safetensors keeps for a sampler statistic");
    tensors[name] = t;
  }
  io::save_safetensors(path, tensors, metadata);
}

std::vector<std::filesystem::path> write_outputs(const std::filesystem::path& dir, const mcmc::Samples& s,
                                                 const std::string& summary,
                                                 const std::map<std::string, std::string>& metadata,
                                                 std::size_t max_plotted) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  NXV_CHECK(!ec, "nxv-sample", "cannot create the output directory ", dir.string(), " (", ec.message(), ")");
  std::vector<std::filesystem::path> written{dir / "draws.csv", dir / "draws.safetensors", dir / "summary.txt"};
  const std::vector<ElementDraws> elements = element_draws(s);
  write_draws_csv(written[0], s, elements);
  write_draws_safetensors(written[1], s, metadata);
  write_text_file(written[2], summary);
  for (std::size_t i = 0; i < elements.size() && i < max_plotted; ++i) {
    const std::string stem = file_stem(elements[i].name);
    written.push_back(dir / ("trace_" + stem + ".png"));
    write_trace_plot(written.back(), elements[i]);
    written.push_back(dir / ("rank_" + stem + ".png"));
    write_rank_plot(written.back(), elements[i]);
  }
  return written;
}

}  // namespace nxv::sample_app
