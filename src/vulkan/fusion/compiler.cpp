// The Vulkan fusion compiler's Compiler and Executable: plans stages (plan.hpp), generates and compiles one
// kernel per fused region at compile time (compile_kernels.hpp, in parallel), and runs a call's stages into one
// batch: fused stages as dispatches of their generated pipelines, the others through apply() as eagerly. A control
// node's bodies are compiled the same way and run once per iteration.
//
// Replay: the first call copies its inputs into buffers of the executable's own and runs the stages under a
// runtime capture (runtime.hpp), which records them into a reusable command buffer and gives the values that
// die inside the call memory shared by liveness. Later calls (an executable serves one input signature, so
// the same shapes) copy their inputs into those buffers, execute the recording and copy the outputs into fresh
// buffers: no recording and no allocation beyond the outputs. A graph whose stages cannot be replayed (one that
// reads a value back on the host, a host fallback) spoils its capture and runs stage by stage on every call.
// Replay is kept only where it pays (nxv::vulkan::Replay::automatic, include/nxv/vulkan.hpp). NXV_REPLAY=0 turns it off
// for A/B runs and NXV_REPLAY=always on for every graph; NXV_PROFILE and NXV_BATCH_MAX=0 turn it off (both need the
// batch).
#include <algorithm>
#include <cstdlib>
#include <iostream>
#include <limits>
#include <map>
#include <optional>
#include <string_view>
#include <utility>

#include "core/settings.hpp"
#include "nxv/vulkan.hpp"
#include "ops/apply.hpp"
#include "trace/compiler.hpp"
#include "trace/control_flow.hpp"
#include "trace/evaluate.hpp"
#include "vulkan/fusion/codegen.hpp"
#include "vulkan/fusion/compile_kernels.hpp"
#include "vulkan/fusion/epilogue.hpp"
#include "vulkan/fusion/looped.hpp"
#include "vulkan/fusion/plan.hpp"
#include "vulkan/kernels/conv.hpp"
#include "vulkan/kernels/dot.hpp"
#include "vulkan/kernels/kernels.hpp"
#include "vulkan/kernels/layout.hpp"
#include "vulkan/runtime/capabilities.hpp"
#include "vulkan/runtime/diagnostics.hpp"
#include "vulkan/runtime/pipelines.hpp"
#include "vulkan/runtime/profiler.hpp"
#include "vulkan/runtime/runtime_shaders.hpp"
#include "vulkan/runtime/storage.hpp"

namespace nxv::vulkan::fusion {
namespace {

// Lifts the batch cap for the duration of a call, so that its stages are recorded into one command buffer and
// submitted once (when a result is read, or by the next eager dispatch past the cap), instead of every
// NXV_BATCH_MAX dispatches. NXV_BATCH_MAX=0 (submit and wait after every dispatch, for debugging) is kept.
class OneBatch {
 public:
  OneBatch() : saved_(vulkan::batch_max()) {
    if (saved_ > 0) vulkan::set_batch_max(std::numeric_limits<int>::max());
  }
  ~OneBatch() { vulkan::set_batch_max(saved_); }
  OneBatch(const OneBatch&) = delete;
  OneBatch& operator=(const OneBatch&) = delete;

 private:
  int saved_;
};

// The replay mode after NXV_REPLAY ("0": never, "always": always) and the settings replay cannot work under.
Replay replay_mode(const vulkan::CompilerOptions& options) {
  if (vulkan::batch_max() == 0 || vulkan::profiling_requested()) return vulkan::Replay::never;
  const std::string forced = settings::value(settings::Id::REPLAY);
  if (forced == "0") return vulkan::Replay::never;
  if (forced == "always") return vulkan::Replay::always;
  return options.replay;
}

// Ends a capture that an exception interrupted, so that the runtime does not go on capturing.
class CaptureScope {
 public:
  explicit CaptureScope(bool capture) : active_(capture && vulkan::runtime().begin_capture()) {}
  ~CaptureScope() {
    if (!active_) return;
    try {
      vulkan::runtime().end_capture();
    } catch (const std::exception&) {  // already unwinding from the error that matters
    }
  }
  vulkan::RecordingPtr end() {
    if (!active_) return nullptr;
    active_ = false;
    return vulkan::runtime().end_capture();
  }
  CaptureScope(const CaptureScope&) = delete;
  CaptureScope& operator=(const CaptureScope&) = delete;

