// The Vulkan backend's MapCompiler (trace/compiler.hpp): a per-instance kernel (instance_codegen.hpp) compiled behind
// the SPIR-V cache, and its executable, which packs the inputs per dtype, dispatches every instance (in chunks where
// the scratch memory or the grid would be too large for one dispatch) and unpacks the outputs.
#include <algorithm>
#include <chrono>
#include <iostream>

#include "core/settings.hpp"
#include "nxv/ops.hpp"
#include "nxv/vulkan.hpp"
#include "trace/compiler.hpp"
#include "vulkan/fusion/instance_codegen.hpp"
#include "vulkan/fusion/shader_cache.hpp"
#include "vulkan/kernels/layout.hpp"
#include "vulkan/runtime/capabilities.hpp"
#include "vulkan/runtime/runtime.hpp"
#include "vulkan/runtime/runtime_shaders.hpp"
#include "vulkan/runtime/storage.hpp"

namespace nxv::vulkan {
namespace {

using fusion::InstanceKernel;

constexpr const char* kOp = "jit_map (vulkan per-instance kernel)";
// Scratch memory one dispatch may use; more instances than fit run in several dispatches.
constexpr std::uint64_t kScratchBudget = std::uint64_t{1} << 30;
constexpr std::uint64_t kMaxIndex = 0xffffffffULL;  // the kernel indexes buffers with 32-bit words

class InstanceExecutable final : public MapExecutable {
 public:
  InstanceExecutable(InstanceKernel k, const Pipeline* pipeline, std::vector<BufferPtr> constants,
                     std::vector<bool> batched, std::vector<TensorType> output_types)
      : k_(std::move(k)),
        pipeline_(pipeline),
        constants_(std::move(constants)),
        batched_(std::move(batched)),
        output_types_(std::move(output_types)) {}

