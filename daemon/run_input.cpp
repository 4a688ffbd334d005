#include "daemon/run_input.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>

#include <fcntl.h>
#include <unistd.h>

#include <caf/send.hpp>

#include "actors/file_write.hpp"
#include "messages/error.hpp"
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

} // namespace

run_upload::run_upload(run_input& input, daemon_run_actor run)
    : input_(input), run_(std::move(run)) {
  fd_ = ::open(input_.pairs_path.c_str(), O_WRONLY | O_APPEND | O_CLOEXEC);
  if (fd_ < 0) {
    open_errno_ = errno;
    failed_ = true;
  }
}

run_upload::~run_upload() {
  if (fd_ >= 0)
    ::close(fd_);
}

// One line of the upload: the pair as it came, or its rejection's record,
// into `out` (written once per piece) and the handoff to the run.
void run_upload::take_line(std::string_view line, bool oversized,
                           std::string& out) {
  auto at = [&] { return input_.bytes + out.size(); };
  if (pending_.empty() || pending_.back().batch.pairs.size() >= batch_pairs)
    pending_.push_back({{}, at(), at(), input_.intake.lines()});
  auto& h = pending_.back();
  auto taken =
    oversized ? caf::expected<std::optional<answer_pair>>{input_.intake
                                                            .take_oversized()}
              : input_.intake.take(line);
  if (taken && *taken) {
    ++accepted_;
    out.append(line.data(), line.size());
    h.batch.pairs.push_back(std::move(**taken));
  } else if (!taken) {
    auto n = input_.intake.lines();
    auto reason = context_of(taken.error());
    out += pair_intake::rejection_record(n, reason, oversized ? prefix_ : line);
    h.batch.rejected.push_back({"pairs.jsonl", n, reason});
    rejected_.emplace_back(n, std::move(reason));
  }
  out += '\n';
  h.to = at();
}

void run_upload::piece(std::string_view data) {
  std::string out;
  while (!data.empty()) {
    auto nl = data.find('\n');
    auto part = data.substr(0, nl);
    if (!oversized_) {
      tail_.append(part.data(), part.size());
      if (tail_.size() > pair_reader::max_line_bytes) {
        // Over the limit: only its first bytes are kept, for its record.
        prefix_ = tail_.substr(0, pair_intake::prefix_bytes);
        std::string{}.swap(tail_);
        oversized_ = true;
      }
    }
    if (nl == std::string_view::npos)
      break;
    take_line(tail_, oversized_, out);
    tail_.clear();
    prefix_.clear();
    oversized_ = false;
    data.remove_prefix(nl + 1);
  }
  if (!out.empty()) {
    if (!failed_ && !write_all(fd_, out.data(), out.size()))
      failed_ = true;
    input_.bytes += out.size();
    unsynced_ += out.size();
  }
  if (sync_at_ == 0)
    sync_at_ = first_sync_bytes;
  if (unsynced_ >= sync_at_) {
    hand_over();
    sync_at_ = std::min(sync_at_ * 2, sync_bytes);
  }
}

// Durable first, then the run's: fsync, and the lines to the run actor.
bool run_upload::hand_over() {
  if (!failed_ && ::fsync(fd_) != 0)
    failed_ = true;
  if (!failed_)
    for (auto& h : pending_)
      caf::anon_send(run_, append_atom::value, std::move(h.batch), h.from, h.to,
                     h.line);
  pending_.clear();
  unsynced_ = 0;
  return !failed_;
}

caf::error run_upload::finish(bool complete) {
  // A last line without its newline; cut off inside a long line, it ends
  // there (rejected); cut off inside a short one, it is not input.
  if ((complete && !tail_.empty()) || oversized_)
    piece("\n");
  auto err = open_errno_ ? open_errno_ : errno;
  if (hand_over())
    return caf::none;
  return make_error(errc::io_failed,
                    "cannot append to the run's pairs file: "
                      + std::string{std::strerror(err ? err : EIO)});
}

} // namespace ij
