#include "daemon/daemon_run.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <caf/send.hpp>

#include "actors/audit_file.hpp"
#include "actors/file_write.hpp"
#include "messages/error.hpp"
#include "runio/calibration_file.hpp"
#include "runio/prompt_file.hpp"
#include "runio/pair_reader.hpp"

namespace ij {

namespace {

// Pairs a handoff to the run actor holds at most: a batch for its session.
constexpr std::size_t batch_pairs = 1024;
// A long streamed upload is fsynced and handed over in parts, so that the
// run starts on it before it ends and memory stays bounded: the first part
// small (the run starts judging after 64 KiB, not after 4 MiB, a tenth of
// a 40,000-pair run's time), each next one twice as large up to 4 MiB (few
// fsyncs).
constexpr std::uint64_t first_sync_bytes = std::uint64_t{64} << 10;
constexpr std::uint64_t sync_bytes = std::uint64_t{4} << 20;

// Cuts a pairs file after its last newline: a line whose upload was never
// acknowledged (the daemon died while appending it) is not input.
// The file's size after the cut.
caf::expected<std::uint64_t> cut_partial_line(const std::string& path) {
  int fd = ::open(path.c_str(), O_RDWR | O_CLOEXEC);
  if (fd < 0)
    return make_error(errc::io_failed,
                      "cannot open " + path + ": " + std::strerror(errno));
  struct stat st {};
  ::fstat(fd, &st);
  off_t end = st.st_size;
  char c = '\n';
  while (end > 0 && ::pread(fd, &c, 1, end - 1) == 1 && c != '\n')
    --end;
  bool ok = end == st.st_size || ::ftruncate(fd, end) == 0;
  ::close(fd);
  if (!ok)
    return make_error(errc::io_failed,
                      "cannot cut the partial last line of " + path);
  return static_cast<std::uint64_t>(end);
}

} // namespace

daemon_run::daemon_run(daemon_context& ctx, run_row row)
  : ctx_(ctx), id_(row.id), status_(std::make_shared<run_status>()) {
  closed_ = row.closed;
  status_->row = std::move(row);
}

daemon_run::~daemon_run() {
  if (pairs_fd_ >= 0)
    ::close(pairs_fd_);
}

std::string daemon_run::dir() const {
  return ctx_.state_dir + "/runs/" + id_;
}

std::string daemon_run::audit_path() const {
  return dir() + "/audit.jsonl";
}

void daemon_run::start(run_actor_setup setup) {
  setup.ctx = &ctx_;
  setup.status = status_;
  setup.id = id_;
  setup.pairs_path = dir() + "/pairs.jsonl";
  setup.audit_path = audit_path();
  actor_ = spawn_run_actor(std::move(setup));
}

caf::expected<std::shared_ptr<daemon_run>>
daemon_run::create(daemon_context& ctx, run_row row, run_config config) {
  std::shared_ptr<daemon_run> run{new daemon_run(ctx, std::move(row))};
  auto dir = run->dir();
  if (::mkdir(dir.c_str(), 0755) != 0)
    return make_error(errc::io_failed,
                      "cannot create " + dir + ": " + std::strerror(errno));
  auto pairs = dir + "/pairs.jsonl";
  run->pairs_fd_ = ::open(pairs.c_str(),
                          O_WRONLY | O_CREAT | O_EXCL | O_APPEND | O_CLOEXEC,
                          0644);
  if (run->pairs_fd_ < 0)
    return make_error(errc::io_failed,
                      "cannot create " + pairs + ": " + std::strerror(errno));
  auto audit = open_audit_file(run->audit_path());
  if (!audit)
    return std::move(audit.error());
  int audit_fd = *audit;
  run->status_->row.counts_json = counts_json(run->status_->totals);
  if (auto err = ctx.store->insert_run(run->status_->row)) {
    ::close(audit_fd);
    return err;
  }
  run_actor_setup setup;
  setup.config = std::move(config);
  setup.audit_fd = audit_fd;
  run->start(std::move(setup));
  return run;
}

caf::expected<std::shared_ptr<daemon_run>>
daemon_run::restart(daemon_context& ctx, run_row row) {
  auto config = parse_config(row.config_json, "run " + row.id);
  if (!config)
    return std::move(config.error());
  // The stored map path is absolute and its SHA-256 pinned (run_request).
  if (auto err = attach_calibration(*config))
    return err;
  // The stored template paths are absolute and their SHA-256 pinned.
  if (auto err = attach_prompts(*config))
    return err;
  std::shared_ptr<daemon_run> run{new daemon_run(ctx, std::move(row))};
  auto pairs = run->dir() + "/pairs.jsonl";
  run_actor_setup setup;
  auto stored = cut_partial_line(pairs);
  if (!stored)
    return std::move(stored.error());
  setup.stored_bytes = *stored;
  // The upload side reads the lines already received, so that line numbers
  // and duplicate ids go on from there. Rejected lines are records of a
  // few hundred bytes: this takes no longer for a huge rejected line.
  auto& totals = run->status_->totals;
  {
    int fd = ::open(pairs.c_str(), O_RDONLY | O_CLOEXEC);
    std::string rest;
    char buf[1 << 16];
    ssize_t n;
    while (fd >= 0 && (n = ::read(fd, buf, sizeof buf)) > 0) {
      rest.append(buf, static_cast<std::size_t>(n));
      std::size_t start = 0, nl;
      while ((nl = rest.find('\n', start)) != std::string::npos) {
        answer_pair p;
        rejected_line r;
        auto kind = run->uploads_.take_stored(
          std::string_view{rest}.substr(start, nl - start), p, r);
        totals.rejected += kind == pair_intake::kind::rejected;
        totals.accepted += kind == pair_intake::kind::pair;
        start = nl + 1;
      }
      rest.erase(0, start);
    }
    if (fd >= 0)
      ::close(fd);
    // Lines fsynced but not yet counted when the daemon died are input too.
    run->status_->row.lines = run->uploads_.lines();
    run->status_->row.accepted = totals.accepted;
  }
  run->pairs_bytes_ = setup.stored_bytes;
  run->pairs_fd_ = ::open(pairs.c_str(), O_WRONLY | O_APPEND | O_CLOEXEC);
  if (run->pairs_fd_ < 0)
    return make_error(errc::io_failed,
                      "cannot open " + pairs + ": " + std::strerror(errno));
  for (auto& key : ctx.store->verdict_keys(run->id_))
    setup.stored_keys.insert(key);
  setup.next_seq = ctx.store->last_seq(run->id_) + 1;
  setup.closed = run->closed_;
  setup.config = std::move(*config);
  // Killed before its manifest was written: an empty audit starts afresh.
  struct stat st {};
  if (::stat(run->audit_path().c_str(), &st) == 0 && st.st_size == 0) {
    auto audit = open_audit_file(run->audit_path());
    if (!audit)
      return std::move(audit.error());
    setup.audit_fd = *audit;
  } else {
    auto audit = open_audit_for_resume(run->audit_path());
    if (!audit)
      return std::move(audit.error());
    setup.resume = std::make_shared<const resume_point>(std::move(audit->point));
    setup.audit_fd = audit->fd;
  }
  run->start(std::move(setup));
  return run;
}

caf::expected<daemon_run::upload_result>
daemon_run::upload(std::string_view body) {
  if (auto err = begin_upload())
    return err;
  upload_state st;
  upload_piece(body, st);
  if (auto err = end_upload(st, true))
    return err;
  return std::move(st.result);
}

caf::error daemon_run::begin_upload() {
  std::unique_lock<std::mutex> lock{upload_mtx_};
  upload_done_.wait(lock, [this] { return !uploading_; });
  if (ended())
    return make_error(errc::run_ended,
                      "the run has ended (" + row().state + ")");
  if (closed_)
    return make_error(errc::run_state, "the run's input is closed");
  uploading_ = true;
  return caf::none;
}

// One line of the upload: the pair as it came, or its rejection's record,
// into `out` (written once per piece) and the handoff to the run.
void daemon_run::take_line(std::string_view line, bool oversized,
                           upload_state& st, std::string& out) {
  auto at = [&] { return pairs_bytes_ + out.size(); };
  if (st.pending.empty() || st.pending.back().batch.pairs.size() >= batch_pairs)
    st.pending.push_back({{}, at(), at(), uploads_.lines()});
  auto& h = st.pending.back();
  auto taken = oversized ? caf::expected<std::optional<answer_pair>>{
                             uploads_.take_oversized()}
                         : uploads_.take(line);
  if (taken && *taken) {
    ++st.result.accepted;
    out.append(line.data(), line.size());
    h.batch.pairs.push_back(std::move(**taken));
  } else if (!taken) {
    auto n = uploads_.lines();
    auto reason = context_of(taken.error());
    out += pair_intake::rejection_record(n, reason,
                                         oversized ? st.prefix : line);
    h.batch.rejected.push_back({"pairs.jsonl", n, reason});
    st.result.rejected.emplace_back(n, std::move(reason));
  }
  out += '\n';
  h.to = at();
}

// Only the uploader touches the upload side (uploading_ is set).
void daemon_run::upload_piece(std::string_view data, upload_state& st) {
  std::string out;
  while (!data.empty()) {
    auto nl = data.find('\n');
    auto part = data.substr(0, nl);
    if (!st.oversized) {
      st.tail.append(part.data(), part.size());
      if (st.tail.size() > pair_reader::max_line_bytes) {
        // Over the limit: only its first bytes are kept, for its record.
        st.prefix = st.tail.substr(0, pair_intake::prefix_bytes);
        std::string{}.swap(st.tail);
        st.oversized = true;
      }
    }
    if (nl == std::string_view::npos)
      break;
    take_line(st.tail, st.oversized, st, out);
    st.tail.clear();
    st.prefix.clear();
    st.oversized = false;
    data.remove_prefix(nl + 1);
  }
  if (!out.empty()) {
    if (!st.failed && !write_all(pairs_fd_, out.data(), out.size()))
      st.failed = true;
    pairs_bytes_ += out.size();
    st.unsynced += out.size();
  }
  if (st.sync_at == 0)
    st.sync_at = first_sync_bytes;
  if (st.unsynced >= st.sync_at) {
    hand_over(st);
    st.sync_at = std::min(st.sync_at * 2, sync_bytes);
  }
}

// Durable first, then the run's: fsync, and the lines to the run actor.
bool daemon_run::hand_over(upload_state& st) {
  if (!st.failed && ::fsync(pairs_fd_) != 0)
    st.failed = true;
  if (!st.failed)
    for (auto& h : st.pending)
      caf::anon_send(actor_, append_atom::value, std::move(h.batch), h.from,
                     h.to, h.line);
  st.pending.clear();
  st.unsynced = 0;
  return !st.failed;
}

caf::error daemon_run::end_upload(upload_state& st, bool complete) {
  // A last line without its newline; cut off inside a long line, it ends
  // there (rejected); cut off inside a short one, it is not input.
  if ((complete && !st.tail.empty()) || st.oversized)
    upload_piece("\n", st);
  auto err = errno;
  bool ok = hand_over(st);
  run_row saved;
  {
    std::lock_guard<std::mutex> guard{status_->mtx};
    auto& row = status_->row;
    row.lines = uploads_.lines();
    row.accepted += st.result.accepted;
    status_->totals.accepted = row.accepted;
    status_->totals.rejected += st.result.rejected.size();
    row.counts_json = counts_json(status_->totals);
    saved = row;
  }
  // Not checked: the pairs are durable and the row in memory is right; the
  // next update or a restart saves its counts.
  ctx_.store->update_input(saved);
  {
    std::lock_guard<std::mutex> guard{upload_mtx_};
    uploading_ = false;
  }
  upload_done_.notify_all();
  if (!ok)
    return make_error(errc::io_failed,
                      "cannot append to the run's pairs file: "
                        + std::string{std::strerror(err ? err : errno)});
  return caf::none;
}

caf::error daemon_run::close() {
  std::unique_lock<std::mutex> lock{upload_mtx_};
  // An upload under way finishes first: its lines are input.
  upload_done_.wait(lock, [this] { return !uploading_; });
  if (ended())
    return make_error(errc::run_ended,
                      "the run has ended (" + row().state + ")");
  closed_ = true;
  run_row saved;
  {
    std::lock_guard<std::mutex> guard{status_->mtx};
    status_->row.closed = true;
    if (status_->row.state == "open")
      status_->row.state = "running";
    saved = status_->row;
    saved.counts_json = counts_json(status_->totals);
  }
  caf::anon_send(actor_, end_of_input_atom::value);
  return ctx_.store->update_input(saved);
}

void daemon_run::cancel() {
  caf::anon_send(actor_, cancel_atom::value,
                 "cancelled (DELETE /v1/runs/" + id_ + ")");
  wait();
}

void daemon_run::shutdown() {
  caf::anon_send(actor_, shutdown_atom::value,
                 std::string{"the daemon stopped (SIGTERM); the run resumes "
                             "when it starts again"});
}

void daemon_run::wait() {
  std::unique_lock<std::mutex> lock{status_->mtx};
  status_->changed.wait(lock, [this] { return status_->ended; });
}

bool daemon_run::ended() {
  std::lock_guard<std::mutex> guard{status_->mtx};
  return status_->input_ended || status_->ended;
}

run_row daemon_run::row() {
  std::lock_guard<std::mutex> guard{status_->mtx};
  auto r = status_->row;
  if (r.state == "open" || r.state == "running")
    r.counts_json = counts_json(status_->totals);
  return r;
}

} // namespace ij