  std::optional<std::vector<Tensor>> run(std::span<const Tensor> inputs) override {
    Backend& vk = vulkan::backend();
    std::int64_t count = -1;
    for (std::size_t i = 0; i < inputs.size(); ++i)
      if (batched_[i]) {
        NXV_CHECK(count < 0 || inputs[i].dim(0) == count, kOp, "got batched inputs of ", count, " and ",
                  inputs[i].dim(0), " instances, expected one count");
        count = inputs[i].dim(0);
      }
    NXV_CHECK(count >= 0, kOp, "got no batched input", ", expected at least one");
    std::vector<Tensor> keep;  // the packed blocks, alive until the dispatches are recorded
    std::vector<BufferPtr> buffers;
    std::vector<bool> writes;
    const auto pack = [&](const InstanceKernel::Block& block, bool per_instance) {
      std::vector<Tensor> parts;
      for (const InstanceKernel::Member& m : block.members) {
        const Tensor& x = inputs[static_cast<std::size_t>(m.index)];
        parts.push_back(per_instance ? reshape(x, {count, m.elements}) : reshape(x, {m.elements}));
      }
      keep.push_back(parts.size() == 1 ? parts[0] : concatenate(parts, per_instance ? 1 : 0));
      NXV_CHECK(static_cast<std::uint64_t>(keep.back().size()) <= kMaxIndex, kOp, "got ", keep.back().size(),
                " input elements of dtype ", name(block.dtype), ", expected fewer than 2^32");
      buffers.push_back(buffer_of(keep.back(), kOp));
      writes.push_back(false);
    };
    for (const InstanceKernel::Block& b : k_.batched) pack(b, true);
    for (const InstanceKernel::Block& b : k_.shared) pack(b, false);
    for (const BufferPtr& b : constants_) {
      buffers.push_back(b);
      writes.push_back(false);
    }
    std::vector<Tensor> blocks;
    for (const InstanceKernel::Block& b : k_.outputs) {
      const TensorType type{{count, b.row}, b.dtype};
      NXV_CHECK(static_cast<std::uint64_t>(count * b.row) <= kMaxIndex, kOp, "got ", count * b.row,
                " output elements of dtype ", name(b.dtype), ", expected fewer than 2^32");
      BufferPtr buffer = kernels::allocate(type);
      buffers.push_back(buffer);
      writes.push_back(true);
      blocks.emplace_back(type, vk, std::make_shared<VulkanStorage>(std::move(buffer)));
    }
    // Instances per dispatch: the grid's limit, the scratch budget and 32-bit scratch indices.
    std::uint64_t per_instance = 0, widest = 1;
    for (const InstanceKernel::Scratch& s : k_.scratch) {
      per_instance += static_cast<std::uint64_t>(s.elements) * s.bytes;
      widest = std::max<std::uint64_t>(widest, static_cast<std::uint64_t>(s.elements));
    }
    Runtime& rt = runtime();
    const std::uint64_t per_group = k_.group ? 1 : fusion::kInstanceGroup;  // instances
    std::uint64_t chunk = std::min<std::uint64_t>(static_cast<std::uint64_t>(count),
                                                  std::uint64_t{rt.features().max_workgroup_count_x} * per_group);
    if (per_instance > 0) chunk = std::min(chunk, std::max<std::uint64_t>(1, kScratchBudget / per_instance));
    chunk = std::min(chunk, std::max<std::uint64_t>(1, kMaxIndex / widest));
    chunk = std::max<std::uint64_t>(chunk, 1);
    for (const InstanceKernel::Scratch& s : k_.scratch) {
      buffers.push_back(
          rt.allocate(static_cast<std::size_t>(static_cast<std::uint64_t>(s.elements) * s.bytes * chunk)));
      writes.push_back(true);
    }
    Tensor status;
    if (k_.cap_trips) {
      const TensorType type{{count}, DType::u32};
      BufferPtr buffer = kernels::allocate(type);
      buffers.push_back(buffer);
      writes.push_back(true);
      status = Tensor(type, vk, std::make_shared<VulkanStorage>(std::move(buffer)));
    }
    std::vector<Binding> bindings;
    for (std::size_t b = 0; b < buffers.size(); ++b) bindings.push_back({&buffers[b], writes[b]});
    for (std::uint64_t first = 0; first < static_cast<std::uint64_t>(count); first += chunk) {
      const std::uint32_t push[2] = {static_cast<std::uint32_t>(first),
                                     static_cast<std::uint32_t>(std::min(chunk, count - first))};
      const auto groups = static_cast<std::uint32_t>((push[1] + per_group - 1) / per_group);
      dispatch_bindings(rt, pipeline_, bindings, std::as_bytes(std::span(push)), groups, 1);
    }
    if (status.defined() && count > 0 && any(not_equal(status, 0)).item() != 0) return std::nullopt;

    std::vector<Tensor> outputs(output_types_.size());
    for (std::size_t b = 0; b < k_.outputs.size(); ++b)
      for (const InstanceKernel::Member& m : k_.outputs[b].members) {
        const TensorType& t = output_types_[static_cast<std::size_t>(m.index)];
        Shape shape = {count};
        for (const std::int64_t d : t.shape) shape.push_back(d);
        const Tensor part =
            k_.outputs[b].members.size() == 1 ? blocks[b] : slice(blocks[b], {0, m.offset}, {count, m.elements});
        outputs[static_cast<std::size_t>(m.index)] = reshape(part, shape);
      }
    return outputs;
  }

