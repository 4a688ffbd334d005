#pragma once
// The one configuration model of a run: what the driver reads from
// --config, what the daemon takes in a request body, what the run session is
// spawned with, and what the run manifest records (to_json, the one writer).
// JSON is validated against configs/schema.json, read through one table of
// fields (run_config_fields(), which the writer follows too), then checked
// for meaning by validate(), before anything is spawned.
// Every error names the source and the JSON pointer of the offending value.
// Pure: no file is read here (tools/config_file.hpp reads files).
#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <caf/error.hpp>
#include <caf/expected.hpp>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include "core/agreement/panel_rule.hpp"
#include "core/calibration/calibration.hpp"
#include "core/canaries/canary_plan.hpp"
#include "core/config/config_fields.hpp"
#include "core/config/judge_spec.hpp"
#include "core/guard/pair_guard.hpp"
#include "core/voting/vote_tally.hpp"
#include "messages/error.hpp"
#include "messages/verdict.hpp"

namespace ij {

/// When the audit file reaches the disk.
enum class flush_policy {
  /// Every record reaches the kernel at once; fsync before each verdict is
  /// released and at run end (the safe default: a released verdict
  /// survives a crash).
  fsync_verdicts,
  /// fsync after every record (slowest, strongest).
  fsync_each,
  /// fsync only at run end.
  flush_each,
};

/// The one spelling, in configuration and manifest alike:
/// "fsync-verdicts", "fsync-each", "flush-each".
std::string_view to_string(flush_policy p);

/// Reads that spelling back; nullopt for anything else.
std::optional<flush_policy> flush_policy_from_string(std::string_view s);

/// The response cache (opt-in, adapters/response_cache.hpp): a judge
/// record is reused when its whole key matches; faults are never stored.
struct cache_config {
  /// The SQLite file; empty: no cache.
  std::string path;
  /// Entries older than this are not reused (0: they never expire).
  std::chrono::seconds ttl{0};
  /// The oldest entries go once the stored replies exceed this (0: no
  /// limit).
  std::uint64_t max_bytes = 0;
};

/// Judge hosts (SPEC §10, "Distribution"): where a coordinator finds them and
/// how both ends talk. `invjudge host` reads the TLS files and timings too.
struct host_connection {
  /// Mutual TLS: all three or none. The key file's path only; the key
  /// itself is read by OpenSSL and never copied anywhere.
  std::string tls_cert;
  std::string tls_key;
  std::string tls_ca;
  /// With hosts: also start local workers for the configured judges (by
  /// default the hosts serve them alone).
  bool local_judges = false;
  /// Pings (and middleman heartbeats) go out this often...
  std::chrono::milliseconds heartbeat{1000};
  /// ...and a host that answers none for this long is lost: a hung host is
  /// detected within lost_after + heartbeat.
  std::chrono::milliseconds lost_after{5000};
  /// The middleman drops a connection that is silent for this long (a dead
  /// network), within connection_timeout + heartbeat.
  std::chrono::milliseconds connection_timeout{30000};
  /// One connection attempt (connect, hello, list) at most.
  std::chrono::milliseconds connect_timeout{5000};
  /// Reconnection attempts back off exponentially up to this wait.
  std::chrono::milliseconds retry_max{30000};
  /// A host's worker queues at most this many votes beyond its capacity for
  /// a coordinator across a network, sized to the round trip (issue 31;
  /// core/voting/queue_depth.hpp). 0: no queue (every slot waits a round trip).
  std::uint32_t queue_max = 64;

