#pragma once
// One run of the daemon: its pairs file and audit under
// DIR/runs/<id>/, its row in the state database, and a thread of its own that
// drives a run session (actors/run_client's drive_run, as the driver does),
// feeding it the pairs file as uploads append to it and storing the verdicts
// it releases. Uploads are appended and fsynced before they are answered, so
// an acknowledged pair survives a crash; on a restart the run resumes from
// its audit (core/audit_resume) and reads its pairs file again from the
// start: pairs already decided are not judged again.
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <unordered_set>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

#include <caf/actor_system.hpp>

#include "actors/run_client.hpp"
#include "core/audit_resume.hpp"
#include "core/run_config.hpp"
#include "daemon/daemon_metrics.hpp"
#include "daemon/pair_intake.hpp"
#include "daemon/state_store.hpp"
#include "messages/interfaces.hpp"

namespace ij {

/// What every run of the daemon shares.
struct daemon_context {
  caf::actor_system* sys = nullptr;
  judge_directory_actor directory;
  state_store* store = nullptr;
  std::shared_ptr<daemon_metrics> metrics;
  std::string state_dir;
};

class daemon_run {
public:
  /// A new run: its folder, empty pairs file and audit are created, its row
  /// inserted, and its session started. nullptr with `error`.
  static std::shared_ptr<daemon_run> create(daemon_context& ctx, run_row row,
                                            run_config config,
                                            std::string& error);
  /// A run found unfinished at start: resumed from its audit.
  static std::shared_ptr<daemon_run> restart(daemon_context& ctx, run_row row,
                                             std::string& error);
  ~daemon_run();
  daemon_run(const daemon_run&) = delete;
  daemon_run& operator=(const daemon_run&) = delete;

  struct upload_result {
    std::uint64_t accepted = 0;
    std::vector<std::pair<std::uint64_t, std::string>> rejected;
  };
  /// Appends JSON Lines of pairs (made durable before it returns); false
  /// with `why` when the run takes no more input (closed or ended).
  bool upload(std::string_view body, upload_result& out, std::string& why);

  /// The same in pieces as they arrive (a streamed request body): memory
  /// holds the current line only. One upload at a time per run (a second
  /// waits); close waits for it too. end_upload(complete = false) for a body
  /// cut off: the complete lines it brought stay, its partial line does not.
  struct upload_state {
    std::string tail;      // the current line, not yet written
    bool oversized = false; // the current line is over the limit (written)
    upload_result result;
    bool failed = false;
  };
  bool begin_upload(std::string& why);
  void upload_piece(std::string_view data, upload_state& st);
  bool end_upload(upload_state& st, bool complete, std::string& why);
  /// The input is complete.
  bool close(std::string& why);
  /// DELETE: no more calls; the audit's run end says cancelled. Waits for
  /// the run to end.
  void cancel();
  /// SIGTERM: ends the session like Ctrl-C; the run stays unfinished in the
  /// state database and resumes at the next start. Does not wait.
  void shutdown();
  /// Waits for the run's thread.
  void wait();

  /// The row as now, counts included.
  run_row row();
  const std::string& id() const {
    return id_;
  }
  std::string audit_path() const;
  bool ended() const {
    return ended_.load();
  }

private:
  daemon_run(daemon_context& ctx, run_row row, run_config config);
  void start(std::shared_ptr<const resume_point> resume, int audit_fd);
  void run_thread(std::shared_ptr<const resume_point> resume, int audit_fd);
  input_state follow(input_batch& batch);
  void on_verdicts(std::vector<single_verdict>& vs);
  void on_items(std::vector<statistical_verdict>& vs);
  void on_canaries(std::vector<canary_result>& cs);
  bool stored_before_restart(const std::string& key) const;
  void store_lines(std::vector<std::pair<std::string, std::string>>& lines);
  void finish(const run_outcome& out);
  std::string counts_json();
  std::string dir() const;

  daemon_context& ctx_;
  std::string id_;
  run_config config_;

  mutable std::mutex mtx_;
  run_row row_;
  pair_intake uploads_; // the upload side's reading of the lines
  std::uint64_t rejected_ = 0; // lines the uploads rejected
  bool uploading_ = false;
  std::condition_variable upload_done_;
  int pairs_fd_ = -1;   // append
  std::string stop_reason_;
  bool cancel_requested_ = false;
  std::atomic<bool> closed_{false};
  std::atomic<bool> ended_{false};

  // The run thread's own (no lock needed).
  int follow_fd_ = -1;
  std::string pending_;
  pair_intake follower_;
  std::unordered_set<std::string> stored_keys_; // before a restart only
  std::uint64_t next_seq_ = 1;

  // Counts as verdicts come (under mtx_).
  std::uint64_t decided_ = 0;
  std::uint64_t by_rule_[5] = {0, 0, 0, 0, 0};
  std::uint64_t items_ = 0;
  std::uint64_t skipped_ = 0;
  std::uint64_t judge_calls_ = 0;
  bool have_summary_ = false;
  run_summary summary_;

  std::thread thread_;
};

} // namespace ij
