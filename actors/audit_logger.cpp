#include "actors/audit_logger.hpp"

#include <cerrno>
#include <cstring>

#include <fcntl.h>
#include <unistd.h>

#include <caf/sec.hpp>
#include <caf/typed_event_based_actor.hpp>

#include "actors/file_write.hpp"
#include "core/audit/audit_record.hpp"
#include "core/sha256.hpp"
#include "core/wall_clock.hpp"
#include "messages/error.hpp"

namespace ij {

audit_logger_state::~audit_logger_state() {
  if (fd >= 0)
    ::close(fd);
}

namespace {

using self_ptr = logger_actor::stateful_pointer<audit_logger_state>;

caf::error failure(const std::string& why) {
  return make_error(errc::audit_failed, why);
}

// A batch record is fsynced under every policy: lost in a crash, its batch
// would be submitted (and paid) again. Batches are few, so this costs little.
bool holds_batch_mark(const audit_batch& batch) {
  for (auto& e : batch.entries)
    if (e.type == audit_type::batch)
      return true;
  return false;
}

// Answers everyone waiting for a group commit: this fsync covers them.
void release_synced(audit_logger_state& st) {
  for (auto& w : st.awaiting_sync)
    w.promise.deliver(w.seq, std::move(w.hash));
  st.awaiting_sync.clear();
}

// Marks the file broken and refuses every promise waiting for an fsync.
void break_file(self_ptr self, std::string why) {
  auto& st = self->state;
  st.broken = std::move(why);
  for (auto& w : st.awaiting_sync)
    w.promise.deliver(failure(st.broken));
  st.awaiting_sync.clear();
}

bool sync(self_ptr self) {
  auto& st = self->state;
  if (::fsync(st.fd) == 0)
    return true;
  break_file(self,
             "audit fsync failed on " + st.path + ": " + std::strerror(errno));
  return false;
}

// Renders one record into st.buf and advances the chain.
void render(audit_logger_state& st, audit_type type, std::string_view body,
            const std::string& ts) {
  auto start = st.buf.size();
  append_audit_line(st.buf, ++st.seq, type, ts, st.prev_hash, body);
  sha256_hex_into(
    std::string_view{st.buf.data() + start, st.buf.size() - start},
    st.prev_hash);
  st.buf += '\n';
}

std::string_view text_of(const rapidjson::StringBuffer& sb) {
  return {sb.GetString(), sb.GetSize()};
}

// Every record of a batch, in order: each decided pair's judge calls, vote
// and verdict, then the entries. `each` is called after every record.
template <class F>
void render_batch(audit_logger_state& st, const audit_batch& batch,
                  const std::string& ts, F&& each) {
  auto& sb = st.scratch;
  for (auto& d : batch.pairs) {
    for (auto& rec : d.result.records) {
      sb.Clear();
      judge_call_body(sb, rec);
      render(st, audit_type::judge_call, text_of(sb), ts);
      each();
    }
    sb.Clear();
    vote_body(sb, d.pair, d.result);
    render(st, audit_type::vote, text_of(sb), ts);
    each();
    sb.Clear();
    verdict_body(sb, d.pair, d.verdict, d.rule, d.result.outcome);
    render(st, audit_type::verdict, text_of(sb), ts);
    each();
  }
  for (auto& e : batch.entries) {
    render(st, e.type, e.body, ts);
    each();
  }
}

} // namespace

logger_actor::behavior_type
audit_logger(logger_actor::stateful_pointer<audit_logger_state> self, int fd,
             std::string path, flush_policy policy, std::uint64_t seq,
             std::string prev_hash) {
  auto& st = self->state;
  st.fd = fd;
  st.path = std::move(path);
  st.policy = policy;
  st.seq = seq;
  st.prev_hash = std::move(prev_hash);
  return {
    [=](audit_batch& batch) -> caf::result<std::uint64_t, std::string> {
      auto& st = self->state;
      if (!st.broken.empty())
        return failure(st.broken);
      if (st.fd < 0)
        return failure("the audit file " + st.path
                       + " is closed: the run has ended");
      auto ts = iso8601_utc(wall_clock_ms());
      st.buf.clear();
      // fsync-each: every record is written and synced on its own.
      bool failed = false;
      auto each = [&] {
        if (failed || st.policy != flush_policy::fsync_each)
          return;
        if (!write_all(st.fd, st.buf.data(), st.buf.size())) {
          break_file(self, "audit write failed on " + st.path + ": "
                             + std::strerror(errno));
          failed = true;
          return;
        }
        st.buf.clear();
        failed = !sync(self);
      };
      render_batch(st, batch, ts, each);
      if (failed)
        return failure(st.broken);
      if (!st.buf.empty() && !write_all(st.fd, st.buf.data(), st.buf.size())) {
        break_file(self, "audit write failed on " + st.path + ": "
                           + std::strerror(errno));
        return failure(st.broken);
      }
      auto seq = st.seq;
      if (batch.last) {
        if (!sync(self))
          return failure(st.broken);
        release_synced(st);
        ::close(st.fd);
        st.fd = -1;
        return {seq, st.prev_hash};
      }
      if (batch.durable
          && (st.policy == flush_policy::fsync_verdicts
              || holds_batch_mark(batch))) {
        auto promise =
          self->make_response_promise<std::uint64_t, std::string>();
        st.awaiting_sync.push_back({promise, seq, st.prev_hash});
        if (!st.sync_scheduled) {
          st.sync_scheduled = true;
          self->send(self, flush_atom::value);
        }
        return promise;
      }
      return {seq, st.prev_hash};
    },
    [=](flush_atom) {
      auto& st = self->state;
      st.sync_scheduled = false;
      if (st.awaiting_sync.empty() || st.fd < 0 || !st.broken.empty())
        return;
      if (!sync(self))
        return;
      release_synced(st);
    },
  };
}

} // namespace ij
