#pragma once
// A run's counts, named and defined once: GET /v1/runs/{id} ("counts"),
// the state database (the same JSON, saved as verdicts are stored) and
// /metrics (invjudge_run_counts{count}, summed over the runs) all come from
// this table. A count is one line of it: its name, what it means (README
// "Running the daemon" lists the same words) and where it comes from in the
// run's totals.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include "messages/run_figures.hpp"
#include "messages/run_summary.hpp"
#include "messages/verdict.hpp"

namespace ij {

/// What a run's counts are computed from: its uploads, and its totals —
/// added up as verdicts come, replaced by the session's run_summary (the
/// run-end record's, which for a resumed run covers the whole audit) once
/// it has ended.
struct run_totals {
  std::uint64_t accepted = 0; // pairs accepted by the uploads
  std::uint64_t rejected = 0; // input lines the uploads rejected
  run_summary summary;

  /// One released pair verdict (live totals).
  void add(const single_verdict& v);
};

struct run_count {
  /// The key in the counts object; with a group, the key inside it.
  const char* name;
  /// A nested object ("by_rule"), or nullptr.
  const char* group;
  const char* help;
  std::uint64_t (*of)(const run_totals&);
};

/// Every count, in the order the JSON object has them.
const std::vector<run_count>& run_count_table();

using json_writer = rapidjson::Writer<rapidjson::StringBuffer>;

/// The counts object.
void write_counts(json_writer& w, const run_totals& t);
std::string counts_json(const run_totals& t);

/// Adds a counts object (as saved) into `sums`, keyed "name" or
/// "group.name"; fields it lacks add nothing.
void add_counts(const std::string& counts_json,
                std::map<std::string, std::uint64_t>& sums);

/// A finished run into (`add`) or out of (a removed run) the finished
/// runs' sums: its state counted once, its counts added or taken away.
void fold_finished(run_state state, const std::string& counts_json,
                   run_figures& sums, bool add);

/// The /metrics lines of those sums (every count, 0 when no run has it).
std::string counts_metrics(const std::map<std::string, std::uint64_t>& sums);

} // namespace ij
