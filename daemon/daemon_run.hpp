#pragma once
// One run of the daemon: its pairs file and audit under DIR/runs/<id>/, its
// row in the state database, and its actor (daemon/run_actor), which drives
// its run session. The upload side lives here, on the HTTP threads: one
// upload at a time per run (the pairs file's one writer) reads the lines,
// appends them (rejected ones as bounded records, daemon/pair_intake),
// fsyncs the file and only then hands them to the run actor and
// acknowledges them, so an acknowledged pair survives a crash. On a restart
// the run resumes from its audit (core/audit_resume) and its actor reads the
// pairs file back from the start: pairs already decided are not judged
// again.
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <caf/error.hpp>
#include <caf/expected.hpp>

#include "core/run_config.hpp"
#include "daemon/pair_intake.hpp"
#include "daemon/run_actor.hpp"
#include "daemon/state_store.hpp"

namespace ij {

class daemon_run {
public:
  /// A new run: its folder, empty pairs file and audit are created, its row
  /// inserted, and its actor started. Fails with io_failed or audit_failed.
  static caf::expected<std::shared_ptr<daemon_run>>
  create(daemon_context& ctx, run_row row, run_config config);
  /// A run found unfinished at start: resumed from its audit. Fails with
  /// bad_config (its stored configuration or map), io_failed or
  /// audit_failed.
  static caf::expected<std::shared_ptr<daemon_run>>
  restart(daemon_context& ctx, run_row row);
  ~daemon_run();
  daemon_run(const daemon_run&) = delete;
  daemon_run& operator=(const daemon_run&) = delete;

  struct upload_result {
    std::uint64_t accepted = 0;
    std::vector<std::pair<std::uint64_t, std::string>> rejected;
  };
  /// Appends JSON Lines of pairs (made durable before it returns). Fails
  /// with run_ended or run_state when the run takes no more input (ended or
  /// closed), io_failed when the pairs file cannot be written.
  caf::expected<upload_result> upload(std::string_view body);

  /// The lines of an upload not yet handed to the run: bytes [from, to) of
  /// the pairs file, after line `line`.
  struct handoff {
    input_batch batch;
    std::uint64_t from = 0, to = 0, line = 0;
  };
  /// The same in pieces as they arrive (a streamed request body): memory
  /// holds the current line only (of a line over the limit, its first
  /// bytes). One upload at a time per run (a second waits); close waits for
  /// it too. end_upload(complete = false) for a body cut off: the complete
  /// lines it brought stay, its partial line does not.
  struct upload_state {
    std::string tail;       // the current line, not yet written
    bool oversized = false; // the current line is over the limit
    std::string prefix;     // its first bytes (for its record)
    upload_result result;
    bool failed = false;
    std::vector<handoff> pending;
    std::uint64_t unsynced = 0; // bytes written since the last fsync
    std::uint64_t sync_at = 0;  // the next handoff's size (0: the first's)
  };
  /// Fails as upload() does when the run takes no more input.
  caf::error begin_upload();
  void upload_piece(std::string_view data, upload_state& st);
  /// Fails with io_failed when the pairs file could not be written.
  caf::error end_upload(upload_state& st, bool complete);
  /// The input is complete. Fails with run_ended, or io_failed when the
  /// state database cannot save it.
  caf::error close();
  /// DELETE: no more calls; the audit's run end says cancelled. Waits for
  /// the run to end.
  void cancel();
  /// SIGTERM: ends the session like Ctrl-C; the run stays unfinished in the
  /// state database and resumes at the next start. Does not wait.
  void shutdown();
  /// Waits until the run has ended and its end is saved.
  void wait();

  /// The row as now, counts included.
  run_row row();
  const std::string& id() const {
    return id_;
  }
  std::string audit_path() const;
  /// The run takes no more input (its session has ended).
  bool ended();

private:
  daemon_run(daemon_context& ctx, run_row row);
  void start(run_actor_setup setup);
  bool hand_over(upload_state& st);
  void take_line(std::string_view line, bool oversized, upload_state& st,
                 std::string& out);
  std::string dir() const;

  daemon_context& ctx_;
  std::string id_;
  std::shared_ptr<run_status> status_;
  daemon_run_actor actor_;

  // The upload side: the pairs file's one writer at a time.
  std::mutex upload_mtx_;
  std::condition_variable upload_done_;
  bool uploading_ = false;
  bool closed_ = false;
  pair_intake uploads_;
  int pairs_fd_ = -1; // append
  std::uint64_t pairs_bytes_ = 0;
};

} // namespace ij
