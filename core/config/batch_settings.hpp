#pragma once
// A judge's "batch" settings (issue 17): its votes go through the provider's
// batch API (adapters/batch_judge) at the batch price. Pure data; the
// configuration reads, checks and writes them (core/config/run_config).
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace ij {

struct batch_settings {
  bool enabled = false;
  /// A batch goes when this many calls wait (at most the API's limit:
  /// Anthropic 100,000, OpenAI 50,000 requests per batch)...
  std::uint32_t max_requests = 1000;
  /// ...or when the oldest has waited this long.
  std::chrono::milliseconds max_wait{60000};
  /// How often an open batch is polled.
  std::chrono::milliseconds poll{30000};
  /// A vote the batch did not answer (errored, expired, cancelled, or the
  /// batch rejected whole): "sync" asks it again synchronously, "fault"
  /// records a fault of its kind.
  std::string on_failure = "sync";
  /// A batched vote's deadline; unset: the providers' window (24 h).
  std::optional<std::chrono::milliseconds> deadline;
};

/// The providers' completion window: a batched vote's deadline by default.
constexpr std::chrono::milliseconds batch_window{24LL * 3600 * 1000};

/// The calls a batched judge takes at once: two full batches (one in flight
/// while the next fills); 0 when not batched.
constexpr std::uint32_t batch_calls_at_once(const batch_settings& b) {
  return b.enabled ? 2 * b.max_requests : 0u;
}

inline bool operator==(const batch_settings& x, const batch_settings& y) {
  return x.enabled == y.enabled && x.max_requests == y.max_requests
         && x.max_wait == y.max_wait && x.poll == y.poll
         && x.on_failure == y.on_failure && x.deadline == y.deadline;
}

} // namespace ij
