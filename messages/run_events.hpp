#pragma once
// What a run session tells its client besides verdicts: that the run started
// (its manifest is written), how it progresses, and the load of each worker.
#include <cstdint>
#include <string>
#include <vector>

#include <caf/meta/type_name.hpp>

#include "messages/judge_info.hpp"

namespace ij {

/// The manifest is on disk: judging has begun.
struct run_started {
  std::string run_id;
  std::string audit_path;
  /// The workers the run votes with, as the manifest describes them.
  std::vector<judge_info> judges;
  /// Valid but wasteful settings, also recorded in the manifest.
  std::vector<std::string> warnings;
};

inline bool operator==(const run_started& x, const run_started& y) {
  return x.run_id == y.run_id && x.audit_path == y.audit_path
         && x.judges == y.judges && x.warnings == y.warnings;
}

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, run_started& x) {
  return f(caf::meta::type_name("ij.run_started"), x.run_id, x.audit_path,
           x.judges, x.warnings);
}

/// One worker as a run sees it.
struct worker_load {
  std::string worker_id;
  std::string name;
  /// The capacity the worker grants now, and the one configured.
  std::uint32_t capacity = 0;
  std::uint32_t configured = 0;
  /// This run's calls at the worker now.
  std::uint32_t in_flight = 0;
  bool connected = true;
  /// Where the worker runs ("local", a judge host's ADDR:PORT), and this
  /// run's calls it answered and how many of those were faults.
  std::string host;
  std::uint64_t served = 0;
  std::uint64_t faults = 0;
};

inline bool operator==(const worker_load& x, const worker_load& y) {
  return x.worker_id == y.worker_id && x.name == y.name
         && x.capacity == y.capacity && x.configured == y.configured
         && x.in_flight == y.in_flight && x.connected == y.connected
         && x.host == y.host && x.served == y.served && x.faults == y.faults;
}

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, worker_load& x) {
  return f(caf::meta::type_name("ij.worker_load"), x.worker_id, x.name,
           x.capacity, x.configured, x.in_flight, x.connected, x.host, x.served,
           x.faults);
}

/// A snapshot of a run, sent to the listener at the progress interval and
/// given on request.
struct run_progress {
  std::string run_id;
  /// "starting", "running", "finishing" or "ended".
  std::string state;
  std::uint64_t admitted = 0; // pairs taken in
  std::uint64_t released = 0; // pair verdicts written and released
  std::uint64_t faults = 0;   // pairs with verdict I2
  std::uint64_t judge_calls = 0;
  std::vector<worker_load> workers;
};

inline bool operator==(const run_progress& x, const run_progress& y) {
  return x.run_id == y.run_id && x.state == y.state && x.admitted == y.admitted
         && x.released == y.released && x.faults == y.faults
         && x.judge_calls == y.judge_calls && x.workers == y.workers;
}

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, run_progress& x) {
  return f(caf::meta::type_name("ij.run_progress"), x.run_id, x.state,
           x.admitted, x.released, x.faults, x.judge_calls, x.workers);
}

} // namespace ij