 private:
  bool active_;
};

// A reduction kernel's epilogue and inner reduction, in the order of their bindings and push words.
std::vector<const Kernel*> parts_of(const Kernel& k) {
  std::vector<const Kernel*> parts;
  for (const Kernel& e : k.epilogue) parts.push_back(&e);
  for (const Kernel& i : k.inner) parts.push_back(&i);
  return parts;
}

struct CompiledStage {
  const vulkan::Pipeline* pipeline = nullptr;  // fused stages with a non-empty domain
  std::string shader;                          // the generated kernel (contractions make pipelines per layout)
  vulkan::kernels::Grid grid;
  std::int64_t chunks = 1;          // reduction stages: workgroups per output (more than one: an eager second pass)
  std::vector<std::uint32_t> push;  // reduction stages: the kernel's and its epilogue's push constants
  std::vector<NodeId> release;      // values no later stage reads (dropped after this stage, so memory is reused)
};

class FusedExecutable final : public Executable {
 public:
  FusedExecutable(const Graph& graph, const Signature& signature, const vulkan::CompilerOptions& options)
      : graph_(graph), options_(options) {
    const std::string fusion = settings::value(settings::Id::FUSION);
    plan_ = plan_stages(graph_, fusion != "0", vulkan::runtime().features().max_bindings, fusion != "elementwise");
    compiled_.resize(plan_.stages.size());
    std::vector<int> last_use(graph_.nodes.size(), -1);
    std::vector<KernelJob> jobs;  // the kernels to compile, all at once below
    std::vector<std::size_t> job_stages;
    for (std::size_t s = 0; s < plan_.stages.size(); ++s) {
      const Stage& st = plan_.stages[s];
      if (st.kind == Stage::Kind::eager) {
        for (NodeId x : eager_inputs(graph_.nodes[st.node])) last_use[x] = static_cast<int>(s);
        continue;
      }
      for (const Read& r : st.kernel.reads) last_use[r.node] = static_cast<int>(s);
      for (const Kernel* part : parts_of(st.kernel))
        for (const Read& r : part->reads) last_use[r.node] = static_cast<int>(s);
      if (st.kind == Stage::Kind::contraction) {  // its pipeline depends on the operands' layout: see run_contraction
        jobs.push_back({&st.kernel, false});
        job_stages.push_back(s);
        continue;
      }
      std::uint64_t groups = 0;
      if (st.kind == Stage::Kind::reduction) {
        const Node& n = graph_.nodes[st.node];
        const ReduceLayout l =
            reduce_layout(st.kernel.domain, n.call.attrs_as<ReduceAttrs>().axes, num_elements(n.type.shape));
        groups = l.short_rows() && st.kernel.inner.empty()
                     ? (static_cast<std::uint64_t>(l.outputs) + vulkan::kernels::kGroupSize - 1) /
                           vulkan::kernels::kGroupSize
                     : static_cast<std::uint64_t>(l.outputs * l.chunks);
        compiled_[s].chunks = l.chunks;
        compiled_[s].push = st.kernel.push;
        for (const Kernel* part : parts_of(st.kernel))
          compiled_[s].push.insert(compiled_[s].push.end(), part->push.begin(), part->push.end());
      } else {
        groups = (static_cast<std::uint64_t>(num_elements(st.kernel.domain)) + vulkan::kernels::kGroupSize - 1) /
                 vulkan::kernels::kGroupSize;
      }
      if (groups == 0) continue;
      jobs.push_back({&st.kernel, true});
      job_stages.push_back(s);
      compiled_[s].grid = vulkan::kernels::grid_for_groups(groups);
    }
    const std::vector<CompiledKernel> kernels = compile_kernels(graph_, jobs);
    for (std::size_t j = 0; j < jobs.size(); ++j) {
      compiled_[job_stages[j]].shader = kernels[j].shader;
      compiled_[job_stages[j]].pipeline = kernels[j].pipeline;
    }
    for (NodeId o : graph_.outputs) last_use[o] = std::numeric_limits<int>::max();
    for (std::size_t x = 0; x < last_use.size(); ++x)
      if (last_use[x] >= 0 && last_use[x] < static_cast<int>(compiled_.size()))
        compiled_[last_use[x]].release.push_back(static_cast<NodeId>(x));
    if (settings::flag(settings::Id::DEBUG))
      std::cerr << "nxv fusion compiler: stage plan of " << to_string(signature) << "\n" << to_string(plan_, graph_);
    compile_bodies();
  }

