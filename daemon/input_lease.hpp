#pragma once
// A run's upload side lent to one upload (issue 26, item 4): the run actor
// owns its input (daemon/run_input) and hands it out by message to one
// upload at a time; the upload uses it on its HTTP thread alone and gives it
// back by dropping the lease, whose last reference sends the input home as
// a message. No two threads ever touch an input, and none waits for another
// on a lock: a second upload (or a close) asks and is answered once the
// input is back. A lease dropped anywhere — an upload cut off, an answer
// that came after its request's deadline — still gives the input back.
#include <memory>

#include "daemon/run_input.hpp"
#include "messages/interfaces.hpp"

namespace ij {

struct input_lease {
  input_lease(std::unique_ptr<run_input> in, daemon_run_actor home)
      : input(std::move(in)), owner(std::move(home)) {}
  /// Sends the input back to its owner (when there is one: the lease that
  /// carries it home has none).
  ~input_lease();
  input_lease(const input_lease&) = delete;
  input_lease& operator=(const input_lease&) = delete;

  std::unique_ptr<run_input> input;
  daemon_run_actor owner;
};

/// A lease of `input` from `owner`.
input_lease_ref lend(std::unique_ptr<run_input> input, daemon_run_actor owner);

} // namespace ij
