#pragma once
// `invjudge run`: streams pairs through a run session with a bounded window of
// pairs in flight, writes verdict lines as they arrive, and ends the run
// (cleanly, also on Ctrl-C) with a summary.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ij {

struct run_options {
  /// JSON Lines of pairs; "-" reads standard input.
  std::string pairs_path;
  /// Empty: the embedded default (configs/default.json).
  std::string config_path;
  /// Replaces the configured judges when given (a short judge name); given
  /// but empty is an error, not "not given".
  std::optional<std::string> judge;
  /// Empty: standard output.
  std::string out_path;
  /// Replace an existing --out file that has content (otherwise refused).
  bool force = false;
  /// Empty: the configuration's audit.path, else a fresh
  /// invjudge-audit-<UTC timestamp>.jsonl in the current directory.
  std::string audit_path;
  /// Validate the whole file first; any bad line stops the run before any
  /// judge call (exit 2).
  bool strict = false;
  /// Show the progress line (only ever when stderr is a terminal).
  bool progress = true;
  /// Pairs in flight at most; 0 picks one from the judges' in-flight caps.
  std::uint32_t window = 0;
  /// Continue the run of this audit (its manifest's configuration; pairs it
  /// decided are not judged again; appended to its chain). Empty: a new run.
  std::string resume_path;
  /// The response cache file (SQLite); overrides the configuration's
  /// cache.path. Empty: the configuration's, if any.
  std::string cache_path;
  /// Judge hosts (ADDR:PORT) to vote with, added to the configured ones.
  std::vector<std::string> hosts;
  /// Mutual TLS with the hosts (all three or none); they override the
  /// configuration's host_connection files.
  std::string tls_cert;
  std::string tls_key;
  std::string tls_ca;
};

/// Runs and returns the exit code (tools/exit_codes.hpp).
int run_command(const run_options& opts);

} // namespace ij