  // The stages of the plan (a control node's stage counts once): what one run dispatches, roughly.
  std::int64_t stage_count() const { return static_cast<std::int64_t>(plan_.stages.size()); }

  std::vector<Tensor> run(std::span<const Tensor> inputs) override {
    Backend& vk = vulkan::backend();
    place_constants_once(vk);
    NXV_CHECK(inputs.size() == graph_.parameters.size(), "jit (vulkan compiler)", "got ", inputs.size(),
              " inputs for a graph of ", graph_.parameters.size(), " parameters");
    OneBatch batch;
    // A body run inside an enclosing call's capture (its first call) neither replays nor captures: a recording
    // cannot execute inside another, and only one capture runs at a time. It tries on a later call.
    const bool nested = vulkan::runtime().capturing();
    if (recording_ && !nested) return replay(inputs);
    const Replay mode = replay_mode(options_);
    const bool capture = !capture_tried_ && !nested && mode != vulkan::Replay::never;
    if (!nested) capture_tried_ = true;
    std::vector<Tensor> values(graph_.nodes.size());
    for (std::size_t i = 0; i < inputs.size(); ++i) {
      const NodeId p = graph_.parameters[i];
      if (!capture) {
        values[p] = inputs[i];
        continue;
      }
      const TensorType& type = graph_.nodes[p].type;
      parameter_buffers_.push_back(vulkan::kernels::allocate(type));
      values[p] = Tensor(type, vk, std::make_shared<vulkan::VulkanStorage>(parameter_buffers_.back()));
    }
    if (capture) copy_inputs(inputs);
    for (std::size_t i = 0; i < graph_.nodes.size(); ++i)
      if (graph_.nodes[i].kind == NodeKind::constant) values[i] = graph_.nodes[i].constant;

    CaptureScope scope(capture);
    for (std::size_t s = 0; s < plan_.stages.size(); ++s) {
      const Stage& st = plan_.stages[s];
      if (st.kind == Stage::Kind::eager)
        values[st.node] = run_eager(st.node, graph_.nodes[st.node], values, vk);
      else if (st.kind == Stage::Kind::contraction)
        run_contraction(st.kernel, compiled_[s], values, vk);
      else
        run_fused(st.kernel, compiled_[s], values, vk);
      for (NodeId x : compiled_[s].release) {
        values[x] = Tensor();
        control_results_.erase(x);
      }
    }
    control_results_.clear();
    std::vector<Tensor> outputs;
    for (NodeId o : graph_.outputs) outputs.push_back(values[o]);
    if (!capture) return outputs;
    vulkan::RecordingPtr recording = scope.end();
    if (recording == nullptr) {  // spoiled: these values are plain tensors, and later calls run stage by stage
      parameter_buffers_.clear();
      last_inputs_.clear();
      if (settings::flag(settings::Id::DEBUG))
        std::cerr << "nxv fusion compiler: the graph cannot be replayed (it waits for the device); running it "
                     "stage by stage\n";
      return outputs;
    }
    const vulkan::RecordingStats r = vulkan::stats(*recording);
    // A loop step's captured inputs are copied once (copy_inputs), its carry in and out on every iteration, 8
    // buffers per copy dispatch; any other call copies every input and output.
    const std::size_t copied =
        loop_step_
            ? 2 * ((outputs.size() + vulkan::kernels::kCopiesPerDispatch - 1) / vulkan::kernels::kCopiesPerDispatch)
            : inputs.size() + outputs.size();
    if (mode == vulkan::Replay::automatic && 2 * static_cast<std::size_t>(r.dispatches) < 3 * copied) {
      last_inputs_.clear();
      parameter_buffers_.clear();  // the copies would cost what replay saves: run stage by stage from now on
      if (settings::flag(settings::Id::DEBUG))
        std::cerr << "nxv fusion compiler: not replayed: " << r.dispatches << " dispatches for " << copied
                  << " buffers to copy\n";
      return outputs;
    }
    recording_ = std::move(recording);
    for (const Tensor& t : outputs) output_buffers_.push_back(vulkan::buffer_of(t, "jit (vulkan compiler)"));
    if (settings::flag(settings::Id::DEBUG))
      std::cerr << "nxv fusion compiler: recorded for replay: " << r.dispatches << " dispatches, " << r.barriers
                << " barriers; " << r.buffers << " buffers of " << r.bytes << " bytes for " << r.allocations
                << " allocations of " << r.requested_bytes << " bytes\n";
    return copy_outputs();
  }

