// The Runtime the kernels use (runtime.hpp) and the device/counter/memory functions of nxv/vulkan.hpp.
// Transfers: on unified memory (lavapipe, integrated GPUs) buffers are mapped and uploads/downloads are memcpy;
// elsewhere uploads go through the staging ring as copies recorded into the pending batch, and downloads are
// copied into a readback buffer, submitted and waited for.
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <thread>

#include "nxv/error.hpp"
#include "vulkan/runtime/batch.hpp"
#include "vulkan/runtime/context.hpp"
#include "vulkan/runtime/counters.hpp"
#include "vulkan/runtime/diagnostics.hpp"
#include "vulkan/runtime/external.hpp"
#include "vulkan/runtime/memory.hpp"
#include "vulkan/runtime/pipelines.hpp"
#include "vulkan/runtime/profiler.hpp"
#include "vulkan/runtime/staging.hpp"

namespace nxv::vulkan {
namespace {

// Large enough that a batch's uploads rarely fill it, small enough to be a fixed cost on any GPU.
constexpr std::size_t kStagingBytes = 32 << 20;
constexpr std::size_t kReadbackBytes = 16 << 20;

DeviceBuffer& device_buffer(const BufferPtr& buffer, const char* op) {
  if (buffer == nullptr) detail::fail("vulkan ", op, ": got a null buffer");
  return static_cast<DeviceBuffer&>(*buffer);  // the allocator makes every Buffer
}

// Vulkan-Hpp reports a failed call (device lost, out of memory at submit) as vk::SystemError; callers get an
// nxv::Error naming what the runtime was doing.
template <class F>
decltype(auto) vulkan_call(const char* what, F&& f) {
  try {
    return f();
  } catch (const vk::SystemError& e) {
    detail::fail("vulkan ", what, " failed: ", e.what());
  }
}

class RuntimeImpl final : public Runtime {
 public:
  explicit RuntimeImpl(const RuntimeOptions& options)
      : context_(std::make_shared<Context>()),
        allocator_(std::make_shared<Allocator>(context_, has_unified_memory(*context_) && !options.force_staging,
                                               options.simulated_memory_limit)),
        stored_pipelines_(load_pipeline_cache(*context_)),
        pipelines_(*context_, stored_pipelines_.data),
        stream_(*context_, pipelines_.max_bindings(), pipelines_.push_constant_bytes(), pipelines_.set_layout()) {
    loaded_pipeline_cache_bytes_ = stored_pipelines_.data.size();
    stored_pipelines_.data = {};
  }

  // Keeps the pipelines this process created for the next one (the cold-start cost is pipeline creation).
  ~RuntimeImpl() override {
    try {
      if (!save_pipeline_cache(pipelines_, stored_pipelines_.file))
        std::fprintf(stderr, "nxv: cannot write the pipeline cache %s (NXV_CACHE_DIR); the next start will be cold\n",
                     stored_pipelines_.file.c_str());
    } catch (const std::exception& e) {
      std::fprintf(stderr, "nxv: cannot save the pipeline cache: %s\n", e.what());
    }
  }

  const DeviceFeatures& features() const override { return context_->features; }

  BufferPtr allocate(std::size_t bytes) override {
    if (capture_thread_.load(std::memory_order_relaxed) == std::this_thread::get_id()) {
      std::lock_guard lock(mutex_);
      if (Recording* r = stream_.capture()) {
        if (BufferPtr reused = r->reuse(bytes)) return reused;
        if (auto buffer = allocator_->try_allocate(bytes)) {
          buffer->hazards.capture = r->id;
          r->owned.push_back(buffer);
          return buffer;
        }
      }
    }
    if (auto buffer = allocator_->try_allocate(bytes)) return buffer;
    {
      std::lock_guard lock(mutex_);
      vulkan_call("allocate", [&] { finish_locked(); });  // pending batches may hold buffers already dropped
    }
    allocator_->release_cached();
    if (auto buffer = allocator_->try_allocate(bytes)) return buffer;
    const MemoryStats s = allocator_->stats();
    detail::fail("vulkan: out of device memory allocating ", bytes, " bytes (in use: ", s.bytes_in_use,
                 ", cached: ", s.bytes_cached, ")");
  }

  void upload(const BufferPtr& dst, std::span<const std::byte> src) override {
    DeviceBuffer& b = device_buffer(dst, "upload");
    if (src.size() > b.size())
      detail::fail("vulkan upload: got ", src.size(), " bytes for a buffer of ", b.size(), " bytes");
    if (src.empty()) return;
    vulkan_call("upload", [&] {
      {
        std::lock_guard lock(mutex_);
        stream_.spoil_capture();  // the host bytes are this call's
      }
      if (b.mapped()) {
        {
          std::lock_guard lock(mutex_);
          // Only fresh buffers are uploaded into; should pending work still use this one, wait rather than race.
          if (b.hazards.ref_serial > stream_.completed_serial()) stream_.wait_for(b.hazards.ref_serial);
        }
        std::memcpy(b.mapped(), src.data(), src.size());
      } else {
        std::lock_guard lock(mutex_);
        upload_staged(dst, src);
      }
    });
    count(counter_state().bytes_uploaded, src.size());
  }

