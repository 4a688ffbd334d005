#pragma once
// The daemon's claim on its state directory: an exclusive flock(2) on
// DIR/lock, which records the holder's pid, held for the life of the
// process (the kernel releases it when the process ends, however it ends).
// A second daemon on the same directory is refused before it reads or
// writes anything there, so only the owner ever resumes a run or marks one
// failed.
#include <memory>
#include <string>

#include <caf/expected.hpp>

namespace ij {

class state_lock {
public:
  /// Takes the lock on `dir` (which must exist); io_failed naming the
  /// directory and the pid that holds it (or what else failed).
  static caf::expected<std::unique_ptr<state_lock>>
  acquire(const std::string& dir);
  ~state_lock();
  state_lock(const state_lock&) = delete;
  state_lock& operator=(const state_lock&) = delete;

private:
  explicit state_lock(int fd) : fd_(fd) {}
  int fd_;
};

} // namespace ij