  bool tls() const { return !tls_cert.empty(); }
};

/// Two or more judges each judge every pair with their own votes; the
/// pair's outcome follows `rule` over their outcomes
/// (core/agreement/panel_rule.hpp). Configured as "panels".
struct panel_config {
  /// Judge names, each one of the run's judges; at least two, all different
  /// judges (judge ids).
  std::vector<std::string> judges;
  panel_rule rule = panel_rule::unanimous;
};

/// The rules-first cascade (core/agreement/cascade_policy.hpp).
struct cascade_config {
  /// The rule judge's name (one of the run's judges); it casts one vote.
  std::string rules;
  /// The LLM judge's name (one of the run's judges); the run's votes.
  std::string llm;
  /// Share of rule-decided pairs also sent to the LLM judge, in [0, 1].
  double audit_rate = 0.0;
  /// Fixes which pairs are audited.
  std::uint64_t seed = 0;
};

struct run_config {
  /// Where the values came from: a file path, or "(embedded default)".
  std::string source;
  std::vector<judge_spec> judges;
  vote_config votes;
  bool abstain_as_neither = true;
  bool order_balancing = false;
  std::chrono::milliseconds vote_deadline{120000};
  /// How long a vote whose worker left waits for another worker of its
  /// judge before it is a fault (I2).
  std::chrono::milliseconds failover_wait{30000};
  /// Judge hosts to vote with ("ADDR:PORT"), and how to talk to them.
  std::vector<std::string> hosts;
  host_connection connection;
  /// The largest share of judged pairs with verdict I2 (fault) a run may
  /// have (core/budgets/fault_budget.hpp); above it the run fails (exit 4).
  double max_fault_rate = 0.5;
  statistical_params stats;
  /// Live canaries and the bias alarm (core/canaries/canary_plan.hpp); rate 0:
  /// none.
  canary_settings canaries;
  /// Empty: a fresh `invjudge-audit-<UTC timestamp>.jsonl` in the current
  /// directory.
  std::string audit_path;
  flush_policy flush = flush_policy::fsync_verdicts;
  cache_config cache;
  /// A panel of judges instead of pooled votes; excludes `cascade`.
  std::optional<panel_config> panel;
  /// A rules-first cascade instead of pooled votes; excludes `panel`.
  std::optional<cascade_config> cascade;
  /// The calibration map file (issue 16; `invjudge calibrate`); empty: none.
  /// Pooled votes only (not with a panel or cascade).
  std::string calibration;
  /// The map's SHA-256: declared (a resumed run's manifest), or that of the
  /// map loaded. A loaded map with another SHA is refused.
  std::string calibration_sha256;
  /// The maps, once tools/calibration_file has read `calibration` (core
  /// reads no file); null until then.
  std::shared_ptr<const calibration_set> calibration_maps;
  /// "stop": {"probability": P}: a pair's voting stops once the calibrated
  /// probability of its leading decision reaches P (needs `calibration`).
  std::optional<double> stop_probability;
  /// How the rule judges read answers (core/numbers/answer_policy.hpp); copied
  /// into every rule judge's spec, whose id it is part of.
  answer_policy policy;
  /// What a pair whose answer carries the judge's own reply format or
  /// prompt layout gets from a model judge (core/guard/pair_guard.hpp): ABSTAIN
  /// without a call, or a call whose EQUIVALENT is not taken.
  planted_action on_planted = planted_action::abstain;
};

/// The spec of the judge named `name` in `cfg`; nullptr when none is.
const judge_spec* find_judge(const run_config& cfg, const std::string& name);

/// The source name of the built-in configuration.
inline constexpr std::string_view embedded_source = "(embedded default)";

/// The embedded default (configs/default.json as compiled in).
run_config default_config();

/// Parses JSON text laid over the embedded default; `source` names it in
/// errors. On failure errc::bad_config whose context is
/// "<source>: <pointer>: <what is wrong>".
caf::expected<run_config> parse_config(std::string_view json,
                                       const std::string& source);

/// A configuration problem: errc::bad_config "<source>: <pointer>: <what>"
/// (no source for a configuration built in code without one).
caf::error config_error(const std::string& source, const std::string& pointer,
                        const std::string& what);

/// What every run configuration must satisfy, however it was made (read by
/// parse_config, taken by the daemon, built in code for spawn_run): judges,
/// the vote rule, hosts, statistical and canary parameters, panel or
/// cascade naming configured judges, calibration and budgets. errc::bad_config
/// whose context is "<source>: <pointer>: <what is wrong>". Its checks live
/// in core/config/run_config_checks.
caf::error validate(const run_config& cfg);

/// Every judge's kind is one of core/config/backend_kinds' table (its model is
/// the adapter factory's to check): "<source>: /judges/N/type: unknown
/// judge type 'x' (expected stub, ...)". Read by parse_config (the schema
/// leaves "type" a string, since the table can gain kinds at run time);
/// validate() leaves it out, as a configuration built in code may carry
/// judges whose adapters were built without the table (tests).
caf::error validate_judge_kinds(const run_config& cfg);

/// Replaces the judges with the one a short name gives (--judge). Refused
/// (errc::bad_config) when the configuration has a panel or a cascade (they
/// name its judges).
caf::error override_judge(run_config& cfg, const std::string& name);

/// Writes the effective configuration as one JSON object (the value after a
/// Key(), or a whole document): the one writer of the configuration.
void write_run_config(rapidjson::Writer<rapidjson::StringBuffer>& w,
                      const run_config& cfg);

/// The fields of the run configuration and of one judge object: the one
/// list the reader and the writer follow (checked against
/// configs/schema.json by a test).
const config::table<run_config>& run_config_fields();
const config::table<judge_spec>& judge_config_fields();

/// The effective configuration as canonical JSON (recorded in the run
/// manifest). Holds key variable names, never keys.
std::string to_json(const run_config& cfg);

} // namespace ij
