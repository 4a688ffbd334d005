#pragma once
// What /metrics says about the daemon's runs, from its run registry in one
// answer: runs by state and their counts summed (daemon/run_counts; live
// runs as their actors last told, finished ones as saved), the followers
// waiting for verdicts, the finished runs the retention removed since the
// start, and the actors alive in the process (a finished run's have ended).
#include <cstdint>
#include <map>
#include <string>

#include <caf/meta/type_name.hpp>

#include "messages/run_state.hpp"

namespace ij {

struct run_figures {
  std::map<run_state, std::uint64_t> runs_by_state;
  std::map<std::string, std::uint64_t> count_sums;
  std::uint64_t followers_waiting = 0;
  std::uint64_t runs_removed = 0;
  std::uint64_t actors_running = 0;
};

inline bool operator==(const run_figures& x, const run_figures& y) {
  return x.runs_by_state == y.runs_by_state && x.count_sums == y.count_sums
         && x.followers_waiting == y.followers_waiting
         && x.runs_removed == y.runs_removed
         && x.actors_running == y.actors_running;
}

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, run_figures& x) {
  return f(caf::meta::type_name("ij.run_figures"), x.runs_by_state,
           x.count_sums, x.followers_waiting, x.runs_removed, x.actors_running);
}

/// A finished run the retention removed: what the sums lose with it.
struct removed_run {
  std::string id;
  run_state state = run_state::done;
  std::string counts_json;
};

inline bool operator==(const removed_run& x, const removed_run& y) {
  return x.id == y.id && x.state == y.state && x.counts_json == y.counts_json;
}

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, removed_run& x) {
  return f(caf::meta::type_name("ij.removed_run"), x.id, x.state,
           x.counts_json);
}

} // namespace ij