 private:
  // Before any capture: an upload inside one would spoil it.
  void place_constants_once(Backend& vk) {
    if (constants_placed_) return;
    place_constants(graph_, vk);
    for (auto& [node, executables] : bodies_)
      for (auto& e : executables)
        if (e) e->place_constants_once(vk);
    constants_placed_ = true;
  }

  // Each control node's bodies, compiled like any graph (a body of elementwise ops becomes one fused kernel per
  // iteration) and run without replay of their own: the enclosing call's capture records their dispatches. But a
  // while_loop reads its condition back, which spoils the enclosing capture, so its guarded step replays its own
  // recording (as this executable's options allow): one recorded command buffer per iteration instead of
  // recording every stage again, the host work that bounds a step of many small stages (a NUTS leaf).
  void compile_bodies() {
    for (std::size_t i = 0; i < graph_.nodes.size(); ++i) {
      const Node& n = graph_.nodes[i];
      if (n.kind != NodeKind::control) continue;
      if (settings::value(settings::Id::FUSION) != "0")
        if (std::optional<LoopedStage> ls = looped_stage(*n.control)) {
          if (settings::flag(settings::Id::DEBUG))
            std::cerr << "nxv fusion compiler: fori_loop %" << i << " runs as one kernel with its loop inside\n";
          looped_.emplace(static_cast<NodeId>(i), std::move(*ls));
          continue;
        }
      auto& compiled = bodies_[static_cast<NodeId>(i)];
      // A while_loop on the device runs only its guarded step (below): its condition and body are compiled when
      // first asked for (body_of), which saves half its compile time (the body is most of the step).
      const bool is_while = n.control->kind == ControlFlow::Kind::while_loop;
      for (const auto& body : n.control->bodies)
        compiled.push_back(is_while ? nullptr : compile_body(*body, vulkan::Replay::never));
      // A while_loop's iteration as one graph (kGuardedWhileStep): its condition and its per-carry selects fuse
      // into the body's kernels instead of costing a dispatch each.
      if (is_while) {
        compiled.push_back(compile_body(guarded_while_step(*n.control), options_.replay));
        compiled.back()->loop_step_ = true;
      }
    }
  }

  // Body b of control node `id`, compiled now if compile_bodies left it for later.
  FusedExecutable& body_of(NodeId id, std::size_t b) {
    std::unique_ptr<FusedExecutable>& e = bodies_.at(id)[b];
    if (!e) {
      e = compile_body(*graph_.nodes[id].control->bodies[b], vulkan::Replay::never);
      e->place_constants_once(vulkan::backend());
    }
    return *e;
  }

  static std::unique_ptr<FusedExecutable> compile_body(const Graph& body, vulkan::Replay replay) {
    Signature sig{Structure{Structure::Kind::list, {}, {}}, {}, {}, {}};
    for (NodeId p : body.parameters) {
      sig.structure.children.emplace_back();
      sig.types.push_back(body.nodes[p].type);
      sig.weak.push_back(body.nodes[p].weak);
      sig.backends.push_back(&vulkan::backend());
    }
    return std::make_unique<FusedExecutable>(body, sig, vulkan::CompilerOptions{.replay = replay});
  }

  std::vector<Tensor> replay(std::span<const Tensor> inputs) {
    copy_inputs(inputs);
    vulkan::runtime().replay(recording_);
    return copy_outputs();
  }

