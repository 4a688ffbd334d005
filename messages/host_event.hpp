#pragma once
// What happened to a judge host, as its connector saw it: connected, lost,
// cooled down (a reconnection is tried), rejoined, or refused (incompatible).
// The judge directory relays these to its subscribers; each run's vote
// coordinator hands them to its session, which writes them to the audit.
#include <cstdint>
#include <string>
#include <vector>

#include <caf/meta/type_name.hpp>

namespace ij {

enum class host_event_kind : std::uint8_t {
  connected,
  lost,
  cooled_down,
  rejoined,
  refused,
};

/// "connected", "lost", "cooled_down", "rejoined", "refused".
inline const char* to_string(host_event_kind k) {
  switch (k) {
    case host_event_kind::connected: return "connected";
    case host_event_kind::lost: return "lost";
    case host_event_kind::cooled_down: return "cooled_down";
    case host_event_kind::rejoined: return "rejoined";
    case host_event_kind::refused: return "refused";
  }
  return "unknown";
}

struct host_event {
  /// The host as the coordinator names it ("ADDR:PORT").
  std::string host;
  host_event_kind kind = host_event_kind::connected;
  /// Why, in plain words (the error, the field that differs, the backoff).
  std::string detail;
  /// The workers the host serves (connected, rejoined) or served (lost).
  std::vector<std::string> workers;
  /// Wall-clock time, milliseconds since the Unix epoch.
  std::int64_t at_ms = 0;
};

inline bool operator==(const host_event& x, const host_event& y) {
  return x.host == y.host && x.kind == y.kind && x.detail == y.detail
         && x.workers == y.workers && x.at_ms == y.at_ms;
}

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, host_event& x) {
  return f(caf::meta::type_name("ij.host_event"), x.host, x.kind, x.detail,
           x.workers, x.at_ms);
}

} // namespace ij
