#include "daemon/pairs_file_reader.hpp"

#include <cerrno>
#include <cstring>

#include <fcntl.h>
#include <unistd.h>

#include <caf/typed_event_based_actor.hpp>

#include "daemon/pair_intake.hpp"
#include "messages/error.hpp"

namespace ij {

namespace {

// Pairs per reply: a batch, as the uploads hand them over.
constexpr std::size_t reply_pairs = 1024;

caf::result<input_batch, std::uint64_t, std::uint64_t>
read_lines(const std::string& path, std::uint64_t from, std::uint64_t to,
           std::uint64_t line, std::size_t batch_pairs) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return make_error(errc::bad_input,
                      "cannot read " + path + ": " + std::strerror(errno));
  input_batch batch;
  pair_intake intake{line};
  std::string pending;
  char buf[1 << 16];
  auto at = from;   // the next byte to read
  auto next = from; // the byte after the last whole line taken
  while (batch.pairs.size() < batch_pairs && at < to) {
    auto want =
      static_cast<std::size_t>(std::min<std::uint64_t>(sizeof buf, to - at));
    auto n = ::pread(fd, buf, want, static_cast<off_t>(at));
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      break;
    at += static_cast<std::uint64_t>(n);
    pending.append(buf, static_cast<std::size_t>(n));
    std::size_t start = 0, nl;
    while (batch.pairs.size() < batch_pairs
           && (nl = pending.find('\n', start)) != std::string::npos) {
      answer_pair p;
      rejected_line r;
      auto kind = intake.take_stored(
        std::string_view{pending}.substr(start, nl - start), p, r);
      if (kind == pair_intake::kind::pair)
        batch.pairs.push_back(std::move(p));
      else if (kind == pair_intake::kind::rejected)
        batch.rejected.push_back(std::move(r));
      next += nl + 1 - start;
      start = nl + 1;
    }
    pending.erase(0, start);
  }
  ::close(fd);
  return caf::result<input_batch, std::uint64_t, std::uint64_t>(
    std::move(batch), next, intake.lines());
}

// A behavior with an argument: CAF 0.17 spawns an argument-less function
// through a null tuple (UBSan reports the reference binding).
pairs_file_reader_actor::behavior_type
reader_behavior(pairs_file_reader_actor::pointer, std::size_t batch_pairs) {
  return {
    [batch_pairs](read_atom, const std::string& path, std::uint64_t from,
                  std::uint64_t to, std::uint64_t line)
      -> caf::result<input_batch, std::uint64_t, std::uint64_t> {
      return read_lines(path, from, to, line, batch_pairs);
    },
  };
}

} // namespace

pairs_file_reader_actor spawn_pairs_file_reader(caf::actor_system& sys) {
  return sys.spawn<caf::detached>(reader_behavior, reply_pairs);
}

} // namespace ij
