#pragma once
// A daemon run as its row in the state database and as the API shows it
// (GET /v1/runs/{id}): its run actor keeps it current while the run is live,
// the state writer stores it, and a finished run is read back from there.
#include <cstdint>
#include <string>

#include <caf/meta/type_name.hpp>

#include "messages/run_state.hpp"

namespace ij {

struct run_row {
  std::string id;
  std::string name;
  run_state state = run_state::open;
  /// The configuration as the client sent it (JSON text).
  std::string config_json;
  std::int64_t created_ms = 0;
  std::int64_t finished_ms = 0;
  /// Input lines received (pairs and rejected, blank lines included) and
  /// pairs accepted among them.
  std::uint64_t lines = 0;
  std::uint64_t accepted = 0;
  /// The input is complete (POST /close).
  bool closed = false;
  /// The counts object (JSON text, daemon/run_counts) as last saved.
  std::string counts_json = "{}";
  std::string error;
  /// SHA-256 of the audit's last line once the run has ended (what `audit
  /// verify` prints as its final hash); empty before.
  std::string final_hash;
};

inline bool operator==(const run_row& x, const run_row& y) {
  return x.id == y.id && x.name == y.name && x.state == y.state
         && x.config_json == y.config_json && x.created_ms == y.created_ms
         && x.finished_ms == y.finished_ms && x.lines == y.lines
         && x.accepted == y.accepted && x.closed == y.closed
         && x.counts_json == y.counts_json && x.error == y.error
         && x.final_hash == y.final_hash;
}

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, run_row& x) {
  return f(caf::meta::type_name("ij.run_row"), x.id, x.name, x.state,
           x.config_json, x.created_ms, x.finished_ms, x.lines, x.accepted,
           x.closed, x.counts_json, x.error, x.final_hash);
}

/// A run's end for the state writer, sent after its verdict lines: `final`
/// (its end: the row is saved, a "done" run whose lines could not be stored
/// becomes "failed"), or not (SIGTERM: its lines are stored, it stays
/// unfinished and resumes at the next start).
struct run_end_record {
  run_row row;
  bool final = true;
};

inline bool operator==(const run_end_record& x, const run_end_record& y) {
  return x.row == y.row && x.final == y.final;
}

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, run_end_record& x) {
  return f(caf::meta::type_name("ij.run_end_record"), x.row, x.final);
}

} // namespace ij