  // Into the buffers the recording reads, as few dispatches (copy_buffers) rather than a transfer per input, which
  // measured faster on the H200 (bench/RESULTS.md, "Replay's copies").
  // An input in the same buffer as the last call's is not copied again (tensors are immutable, and holding the
  // buffer keeps it from being reused): a loop's captured data and constants are copied once, not per iteration.
  void copy_inputs(std::span<const Tensor> inputs) {
    std::vector<vulkan::kernels::BufferCopy> copies;
    last_inputs_.resize(inputs.size());
    for (std::size_t i = 0; i < inputs.size(); ++i) {
      const vulkan::BufferPtr& from = vulkan::buffer_of(inputs[i], "jit (vulkan compiler)");
      if (from == last_inputs_[i]) continue;
      last_inputs_[i] = from;
      copies.push_back({from, parameter_buffers_[i], byte_size(graph_.nodes[graph_.parameters[i]].type)});
    }
    vulkan::kernels::copy_buffers(copies);
  }

  // The recording writes its outputs into the same buffers on every call; the caller gets copies it may keep.
  std::vector<Tensor> copy_outputs() {
    std::vector<Tensor> outputs;
    std::vector<vulkan::kernels::BufferCopy> copies;
    for (std::size_t o = 0; o < graph_.outputs.size(); ++o) {
      const TensorType& type = graph_.nodes[graph_.outputs[o]].type;
      vulkan::BufferPtr fresh = vulkan::kernels::allocate(type);
      copies.push_back({output_buffers_[o], fresh, byte_size(type)});
      outputs.emplace_back(type, vulkan::backend(), std::make_shared<vulkan::VulkanStorage>(std::move(fresh)));
    }
    vulkan::kernels::copy_buffers(copies);
    return outputs;
  }

  // A control node runs its bodies through the evaluator, recording their dispatches into this call's batch (and
  // capture); its result nodes pick its results.
  Tensor run_eager(NodeId id, const Node& n, const std::vector<Tensor>& values, Backend& vk) {
    if (n.kind == NodeKind::stop_gradient) return values[n.inputs[0]];
    if (n.kind == NodeKind::custom_vjp) return values[n.inputs.back()];
    if (n.kind == NodeKind::result) return control_results_.at(n.inputs[0])[static_cast<std::size_t>(n.result)];
    if (n.inputs.empty() && n.kind == NodeKind::op) return apply_on(vk, n.call, n.type);
    std::vector<Tensor> args;
    args.reserve(n.inputs.size());
    for (NodeId x : n.inputs) args.push_back(values[x]);
    if (n.kind == NodeKind::control && looped_.count(id) > 0) {
      control_results_[id] = run_looped(looped_.at(id), n, args, vk);
      return {};
    }
    if (n.kind == NodeKind::control) {
      const auto& bodies = bodies_.at(id);
      control_results_[id] = run_control(
          *n.control, args, [&](std::size_t b, std::span<const Tensor> in) { return body_of(id, b).run(in); },
          n.control->kind == ControlFlow::Kind::while_loop ? bodies.back()->stage_count() : 0, &while_history_[id]);
      return {};
    }
    return apply(n.call, args, n.type);
  }

  // A kernel's buffers in binding order, and whether each is written.
  struct Buffers {
    std::vector<vulkan::BufferPtr> buffers;
    std::vector<bool> written;
    void add(vulkan::BufferPtr b, bool writes) {
      buffers.push_back(std::move(b));
      written.push_back(writes);
    }
    std::vector<vulkan::Binding> bindings() const {
      std::vector<vulkan::Binding> out;
      for (std::size_t b = 0; b < buffers.size(); ++b) out.push_back({&buffers[b], written[b]});
      return out;
    }
  };

  // A fresh buffer for node `n`'s value, which becomes values[n].
  vulkan::BufferPtr allocate_value(NodeId n, std::vector<Tensor>& values, Backend& vk) const {
    const TensorType& type = graph_.nodes[n].type;
    vulkan::BufferPtr b = vulkan::kernels::allocate(type);
    values[n] = Tensor(type, vk, std::make_shared<vulkan::VulkanStorage>(b));
    return b;
  }