  void download(const BufferPtr& src, std::span<std::byte> dst) override {
    DeviceBuffer& b = device_buffer(src, "download");
    if (dst.size() > b.size())
      detail::fail("vulkan download: asked for ", dst.size(), " bytes of a buffer of ", b.size(), " bytes");
    if (dst.empty()) return;
    vulkan_call("download", [&] {
      {
        std::lock_guard lock(mutex_);
        stream_.spoil_capture();  // a download waits for the work before it
      }
      if (b.mapped()) {
        {
          std::lock_guard lock(mutex_);
          if (b.hazards.write_serial > stream_.completed_serial()) stream_.wait_for(b.hazards.write_serial);
        }
        std::memcpy(dst.data(), b.mapped(), dst.size());
      } else {
        std::lock_guard lock(mutex_);
        download_staged(src, dst);
      }
    });
    count(counter_state().bytes_downloaded, dst.size());
  }

  const Pipeline* pipeline(std::string_view shader, std::span<const std::int32_t> specialization) override {
    {
      std::lock_guard lock(mutex_);
      if (const Pipeline* p = pipelines_.find(shader, specialization)) return p;
    }
    // The driver compiles without the lock: dispatches and other threads' pipelines go on meanwhile.
    std::unique_ptr<Pipeline> made = pipelines_.create(shader, specialization);
    std::lock_guard lock(mutex_);
    return pipelines_.insert(std::move(made), specialization);
  }

  void dispatch(const Pipeline* pipeline, std::initializer_list<Binding> bindings, std::span<const std::byte> push,
                std::uint32_t groups_x, std::uint32_t groups_y, std::uint32_t groups_z) override {
    if (pipeline == nullptr) detail::fail("vulkan dispatch: got a null pipeline");
    std::lock_guard lock(mutex_);
    vulkan_call("dispatch", [&] {
      spoil_foreign_capture();
      stream_.dispatch(*pipeline, std::span<const Binding>(bindings.begin(), bindings.size()), push, groups_x, groups_y,
                       groups_z);
    });
  }

  void flush() override {
    std::lock_guard lock(mutex_);
    vulkan_call("flush", [&] { finish_locked(); });
  }

  void with_device(const std::function<void(const Context&)>& f) {
    std::lock_guard lock(mutex_);
    f(*context_);
  }

  std::uint64_t record_external(std::initializer_list<Binding> bindings,
                                const std::function<void(vk::CommandBuffer)>& record) {
    std::lock_guard lock(mutex_);
    return vulkan_call("record_external", [&] {
      spoil_foreign_capture();
      return stream_.external(std::span<const Binding>(bindings.begin(), bindings.size()), record);
    });
  }

  void wait_for_batch(std::uint64_t serial) {
    std::lock_guard lock(mutex_);
    vulkan_call("wait", [&] { stream_.wait_for(serial); });
  }

  bool begin_capture() override {
    std::lock_guard lock(mutex_);
    if (stream_.capture() != nullptr) return false;
    vulkan_call("begin_capture", [&] { stream_.begin_capture(std::make_shared<Recording>(*context_, ++captures_)); });
    capture_thread_.store(std::this_thread::get_id());
    return true;
  }

  bool capturing() override {
    std::lock_guard lock(mutex_);
    return stream_.capture() != nullptr;
  }

  RecordingPtr end_capture() override {
    std::lock_guard lock(mutex_);
    // A capture spoiled by someone else's work may have been followed by another thread's: not ours to end.
    if (capture_thread_.load() != std::this_thread::get_id()) return nullptr;
    capture_thread_.store(std::thread::id());
    return vulkan_call("end_capture", [&] { return stream_.end_capture(); });
  }

  void replay(const RecordingPtr& recording) override {
    if (recording == nullptr || recording->spoiled) detail::fail("vulkan replay: got no complete recording");
    std::lock_guard lock(mutex_);
    vulkan_call("replay", [&] {
      spoil_foreign_capture();
      stream_.execute(recording);
    });
    count(counter_state().replays);
  }

  MemoryStats memory_stats() const { return allocator_->stats(); }
  PipelineCacheInfo pipeline_cache_info() const {
    return {stored_pipelines_.file, loaded_pipeline_cache_bytes_, pipelines_.created()};
  }
  bool maps_device_memory() const { return allocator_->mapped(); }

