#pragma once
// A daemon run's state (run_row::state). The texts are what the state
// database, the API (GET /v1/runs/{id}, X-Run-State), /metrics and OpenAPI
// show: to_string and run_state_from_string are the only places they are
// spelled.
#include <cstdint>
#include <optional>
#include <string_view>

#include "messages/enum_text.hpp"

namespace ij {

enum class run_state : std::uint8_t {
  /// Created; its input is still open.
  open,
  /// Its input is closed; verdicts are still due.
  running,
  /// Every pair has its verdict and every line is stored.
  done,
  /// Cancelled by a client.
  cancelled,
  /// Ended by an error (the run's `error` says which).
  failed,
};

constexpr std::string_view to_string(run_state s) {
  switch (s) {
    case run_state::open: return "open";
    case run_state::running: return "running";
    case run_state::done: return "done";
    case run_state::cancelled: return "cancelled";
    case run_state::failed: return "failed";
  }
  return "failed";
}

/// Every state, in declaration order (for /metrics).
inline constexpr run_state all_run_states[] = {
  run_state::open,      run_state::running, run_state::done,
  run_state::cancelled, run_state::failed,
};

/// Reads a text written by to_string back; nullopt for anything else (the
/// caller names the bad text and where it was read).
inline std::optional<run_state> run_state_from_string(std::string_view s) {
  return enum_from_text(all_run_states, s);
}

/// A state a run never leaves: done, cancelled or failed.
constexpr bool final_state(run_state s) {
  return s == run_state::done || s == run_state::cancelled
         || s == run_state::failed;
}

} // namespace ij