 private:
  InstanceKernel k_;
  const Pipeline* pipeline_;
  std::vector<BufferPtr> constants_;
  std::vector<bool> batched_;
  std::vector<TensorType> output_types_;
};

class InstanceCompiler final : public MapCompiler {
 public:
  std::unique_ptr<MapExecutable> compile(const Graph& graph, const std::vector<bool>& batched, std::string& why,
                                         bool faster_only) override {
    Runtime& rt = runtime();
    const DeviceFeatures& f = rt.features();
    // A CPU device (lavapipe) caps loop trips, and its LLVM folds literal constants exactly.
    fusion::InstanceOptions options{f.loop_trips_capped, f.loop_trips_capped};
    options.shared_bytes = f.max_shared_memory;
    // The mapping (instance_codegen.hpp): NXV_CHAIN_SHADERS names one, or by size: a workgroup per instance where
    // one invocation would hold values in scratch memory (observations, many parameters), on a GPU; a CPU device
    // gains nothing from a group's invocations, which it runs one after another. Where the invocation kernel has
    // scratch, the graph is generated again for the group (generation costs milliseconds; the compile is once).
    const std::string mapping = settings::value(settings::Id::CHAIN_SHADERS);
    options.group = mapping == "workgroup";
    using Clock = std::chrono::steady_clock;
    const auto ms_since = [](Clock::time_point t) {
      return std::chrono::duration<double, std::milli>(Clock::now() - t).count();
    };
    const Clock::time_point generation_start = Clock::now();
    std::optional<InstanceKernel> k = fusion::generate_instance_kernel(graph, batched, options, why);
    // (A device with fewer invocations per workgroup than the mapping's lanes keeps one invocation per instance.)
    if (k && mapping != "invocation" && !options.group && !f.loop_trips_capped && !k->scratch.empty() &&
        f.max_workgroup_invocations >= fusion::kGroupLanes) {
      options.group = true;
      std::string group_why;
      std::optional<InstanceKernel> grouped = fusion::generate_instance_kernel(graph, batched, options, group_why);
      if (grouped)
        k = std::move(grouped);
      else if (settings::flag(settings::Id::DEBUG))
        std::cerr << "nxv jit_map: one invocation per instance, since the workgroup mapping was not generated: "
                  << group_why << "\n";
    }
    if (!k) return nullptr;
    // faster_only (mcmc::sample's NXV_CHAIN_SHADERS=auto): only the form measured faster than the vectorized path, a
    // workgroup per instance with every value in shared memory (src/mcmc/sample.cpp's kChainShaderMaxChains says
    // what was measured).
    if (faster_only && (!k->group || !k->scratch.empty())) {
      why = std::string(
                "only a workgroup per instance with every value in shared memory was measured faster than "
                "the vectorized path (NXV_CHAIN_SHADERS=auto); this kernel has ") +
            (k->group ? "values in scratch memory" : "one invocation per instance");
      return nullptr;
    }
    if (k->bindings() > f.max_bindings) {
      why = std::to_string(k->bindings()) + " bindings (the device allows " + std::to_string(f.max_bindings) + ")";
      return nullptr;
    }
    const auto uses = [&](const char* word) { return k->glsl.find(word) != std::string::npos; };
    if ((!f.float64 && uses("double")) || (!f.int64 && uses("int64_t"))) {
      why = "64-bit values on a device without them";
      return nullptr;
    }
    const double generation_ms = ms_since(generation_start);
    fusion::ShaderCache::Entry entry;
    const Pipeline* pipeline = nullptr;
    double compile_ms = 0, pipeline_ms = 0;
    try {
      const Clock::time_point compile_start = Clock::now();
      entry = fusion::shader_cache().get(k->glsl);
      compile_ms = ms_since(compile_start);
      register_runtime_shader(entry.name, *entry.spirv);
      const Clock::time_point pipeline_start = Clock::now();
      pipeline = rt.pipeline(entry.name);
      pipeline_ms = ms_since(pipeline_start);
    } catch (const DeviceLacks& e) {  // e.g. NXV_CHAIN_SHADERS=workgroup on a device of 128 invocations a group
      why = "the device lacks " + e.feature();
      return nullptr;
    } catch (const Error& e) {  // a generator bug must not stop a sampler: it runs vectorized, and says why
      const std::string what = e.what();
      why = "the generated kernel did not compile: " + what.substr(0, what.find('\n'));
      return nullptr;
    }
    std::vector<BufferPtr> constants;
    for (const InstanceKernel::Constants& c : k->constants) {
      constants.push_back(rt.allocate(c.bytes.size()));
      rt.upload(constants.back(), c.bytes);
    }
    std::vector<TensorType> output_types;
    for (const NodeId o : graph.outputs) output_types.push_back(graph.nodes[o].type);
    if (settings::flag(settings::Id::DEBUG)) {
      std::uint64_t scratch = 0;
      for (const InstanceKernel::Scratch& s : k->scratch) scratch += static_cast<std::uint64_t>(s.elements) * s.bytes;
      const std::optional<std::filesystem::path> file = fusion::shader_cache().file_for(k->glsl);
      std::cerr << "nxv jit_map: " << entry.name << ": "
                << (k->group ? "a workgroup of " + std::to_string(fusion::kGroupLanes) + " invocations per instance, " +
                                   std::to_string(k->shared_bytes) + " shared bytes, "
                             : std::string("one invocation per instance, "))
                << scratch << " scratch bytes per instance, " << k->bindings() << " bindings"
                << (k->cap_trips ? ", loop trips counted" : "") << "; generated in " << generation_ms
                << " ms, GLSL to SPIR-V " << compile_ms << " ms (or the cache's), pipeline " << pipeline_ms
                << " ms (the driver's compile); SPIR-V " << (file ? file->string() : std::string("in memory")) << "\n"
                << k->glsl;
    }
    return std::make_unique<InstanceExecutable>(std::move(*k), pipeline, std::move(constants), batched,
                                                std::move(output_types));
  }
};

}  // namespace

std::shared_ptr<MapCompiler> instance_compiler() {
  static const std::shared_ptr<MapCompiler> instance = std::make_shared<InstanceCompiler>();
  return instance;
}

}  // namespace nxv::vulkan