  // At exit, buffers held by static objects may outlive the runtime; their memory and the device must then never
  // be freed, since that would happen after the driver's own exit handlers. Leaking them is what exit does anyway.
  // The kept reference is held through a global, so that it stays reachable: LeakSanitizer reports an unreachable
  // block, and this one is kept on purpose.
  void keep_device_for_surviving_buffers() {
    flush();
    static std::shared_ptr<Allocator>* kept = nullptr;
    if (allocator_.use_count() > 1 && kept == nullptr) kept = new std::shared_ptr<Allocator>(allocator_);
  }

  void release_cached() {
    flush();  // so that buffers dropped while their work was pending are cached, and freed, too
    allocator_->release_cached();
  }

 private:
  // Work from a thread other than the capturing one must not end up in its recording.
  void spoil_foreign_capture() {
    if (stream_.capture() != nullptr && capture_thread_.load() != std::this_thread::get_id()) {
      stream_.spoil_capture();
      capture_thread_.store(std::thread::id());
    }
  }

  void finish_locked() {
    stream_.finish();
    if (staging_) staging_->release(stream_.completed_serial());
  }

  // Through the staging ring in pieces of at most its capacity; waits only when the ring is full.
  void upload_staged(const BufferPtr& dst, std::span<const std::byte> src) {
    if (!staging_) staging_ = std::make_unique<StagingRing>(*allocator_, kStagingBytes);
    for (std::size_t done = 0; done < src.size();) {
      const std::size_t n = std::min(src.size() - done, staging_->capacity());
      staging_->release(stream_.completed_serial());
      auto region = staging_->reserve(n, stream_.recording_serial());
      if (!region) {
        finish_locked();
        region = staging_->reserve(n, stream_.recording_serial());
        if (!region) detail::fail("vulkan upload: the staging ring cannot hold ", n, " bytes after waiting");
      }
      std::memcpy(region->data, src.data() + done, n);
      stream_.copy_in(region->buffer, region->offset, dst, done, n);
      done += n;
    }
  }

  // Each piece is recorded after the pending work (the batch orders it), submitted and waited for.
  void download_staged(const BufferPtr& src, std::span<std::byte> dst) {
    if (!readback_) readback_ = allocator_->allocate_host_block(kReadbackBytes, true);
    for (std::size_t done = 0; done < dst.size();) {
      const std::size_t n = std::min(dst.size() - done, kReadbackBytes);
      stream_.copy_out(src, done, *readback_->buffer, n);
      finish_locked();
      std::memcpy(dst.data() + done, readback_->mapped, n);
      done += n;
    }
  }