  // Kernel (part) `k`'s reads, but those of `computed` (a value the kernel has in hand), then its outputs.
  void bind(const Kernel& k, NodeId computed, std::vector<Tensor>& values, Backend& vk, Buffers& buffers) const {
    for (const Read& r : k.reads)
      if (r.node != computed) buffers.add(vulkan::buffer_of(values[r.node], "jit (vulkan compiler)"), false);
    for (const auto& [node, value] : k.outputs) buffers.add(allocate_value(node, values, vk), true);
  }

  // A dot or conv with its epilogue: dot.cpp's (conv.cpp's) launch of its kernel, with the generated copy's
  // pipeline for the launch's specialization and the epilogue's buffers after the kernel's own.
  void run_contraction(const Kernel& k, const CompiledStage& c, std::vector<Tensor>& values, Backend& vk) const {
    vulkan::Runtime& rt = vulkan::runtime();
    const Node& host = graph_.nodes[k.reduce];
    const Tensor& a = values[host.inputs[0]];
    const Tensor& b = values[host.inputs[1]];
    const vulkan::BufferPtr result = vulkan::kernels::allocate(host.type);
    if (!k.transposed) values[k.reduce] = Tensor(host.type, vk, std::make_shared<vulkan::VulkanStorage>(result));
    const Kernel& e = k.epilogue.at(0);
    Buffers buffers;
    bind(e, k.reduce, values, vk, buffers);
    const std::vector<vulkan::Binding> extra = buffers.bindings();
    if (host.call.code == OpCode::conv) {
      const vulkan::kernels::ConvLaunch launch =
          vulkan::kernels::unsplit_conv_launch(host.call, a.type(), b.type(), host.type);
      vulkan::kernels::dispatch_conv(rt.pipeline(c.shader, launch.specialization), launch,
                                     vulkan::buffer_of(a, "jit (vulkan compiler)"),
                                     vulkan::buffer_of(b, "jit (vulkan compiler)"), result, extra, e.push);
      return;
    }
    vulkan::kernels::DotLaunch launch;
    if (k.transposed) {  // b . a, [N, M]: only the epilogue reads it, so the node gets no value
      const TransposedDot t = transposed_dot(host);
      launch = vulkan::kernels::tiled_dot_launch(t.call, b, a, t.type);
    } else {
      launch = vulkan::kernels::tiled_dot_launch(host.call, a, b, host.type);
    }
    vulkan::kernels::dispatch_dot(rt.pipeline(c.shader, launch.specialization), launch, result, extra, e.push);
  }

  void run_fused(const Kernel& k, const CompiledStage& c, std::vector<Tensor>& values, Backend& vk) const {
    vulkan::Runtime& rt = vulkan::runtime();
    Buffers buffers;                                                 // in generate_glsl's binding order
    const NodeId nested = k.inner.empty() ? -1 : k.inner[0].reduce;  // read from shared memory, no binding
    bind(k, nested, values, vk, buffers);
    // A reduction's result, or its partials [outputs, chunks] in the result's dtype (f32 for f16 and bf16, as
    // codegen.cpp's result_dtype() writes them).
    const TensorType* reduced = k.reduce >= 0 ? &graph_.nodes[k.reduce].type : nullptr;
    std::int64_t outputs = 0;
    DType partial_dtype = DType::f32;
    if (reduced != nullptr) {
      outputs = num_elements(reduced->shape);
      const bool half = is_half_float(reduced->dtype);
      partial_dtype = c.chunks > 1 && half ? DType::f32 : reduced->dtype;
      buffers.add(rt.allocate(static_cast<std::size_t>(outputs * c.chunks) * size_of(partial_dtype)), true);
      values[k.reduce] = Tensor(*reduced, vk, std::make_shared<vulkan::VulkanStorage>(buffers.buffers.back()));
    }
    const std::size_t result = buffers.buffers.size() - 1;  // reductions: the result's (or partials') binding
    for (const Kernel& e : k.epilogue) bind(e, k.reduce, values, vk, buffers);
    for (const Kernel& i : k.inner) {
      bind(i, -1, values, vk, buffers);
      buffers.add(allocate_value(i.reduce, values, vk), true);
    }
    if (c.pipeline == nullptr) return;  // an empty domain or result: nothing to compute
    const std::vector<vulkan::Binding> bindings = buffers.bindings();
    const std::span<const std::uint32_t> push = reduced != nullptr ? std::span(c.push) : std::span(k.push);
    vulkan::dispatch_bindings(rt, c.pipeline, bindings, std::as_bytes(push), c.grid.x, c.grid.y);
    if (reduced == nullptr || c.chunks == 1) return;
    // The eager kernel's second pass over the partials (the same call along their last axis, repeated while more
    // than one chunk remains), as reduce.cpp runs it after its first.
    const Tensor partials({{outputs, c.chunks}, partial_dtype}, vk,
                          std::make_shared<vulkan::VulkanStorage>(buffers.buffers[result]));
    ReduceAttrs again = graph_.nodes[k.reduce].call.attrs_as<ReduceAttrs>();
    again.axes = {1};
    again.keep_axes = false;
    Tensor total =
        apply(OpCall{OpCode::reduce, again}, std::vector<Tensor>{partials}, TensorType{{outputs}, partial_dtype});
    if (partial_dtype != reduced->dtype) total = as_type(total, reduced->dtype);
    const vulkan::BufferPtr& buffer = vulkan::buffer_of(total, "jit (vulkan compiler)");
    values[k.reduce] = Tensor(*reduced, vk, std::make_shared<vulkan::VulkanStorage>(buffer));
  }

