#include "daemon/daemon_run.hpp"

#include <cerrno>
#include <chrono>
#include <cstring>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <caf/scoped_actor.hpp>

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include "actors/audit_file.hpp"
#include "actors/run_session.hpp"
#include "adapters/llm_judge_comparator.hpp"
#include "messages/error.hpp"
#include "tools/pair_reader.hpp"
#include "tools/verdict_output.hpp"

namespace ij {

namespace {

std::size_t pair_reader_limit() {
  return pair_reader::max_line_bytes;
}

bool write_all(int fd, const char* data, std::size_t size) {
  while (size > 0) {
    auto n = ::write(fd, data, size);
    if (n < 0) {
      if (errno == EINTR)
        continue;
      return false;
    }
    data += n;
    size -= static_cast<std::size_t>(n);
  }
  return true;
}

// The output line with its sequence number first: {"seq":N,...}.
std::string with_seq(std::uint64_t seq, const std::string& line) {
  return "{\"seq\":" + std::to_string(seq) + "," + line.substr(1);
}

// Cuts a pairs file after its last newline: a line whose upload was never
// acknowledged (the daemon died while appending it) is not input.
bool cut_partial_line(const std::string& path, std::string& error) {
  int fd = ::open(path.c_str(), O_RDWR | O_CLOEXEC);
  if (fd < 0) {
    error = "cannot open " + path + ": " + std::strerror(errno);
    return false;
  }
  struct stat st {};
  ::fstat(fd, &st);
  off_t end = st.st_size;
  char c = '\n';
  while (end > 0 && ::pread(fd, &c, 1, end - 1) == 1 && c != '\n')
    --end;
  bool ok = end == st.st_size || ::ftruncate(fd, end) == 0;
  ::close(fd);
  if (!ok)
    error = "cannot cut the partial last line of " + path;
  return ok;
}

} // namespace

daemon_run::daemon_run(daemon_context& ctx, run_row row, run_config config)
  : ctx_(ctx), id_(row.id), config_(std::move(config)), row_(std::move(row)) {
  closed_ = row_.closed;
}

daemon_run::~daemon_run() {
  wait();
  if (pairs_fd_ >= 0)
    ::close(pairs_fd_);
  if (follow_fd_ >= 0)
    ::close(follow_fd_);
}

std::string daemon_run::dir() const {
  return ctx_.state_dir + "/runs/" + id_;
}

std::string daemon_run::audit_path() const {
  return dir() + "/audit.jsonl";
}

std::shared_ptr<daemon_run> daemon_run::create(daemon_context& ctx,
                                               run_row row, run_config config,
                                               std::string& error) {
  std::shared_ptr<daemon_run> run{
    new daemon_run(ctx, std::move(row), std::move(config))};
  auto dir = run->dir();
  if (::mkdir(dir.c_str(), 0755) != 0) {
    error = "cannot create " + dir + ": " + std::strerror(errno);
    return nullptr;
  }
  auto pairs = dir + "/pairs.jsonl";
  run->pairs_fd_ = ::open(pairs.c_str(),
                          O_WRONLY | O_CREAT | O_EXCL | O_APPEND | O_CLOEXEC,
                          0644);
  int audit_fd = run->pairs_fd_ < 0 ? -1
                                    : open_audit_file(run->audit_path(), error);
  if (run->pairs_fd_ < 0 && error.empty())
    error = "cannot create " + pairs + ": " + std::strerror(errno);
  if (audit_fd < 0)
    return nullptr;
  if (!ctx.store->insert_run(run->row_, error)) {
    ::close(audit_fd);
    return nullptr;
  }
  run->start(nullptr, audit_fd);
  return run;
}

std::shared_ptr<daemon_run> daemon_run::restart(daemon_context& ctx,
                                                run_row row,
                                                std::string& error) {
  auto config = parse_config(row.config_json, "run " + row.id, error);
  if (!config)
    return nullptr;
  std::shared_ptr<daemon_run> run{
    new daemon_run(ctx, std::move(row), std::move(*config))};
  auto pairs = run->dir() + "/pairs.jsonl";
  if (!cut_partial_line(pairs, error))
    return nullptr;
  // The upload side reads the lines already received, so that line numbers
  // and duplicate ids go on from there.
  {
    int fd = ::open(pairs.c_str(), O_RDONLY | O_CLOEXEC);
    std::string rest;
    std::uint64_t accepted = 0;
    char buf[1 << 16];
    ssize_t n;
    while (fd >= 0 && (n = ::read(fd, buf, sizeof buf)) > 0) {
      rest.append(buf, static_cast<std::size_t>(n));
      std::size_t start = 0, nl;
      while ((nl = rest.find('\n', start)) != std::string::npos) {
        answer_pair p;
        std::string why;
        auto kind = run->uploads_.take(
          std::string_view{rest}.substr(start, nl - start), p, why);
        run->rejected_ += kind == pair_intake::kind::rejected;
        accepted += kind == pair_intake::kind::pair;
        start = nl + 1;
      }
      rest.erase(0, start);
    }
    if (fd >= 0)
      ::close(fd);
    // Lines fsynced but not yet counted when the daemon died are input too.
    run->row_.lines = run->uploads_.lines();
    run->row_.accepted = accepted;
  }
  run->pairs_fd_ = ::open(pairs.c_str(), O_WRONLY | O_APPEND | O_CLOEXEC);
  if (run->pairs_fd_ < 0) {
    error = "cannot open " + pairs + ": " + std::strerror(errno);
    return nullptr;
  }
  for (auto& key : ctx.store->verdict_keys(run->id_))
    run->stored_keys_.insert(key);
  run->next_seq_ = ctx.store->last_seq(run->id_) + 1;
  // Killed before its manifest was written: an empty audit starts afresh.
  struct stat st {};
  if (::stat(run->audit_path().c_str(), &st) == 0 && st.st_size == 0) {
    int fd = open_audit_file(run->audit_path(), error);
    if (fd < 0)
      return nullptr;
    run->start(nullptr, fd);
    return run;
  }
  auto audit = open_audit_for_resume(run->audit_path(), error);
  if (!audit)
    return nullptr;
  run->start(std::make_shared<const resume_point>(std::move(audit->point)),
             audit->fd);
  return run;
}

void daemon_run::start(std::shared_ptr<const resume_point> resume,
                       int audit_fd) {
  follow_fd_ = ::open((dir() + "/pairs.jsonl").c_str(), O_RDONLY | O_CLOEXEC);
  thread_ = std::thread(
    [this, resume, audit_fd] { run_thread(resume, audit_fd); });
}

bool daemon_run::upload(std::string_view body, upload_result& out,
                        std::string& why) {
  if (!begin_upload(why))
    return false;
  upload_state st;
  upload_piece(body, st);
  bool ok = end_upload(st, true, why);
  out = std::move(st.result);
  return ok;
}

bool daemon_run::begin_upload(std::string& why) {
  std::unique_lock<std::mutex> lock{mtx_};
  upload_done_.wait(lock, [this] { return !uploading_; });
  if (closed_ || ended_) {
    why = ended_ ? "the run has ended (" + row_.state + ")"
                 : "the run's input is closed";
    return false;
  }
  uploading_ = true;
  return true;
}

// Only the uploader touches uploads_ and pairs_fd_ (uploading_ is set).
void daemon_run::upload_piece(std::string_view data, upload_state& st) {
  auto take = [&](std::string_view line) {
    answer_pair p;
    std::string reason;
    auto kind = uploads_.take(line, p, reason);
    if (kind == pair_intake::kind::pair)
      ++st.result.accepted;
    else if (kind == pair_intake::kind::rejected)
      st.result.rejected.emplace_back(uploads_.lines(), std::move(reason));
  };
  // Written once per piece, not once per line.
  std::string out;
  auto put = [&](std::string_view bytes) { out.append(bytes.data(), bytes.size()); };
  auto flush = [&] {
    if (!st.failed && !out.empty()
        && !write_all(pairs_fd_, out.data(), out.size()))
      st.failed = true;
    out.clear();
  };
  // Stands for a line over the limit: only its length is looked at.
  static const std::string too_long(pair_reader_limit() + 1, 'x');
  while (!data.empty()) {
    auto nl = data.find('\n');
    auto part = data.substr(0, nl);
    if (st.oversized) {
      put(part);
    } else {
      st.tail.append(part.data(), part.size());
      if (st.tail.size() > pair_reader_limit()) {
        put(st.tail); // a line over the limit goes to the file as it comes
        st.tail.clear();
        st.oversized = true;
      }
    }
    if (nl == std::string_view::npos)
      break;
    if (st.oversized) {
      take(too_long);
      put("\n");
    } else {
      take(st.tail);
      st.tail += '\n';
      put(st.tail);
    }
    st.tail.clear();
    st.oversized = false;
    data.remove_prefix(nl + 1);
  }
  flush();
}

bool daemon_run::end_upload(upload_state& st, bool complete, std::string& why) {
  if (complete && (!st.tail.empty() || st.oversized))
    upload_piece("\n", st); // a last line without its newline
  else if (st.oversized)
    upload_piece("\n", st); // cut off inside a long line: it ends there
  // Durable before it is acknowledged: a restart reads this file again.
  bool ok = !st.failed && ::fsync(pairs_fd_) == 0;
  std::lock_guard<std::mutex> guard{mtx_};
  row_.lines = uploads_.lines();
  rejected_ += st.result.rejected.size();
  row_.accepted += st.result.accepted;
  std::string ignored;
  ctx_.store->update_run(row_, ignored);
  uploading_ = false;
  upload_done_.notify_all();
  if (!ok)
    why = "cannot append to the run's pairs file: "
          + std::string{std::strerror(errno)};
  return ok;
}

bool daemon_run::close(std::string& why) {
  std::unique_lock<std::mutex> guard{mtx_};
  // An upload under way finishes first: its lines are input.
  upload_done_.wait(guard, [this] { return !uploading_; });
  if (ended_) {
    why = "the run has ended (" + row_.state + ")";
    return false;
  }
  closed_ = true;
  row_.closed = true;
  if (row_.state == "open")
    row_.state = "running";
  return ctx_.store->update_run(row_, why);
}

void daemon_run::cancel() {
  {
    std::lock_guard<std::mutex> guard{mtx_};
    if (!ended_ && stop_reason_.empty()) {
      cancel_requested_ = true;
      stop_reason_ = "cancelled (DELETE /v1/runs/" + id_ + ")";
    }
  }
  wait();
}

void daemon_run::shutdown() {
  std::lock_guard<std::mutex> guard{mtx_};
  if (!ended_ && stop_reason_.empty())
    stop_reason_ = "the daemon stopped (SIGTERM); the run resumes when it "
                   "starts again";
}

void daemon_run::wait() {
  if (thread_.joinable() && thread_.get_id() != std::this_thread::get_id())
    thread_.join();
}

// The next lines of the pairs file: a batch, or idle when the uploads have
// not caught up, or the end once the input is closed and all read.
input_state daemon_run::follow(input_batch& batch) {
  // Larger than the driver's 128: a batch costs the run thread a round
  // trip to the session, and the daemon's thread has more to do per
  // verdict (measured: 0.76x the driver with 128, 0.83-0.90x with 1024).
  constexpr std::size_t batch_pairs = 1024;
  bool at_end = false;
  for (;;) {
    std::size_t start = 0, nl;
    while (batch.pairs.size() < batch_pairs
           && (nl = pending_.find('\n', start)) != std::string::npos) {
      answer_pair p;
      std::string reason;
      auto kind = follower_.take(
        std::string_view{pending_}.substr(start, nl - start), p, reason);
      if (kind == pair_intake::kind::pair)
        batch.pairs.push_back(std::move(p));
      else if (kind == pair_intake::kind::rejected)
        batch.rejected.push_back({"pairs.jsonl", follower_.lines(), reason});
      start = nl + 1;
    }
    pending_.erase(0, start);
    if (batch.pairs.size() >= batch_pairs || at_end)
      break;
    // Closed is read before the file: every line acknowledged before the
    // close is in the file by then.
    bool closed = closed_.load();
    char buf[1 << 16];
    auto n = ::read(follow_fd_, buf, sizeof buf);
    if (n > 0) {
      pending_.append(buf, static_cast<std::size_t>(n));
      continue;
    }
    at_end = true;
    if (closed && pending_.find('\n') == std::string::npos)
      return input_state::end;
  }
  return batch.pairs.empty() && batch.rejected.empty() ? input_state::idle
                                                       : input_state::more;
}

// A resumed session hands out the verdicts it preloaded from the audit
// again; those stored before the restart are not stored twice. A new run
// keeps no keys.
bool daemon_run::stored_before_restart(const std::string& key) const {
  return !stored_keys_.empty() && stored_keys_.count(key) > 0;
}

void daemon_run::store_lines(
  std::vector<std::pair<std::string, std::string>>& lines) {
  if (lines.empty())
    return;
  auto n = lines.size();
  ctx_.store->queue_verdicts(id_, next_seq_, std::move(lines));
  next_seq_ += n;
}

void daemon_run::on_verdicts(std::vector<single_verdict>& vs) {
  std::vector<std::pair<std::string, std::string>> lines;
  std::uint64_t cast = 0, skipped = 0;
  {
    std::lock_guard<std::mutex> guard{mtx_};
    for (auto& v : vs) {
      ++decided_;
      ++by_rule_[static_cast<int>(v.rule) - 1];
      skipped_ += v.counts.not_cast;
      auto key = "pair:" + v.pair_id;
      if (stored_before_restart(key))
        continue;
      auto total = v.counts.equivalent + v.counts.different + v.counts.abstain
                   + v.counts.parse_error + v.counts.faults;
      cast += total;
      skipped += v.counts.not_cast;
      lines.emplace_back(std::move(key),
                         with_seq(next_seq_ + lines.size(), pair_verdict_line(v)));
    }
  }
  ctx_.metrics->record_votes(cast, skipped);
  store_lines(lines);
}

void daemon_run::on_items(std::vector<statistical_verdict>& vs) {
  std::vector<std::pair<std::string, std::string>> lines;
  {
    std::lock_guard<std::mutex> guard{mtx_};
    for (auto& v : vs) {
      ++items_;
      auto key = "item:" + v.item;
      if (stored_before_restart(key))
        continue;
      lines.emplace_back(std::move(key),
                         with_seq(next_seq_ + lines.size(), item_verdict_line(v)));
    }
  }
  store_lines(lines);
}

// Live canaries are output lines like the driver's ({"kind":"canary"}),
// never counted as pairs; one resumed is stored once.
void daemon_run::on_canaries(std::vector<canary_result>& cs) {
  std::vector<std::pair<std::string, std::string>> lines;
  {
    std::lock_guard<std::mutex> guard{mtx_};
    for (auto& c : cs) {
      auto key = "canary:" + c.id;
      if (stored_before_restart(key))
        continue;
      lines.emplace_back(std::move(key),
                         with_seq(next_seq_ + lines.size(), canary_line(c)));
    }
  }
  store_lines(lines);
}

void daemon_run::run_thread(std::shared_ptr<const resume_point> resume,
                            int audit_fd) {
  caf::scoped_actor self{*ctx_.sys};
  run_setup setup;
  setup.run_id = id_;
  setup.config = config_;
  setup.audit_path = audit_path();
  setup.directory = ctx_.directory;
  setup.listener = caf::actor_cast<run_listener_actor>(self);
  setup.progress_interval = std::chrono::milliseconds(500);
  setup.resume = std::move(resume);
  setup.audit_fd = audit_fd;
  auto session = spawn_run(*ctx_.sys, std::move(setup));
  run_outcome out;
  if (!session) {
    out.failures.push_back(render_error(session.error()));
    finish(out);
    return;
  }
  run_event_handlers on;
  on.verdicts = [this](std::vector<single_verdict>& vs) { on_verdicts(vs); };
  on.items = [this](std::vector<statistical_verdict>& vs) { on_items(vs); };
  on.canaries = [this](std::vector<canary_result>& cs) { on_canaries(cs); };
  on.progress = [this](const run_progress& p) {
    std::lock_guard<std::mutex> guard{mtx_};
    judge_calls_ = p.judge_calls;
  };
  on.stop_reason = [this] {
    std::lock_guard<std::mutex> guard{mtx_};
    return stop_reason_;
  };
  out = drive_run(
    self, *session,
    [this](input_batch& b, std::string&) { return follow(b); }, on);
  finish(out);
}

void daemon_run::finish(const run_outcome& out) {
  // "done" is said once every verdict line can be read.
  ctx_.store->flush_verdicts();
  auto store_error = ctx_.store->write_error();
  std::lock_guard<std::mutex> guard{mtx_};
  bool shutting_down = !cancel_requested_ && !stop_reason_.empty();
  if (out.ended) {
    summary_ = out.summary;
    have_summary_ = true;
  }
  if (shutting_down) {
    ended_ = true; // this process takes no more input; the next one resumes
    return;
  }
  std::string error = !out.summary.error.empty() ? out.summary.error
                      : !out.failures.empty()     ? out.failures.front()
                      : !store_error.empty()
                        ? "verdict lines not stored (the audit holds them): "
                            + store_error
                        : std::string{};
  row_.state = cancel_requested_ ? "cancelled"
               : !error.empty() || !out.ended ? "failed"
                                              : "done";
  row_.error = error;
  row_.finished_ms = wall_clock_ms();
  ended_ = true;
  row_.counts_json = counts_json();
  std::string why;
  ctx_.store->update_run(row_, why);
}

// The counts of GET /v1/runs/{id}: as verdicts come, and the run's summary
// once it has ended. Called with mtx_ held.
std::string daemon_run::counts_json() {
  rapidjson::StringBuffer sb;
  rapidjson::Writer<rapidjson::StringBuffer> w(sb);
  auto uint = [&](const char* k, std::uint64_t v) {
    w.Key(k);
    w.Uint64(v);
  };
  const auto& s = summary_;
  w.StartObject();
  uint("pairs", row_.accepted);
  uint("decided", have_summary_ ? s.pairs : decided_);
  w.Key("by_rule");
  w.StartObject();
  for (int i = 0; i < 5; ++i)
    uint(("I" + std::to_string(i + 1)).c_str(),
         have_summary_ ? s.by_rule[i] : by_rule_[i]);
  w.EndObject();
  uint("items", have_summary_ ? s.items : items_);
  uint("judge_calls", have_summary_ ? s.judge_calls : judge_calls_);
  uint("faults", have_summary_ ? s.faults : by_rule_[1]);
  uint("cached", have_summary_ ? s.cached : 0);
  uint("skipped", have_summary_ ? s.calls_skipped : skipped_);
  uint("rejected", rejected_);
  w.EndObject();
  return {sb.GetString(), sb.GetSize()};
}

run_row daemon_run::row() {
  std::lock_guard<std::mutex> guard{mtx_};
  auto r = row_;
  r.counts_json = counts_json();
  return r;
}

} // namespace ij
