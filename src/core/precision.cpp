// The process default and the per-thread scopes of nxv::Precision (include/nxv/precision.hpp).
#include "nxv/precision.hpp"

#include <atomic>

#include "core/settings.hpp"

namespace nxv {
namespace {

// -1 until the first read, which takes NXV_PRECISION (a malformed value is settings' nxv::Error then).
std::atomic<int> process_default{-1};
thread_local std::optional<Precision> scoped;

}  // namespace

const char* to_string(Precision precision) { return precision == Precision::exact ? "exact" : "fast"; }

std::optional<Precision> parse_precision(std::string_view name) {
  if (name == "exact") return Precision::exact;
  if (name == "fast") return Precision::fast;
  return std::nullopt;
}

Precision default_precision() {
  int p = process_default.load(std::memory_order_relaxed);
  if (p < 0) {
    // settings::value checks the value against settings.def's list, so the parse cannot fail.
    p = static_cast<int>(parse_precision(settings::value(settings::Id::PRECISION)).value_or(Precision::fast));
    int unset = -1;
    if (!process_default.compare_exchange_strong(unset, p, std::memory_order_relaxed)) p = unset;
  }
  return static_cast<Precision>(p);
}

void set_default_precision(Precision precision) {
  process_default.store(static_cast<int>(precision), std::memory_order_relaxed);
}

Precision current_precision() { return scoped.value_or(default_precision()); }

PrecisionScope::PrecisionScope(Precision precision) : previous_(scoped) { scoped = precision; }
PrecisionScope::~PrecisionScope() { scoped = previous_; }

}  // namespace nxv