  Graph graph_;
  vulkan::CompilerOptions options_;
  Plan plan_;
  std::vector<CompiledStage> compiled_;
  bool constants_placed_ = false;
  bool capture_tried_ = false;
  bool loop_step_ = false;  // a while_loop's guarded step: called once per iteration with the same captured inputs
  vulkan::RecordingPtr recording_;                         // after a complete capture
  std::vector<vulkan::BufferPtr> parameter_buffers_;       // the recording reads its inputs from these
  std::vector<vulkan::BufferPtr> last_inputs_;             // copied into them by the last call
  std::vector<vulkan::BufferPtr> output_buffers_;          // and writes its outputs into these
  std::map<NodeId, std::vector<Tensor>> control_results_;  // during a call: the results of the control nodes run
  std::map<NodeId, std::vector<std::unique_ptr<FusedExecutable>>> bodies_;  // per control node, its bodies compiled
  std::map<NodeId, WhileHistory> while_history_;  // per while node: how long its last run was (run_control)
  std::map<NodeId, LoopedStage> looped_;          // the fori_loops run as one kernel (no bodies_ entry)
};

class VulkanCompiler final : public Compiler {
 public:
  explicit VulkanCompiler(const vulkan::CompilerOptions& options) : options_(options) {}

  std::unique_ptr<Executable> compile(const Graph& graph, const Signature& signature) override {
    if (!vulkan::available()) return evaluator()->compile(graph, signature);
    Backend& vk = vulkan::backend();
    if (signature.backends.empty()) return evaluator()->compile(graph, signature);  // runs on the default backend
    for (Backend* b : signature.backends)
      if (b != &vk) return evaluator()->compile(graph, signature);
    try {
      return std::make_unique<FusedExecutable>(graph, signature, options_);
    } catch (const vulkan::DeviceLacks& lacking) {
      // A generated kernel needs a feature the device lacks (f64 on Apple GPUs...): the graph runs op by op, each
      // op natively or through the counted host fallback.
      if (settings::flag(settings::Id::DEBUG))
        std::cerr << "nxv fusion compiler: " << lacking.what() << "; the graph runs op by op\n";
      return evaluator()->compile(graph, signature);
    }
  }

 private:
  vulkan::CompilerOptions options_;
};

}  // namespace
}  // namespace nxv::vulkan::fusion

namespace nxv::vulkan {

std::shared_ptr<Compiler> compiler(CompilerOptions options) {
  static const std::shared_ptr<Compiler> compilers[] = {
      std::make_shared<fusion::VulkanCompiler>(CompilerOptions{.replay = Replay::automatic}),
      std::make_shared<fusion::VulkanCompiler>(CompilerOptions{.replay = Replay::always}),
      std::make_shared<fusion::VulkanCompiler>(CompilerOptions{.replay = Replay::never})};
  return compilers[static_cast<int>(options.replay)];
}

}  // namespace nxv::vulkan