  // Declaration order is destruction order reversed: the stream waits for in-flight work before the pipelines,
  // transfer buffers and allocator go.
  std::shared_ptr<Context> context_;
  std::shared_ptr<Allocator> allocator_;  // buffers share it, so it outlives the runtime if they do
  std::unique_ptr<StagingRing> staging_;
  std::unique_ptr<Block> readback_;
  StoredPipelineCache stored_pipelines_;  // the on-disk file (its data only until pipelines_ has taken it)
  std::size_t loaded_pipeline_cache_bytes_ = 0;
  PipelineCache pipelines_;
  CommandStream stream_;
  std::mutex mutex_;                               // one lock around pipelines, recording and submission
  std::atomic<std::thread::id> capture_thread_{};  // the capturing thread, while a capture runs
  std::uint64_t captures_ = 0;
};

std::unique_ptr<RuntimeImpl> create_runtime(const RuntimeOptions& options) {
  try {
    return std::make_unique<RuntimeImpl>(options);
  } catch (const vk::SystemError& e) {
    detail::fail("vulkan: cannot start the runtime: ", e.what());
  }
}

// The default runtime: created on first use, shut down by an exit handler. The handler is registered after the
// device exists, so it runs before the exit handlers the driver registered while creating it (they run in
// reverse order); destroying the device after those crashed the NVIDIA driver (580) at exit.
std::mutex g_create_mutex;
std::atomic<RuntimeImpl*> g_runtime{nullptr};
std::unique_ptr<RuntimeImpl>& default_runtime() {
  static auto* holder = new std::unique_ptr<RuntimeImpl>;  // outlives static destructors, which may still use it
  return *holder;
}

// NXV_PROFILE=1: the GPU time per shader, longest first, on stderr.
void print_kernel_profile() {
  const auto rows = kernel_profile();
  if (rows.empty()) return;
  double total = 0;
  for (const auto& r : rows) total += r.gpu_ms;
  std::fprintf(stderr, "nxv profile (NXV_PROFILE=1): GPU time per shader, %.3f ms in all\n", total);
  std::fprintf(stderr, "  %-28s %10s %12s %8s %12s\n", "shader", "dispatches", "GPU ms", "share", "us/dispatch");
  for (const auto& r : rows)
    std::fprintf(stderr, "  %-28s %10llu %12.3f %7.1f%% %12.2f\n", r.shader.c_str(),
                 static_cast<unsigned long long>(r.dispatches), r.gpu_ms, 100.0 * r.gpu_ms / total,
                 1000.0 * r.gpu_ms / static_cast<double>(r.dispatches));
}

std::atomic<bool> g_shut_down{false};

// The runtime is marked dead only once it is gone: recordings released by its final flush (a replay's last
// reference held by a batch) or by its destruction (an unfinished capture) still free their command pools, as the
// device is alive until then. Only those that outlive it, in static objects, are leaked (Recording::~Recording).
void shut_down_default_runtime() {
  std::lock_guard lock(g_create_mutex);
  g_runtime.store(nullptr);
  if (auto& r = default_runtime()) {
    try {
      r->keep_device_for_surviving_buffers();
    } catch (const std::exception& e) {
      std::fprintf(stderr, "nxv: vulkan work failed at exit: %s\n", e.what());
    }
    r.reset();
  }
  g_shut_down.store(true);
  if (profiling_requested()) print_kernel_profile();
}

}  // namespace

bool runtime_alive() { return !g_shut_down.load(); }

RecordingStats stats(const Recording& r) {
  RecordingStats s{.dispatches = r.dispatches,
                   .barriers = r.barriers,
                   .buffers = r.owned.size(),
                   .allocations = r.allocations,
                   .requested_bytes = r.requested_bytes};
  for (const auto& b : r.owned) s.bytes += b->size();
  return s;
}

Runtime& runtime() {
  if (RuntimeImpl* r = g_runtime.load(std::memory_order_acquire)) return *r;
  std::lock_guard lock(g_create_mutex);
  auto& r = default_runtime();
  if (!r) {
    r = create_runtime(RuntimeOptions{});
    std::atexit(shut_down_default_runtime);
    g_runtime.store(r.get(), std::memory_order_release);
  }
  return *r;
}

bool available() {
  static std::atomic<bool> failed{false};
  if (g_runtime.load(std::memory_order_acquire) != nullptr) return true;
  if (failed.load()) return false;
  try {
    runtime();
    return true;
  } catch (const std::exception&) {
    failed.store(true);
    return false;
  }
}

void flush() {
  if (RuntimeImpl* r = g_runtime.load(std::memory_order_acquire)) r->flush();
}

void with_device(const std::function<void(const Context&)>& f) { static_cast<RuntimeImpl&>(runtime()).with_device(f); }

std::uint64_t record_external(std::initializer_list<Binding> bindings,
                              const std::function<void(vk::CommandBuffer)>& record) {
  return static_cast<RuntimeImpl&>(runtime()).record_external(bindings, record);
}

void wait_for_batch(std::uint64_t serial) { static_cast<RuntimeImpl&>(runtime()).wait_for_batch(serial); }

vk::DescriptorBufferInfo buffer_info(const BufferPtr& buffer) {
  const DeviceBuffer& b = device_buffer(buffer, "buffer_info");
  return vk::DescriptorBufferInfo{.buffer = b.handle(), .offset = b.offset(), .range = b.range()};
}

Counters counters() {
  const AtomicCounters& c = counter_state();
  return Counters{.dispatches = c.dispatches.load(),
                  .submits = c.submits.load(),
                  .fence_waits = c.fence_waits.load(),
                  .barriers = c.barriers.load(),
                  .bytes_uploaded = c.bytes_uploaded.load(),
                  .bytes_downloaded = c.bytes_downloaded.load(),
                  .pipelines_created = c.pipelines_created.load(),
                  .replays = c.replays.load()};
}

MemoryStats memory_stats() {
  RuntimeImpl* r = g_runtime.load(std::memory_order_acquire);
  return r ? r->memory_stats() : MemoryStats{};
}

void release_cached_memory() {
  if (RuntimeImpl* r = g_runtime.load(std::memory_order_acquire)) r->release_cached();
}

std::unique_ptr<Runtime> make_runtime(const RuntimeOptions& options) { return create_runtime(options); }

MemoryStats memory_stats(const Runtime& runtime) { return static_cast<const RuntimeImpl&>(runtime).memory_stats(); }

bool maps_device_memory(const Runtime& runtime) {
  return static_cast<const RuntimeImpl&>(runtime).maps_device_memory();
}

void release_cached_memory(Runtime& runtime) { static_cast<RuntimeImpl&>(runtime).release_cached(); }

PipelineCacheInfo pipeline_cache_info(const Runtime& runtime) {
  return static_cast<const RuntimeImpl&>(runtime).pipeline_cache_info();
}

}  // namespace nxv::vulkan
