#include "daemon/run_launch.hpp"

#include <cerrno>
#include <cstring>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "actors/audit_file.hpp"
#include "messages/error.hpp"

namespace ij {

namespace {

std::string run_dir(const std::string& state_dir, const std::string& id) {
  return state_dir + "/runs/" + id;
}

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

// The lines already received, read back so that line numbers and duplicate
// ids go on from there. Rejected lines are records of a few hundred bytes:
// this takes no longer for a huge rejected line.
void read_back(run_input& input, run_totals& totals) {
  int fd = ::open(input.pairs_path.c_str(), O_RDONLY | O_CLOEXEC);
  std::string rest;
  char buf[1 << 16];
  ssize_t n;
  while (fd >= 0 && (n = ::read(fd, buf, sizeof buf)) > 0) {
    rest.append(buf, static_cast<std::size_t>(n));
    std::size_t start = 0, nl;
    while ((nl = rest.find('\n', start)) != std::string::npos) {
      answer_pair p;
      rejected_line r;
      auto kind = input.intake.take_stored(
        std::string_view{rest}.substr(start, nl - start), p, r);
      totals.rejected += kind == pair_intake::kind::rejected;
      totals.accepted += kind == pair_intake::kind::pair;
      start = nl + 1;
    }
    rest.erase(0, start);
  }
  if (fd >= 0)
    ::close(fd);
}

std::shared_ptr<run_launch> launch_of(const std::string& state_dir, run_row row,
                                      run_config config,
                                      std::vector<judge_binding> bindings) {
  auto launch = std::make_shared<run_launch>();
  auto dir = run_dir(state_dir, row.id);
  auto& s = launch->setup;
  s.pairs_path = dir + "/pairs.jsonl";
  s.audit_path = dir + "/audit.jsonl";
  s.config = std::move(config);
  s.row = std::move(row);
  s.input =
    std::make_shared<std::unique_ptr<run_input>>(std::make_unique<run_input>());
  (*s.input)->pairs_path = s.pairs_path;
  launch->bindings = std::move(bindings);
  return launch;
}

} // namespace

run_launch::~run_launch() {
  if (setup.audit_fd >= 0)
    ::close(setup.audit_fd);
}

caf::expected<std::shared_ptr<run_launch>>
prepare_new_run(const std::string& state_dir, run_row row, run_config config,
                std::vector<judge_binding> bindings) {
  auto launch = launch_of(state_dir, std::move(row), std::move(config),
                          std::move(bindings));
  auto& s = launch->setup;
  auto dir = run_dir(state_dir, s.row.id);
  if (::mkdir(dir.c_str(), 0755) != 0)
    return make_error(errc::io_failed,
                      "cannot create " + dir + ": " + std::strerror(errno));
  int fd = ::open(s.pairs_path.c_str(),
                  O_WRONLY | O_CREAT | O_EXCL | O_APPEND | O_CLOEXEC, 0644);
  if (fd < 0)
    return make_error(errc::io_failed, "cannot create " + s.pairs_path + ": "
                                         + std::strerror(errno));
  ::close(fd); // each upload opens it for itself
  auto audit = open_audit_file(s.audit_path);
  if (!audit)
    return std::move(audit.error());
  s.audit_fd = *audit;
  s.row.counts_json = counts_json(s.totals);
  return launch;
}

caf::expected<std::shared_ptr<run_launch>>
prepare_restart(const std::string& state_dir, state_store& store, run_row row,
                run_config config, std::vector<judge_binding> bindings) {
  auto launch = launch_of(state_dir, std::move(row), std::move(config),
                          std::move(bindings));
  launch->fresh = false;
  auto& s = launch->setup;
  auto& input = **s.input;
  auto stored = cut_partial_line(s.pairs_path);
  if (!stored)
    return std::move(stored.error());
  s.stored_bytes = *stored;
  input.bytes = *stored;
  input.closed = s.row.closed;
  read_back(input, s.totals);
  // Lines fsynced but not yet counted when the daemon died are input too.
  s.row.lines = input.intake.lines();
  s.row.accepted = s.totals.accepted;
  for (auto& key : store.verdict_keys(s.row.id))
    s.stored_keys.insert(key);
  s.next_seq = store.last_seq(s.row.id) + 1;
  // Killed before its manifest was written: an empty audit starts afresh.
  struct stat st {};
  if (::stat(s.audit_path.c_str(), &st) == 0 && st.st_size == 0) {
    auto audit = open_audit_file(s.audit_path);
    if (!audit)
      return std::move(audit.error());
    s.audit_fd = *audit;
  } else {
    auto audit = open_audit_for_resume(s.audit_path);
    if (!audit)
      return std::move(audit.error());
    s.resume = std::make_shared<const resume_point>(std::move(audit->point));
    s.audit_fd = audit->fd;
  }
  return launch;
}

} // namespace ij
