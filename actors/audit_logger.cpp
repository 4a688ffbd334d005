#include "actors/audit_logger.hpp"

#include <cerrno>
#include <cstring>

#include <fcntl.h>
#include <unistd.h>

#include <caf/sec.hpp>
#include <caf/typed_event_based_actor.hpp>

#include "adapters/llm_judge_comparator.hpp"
#include "core/audit_record.hpp"
#include "core/sha256.hpp"

namespace ij {

audit_logger_state::~audit_logger_state() {
  if (fd >= 0)
    ::close(fd);
}

namespace {

using self_ptr = logger_actor::stateful_pointer<audit_logger_state>;

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

caf::error failure(const std::string& why) {
  return caf::make_error(caf::sec::runtime_error, why);
}

// Marks the file broken and refuses every promise waiting for an fsync.
void break_file(self_ptr self, std::string why) {
  auto& st = self->state;
  st.broken = std::move(why);
  for (auto& w : st.awaiting_sync)
    w.first.deliver(failure(st.broken));
  st.awaiting_sync.clear();
}

bool sync(self_ptr self) {
  auto& st = self->state;
  if (::fsync(st.fd) == 0)
    return true;
  break_file(self, "audit fsync failed on " + st.path + ": "
                     + std::strerror(errno));
  return false;
}

// Renders one record into st.buf and advances the chain.
void render(audit_logger_state& st, const audit_entry& e,
            const std::string& ts) {
  auto start = st.buf.size();
  append_audit_line(st.buf, ++st.seq, e.type, ts, st.prev_hash, e.body);
  st.prev_hash =
    sha256_hex(std::string_view{st.buf.data() + start, st.buf.size() - start});
  st.buf += '\n';
}

} // namespace

logger_actor::behavior_type
audit_logger(logger_actor::stateful_pointer<audit_logger_state> self, int fd,
             std::string path, flush_policy policy) {
  auto& st = self->state;
  st.fd = fd;
  st.path = std::move(path);
  st.policy = policy;
  st.prev_hash = std::string{audit_genesis_hash};
  return {
    [=](audit_batch& batch) -> caf::result<std::uint64_t> {
      auto& st = self->state;
      if (!st.broken.empty())
        return failure(st.broken);
      if (st.fd < 0)
        return failure("the audit file " + st.path
                       + " is closed: the run has ended");
      auto ts = iso8601_utc(wall_clock_ms());
      auto each = st.policy == flush_policy::fsync_each;
      st.buf.clear();
      for (auto& e : batch.entries) {
        render(st, e, ts);
        if (each) {
          if (!write_all(st.fd, st.buf.data(), st.buf.size())) {
            break_file(self, "audit write failed on " + st.path + ": "
                               + std::strerror(errno));
            return failure(st.broken);
          }
          st.buf.clear();
          if (!sync(self))
            return failure(st.broken);
        }
      }
      if (!st.buf.empty()
          && !write_all(st.fd, st.buf.data(), st.buf.size())) {
        break_file(self, "audit write failed on " + st.path + ": "
                           + std::strerror(errno));
        return failure(st.broken);
      }
      auto seq = st.seq;
      if (batch.last) {
        if (!sync(self))
          return failure(st.broken);
        // Everyone waiting for a group commit is covered by this fsync.
        for (auto& w : st.awaiting_sync)
          w.first.deliver(w.second);
        st.awaiting_sync.clear();
        ::close(st.fd);
        st.fd = -1;
        return seq;
      }
      if (batch.durable && st.policy == flush_policy::fsync_verdicts) {
        auto promise = self->make_response_promise<std::uint64_t>();
        st.awaiting_sync.emplace_back(promise, seq);
        if (!st.sync_scheduled) {
          st.sync_scheduled = true;
          self->send(self, flush_atom::value);
        }
        return promise;
      }
      return seq;
    },
    [=](flush_atom) {
      auto& st = self->state;
      st.sync_scheduled = false;
      if (st.awaiting_sync.empty() || st.fd < 0 || !st.broken.empty())
        return;
      if (!sync(self))
        return;
      for (auto& w : st.awaiting_sync)
        w.first.deliver(w.second);
      st.awaiting_sync.clear();
    },
    [=](final_hash_atom) -> std::string { return self->state.prev_hash; },
  };
}

} // namespace ij
