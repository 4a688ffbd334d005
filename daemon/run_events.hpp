#pragma once
// Followers waiting for a run's next verdict lines or its end (GET
// /v1/runs/{id}/verdicts?wait_ms=N): the state store's writer signals each
// run it changed (lines stored, an end saved) and every follower waiting on
// that run is woken once, so that a follower hears of a verdict as soon as
// it can be read instead of polling for it.
//
// A follower reads the run's version before it reads the lines, then waits
// from that version: a change between its read and its wait wakes it at
// once, never lost.
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

namespace ij {

class run_events {
public:
  using wake_fn = std::function<void()>;

  /// How many times `run` has changed so far.
  std::uint64_t version(const std::string& run) const;

  /// A follower's place in line: while it is held, its wake is due at the
  /// run's next change; dropped (the follower was answered by its deadline,
  /// or left), the wake is forgotten.
  using ticket = std::shared_ptr<wake_fn>;

  /// Calls `wake` once: at once (on this thread, returning no ticket) when
  /// `run` has changed since `seen`, else at its next change (on the thread
  /// that signals it) if the returned ticket is still held then.
  [[nodiscard]] ticket wait(const std::string& run, std::uint64_t seen,
                            wake_fn wake);

  /// `run` has changed: wakes its followers (outside the lock).
  void changed(const std::string& run);

  /// Followers waiting now (their tickets held).
  std::size_t waiting() const;

private:
  struct entry {
    std::uint64_t version = 0;
    std::vector<std::weak_ptr<wake_fn>> waiting;
  };
  mutable std::mutex mtx_;
  std::unordered_map<std::string, entry> runs_;
};

} // namespace ij
