#pragma once
// Pointers that only ever travel between the actors and HTTP threads of one
// daemon process, never across hosts: what a new run is launched with
// (daemon/run_launch.hpp) and a run's upload side lent to one upload at a
// time (daemon/input_lease.hpp). Their types are complete only in daemon/;
// CAF carries them without serializing (CAF_ALLOW_UNSAFE_MESSAGE_TYPE, for
// local-only pointer payloads; SPEC §10's messages between hosts are all
// inspected and registered).
#include <memory>

#include <caf/allowed_unsafe_message_type.hpp>

namespace ij {

struct run_launch;
struct input_lease;

/// A run to start: its row, configuration, bound judges, files.
struct run_launch_ref {
  std::shared_ptr<run_launch> ptr;
};

/// A run's upload side, lent to one upload: dropping the last reference
/// gives it back to the run (daemon/input_lease.hpp).
struct input_lease_ref {
  std::shared_ptr<input_lease> ptr;
};

} // namespace ij

CAF_ALLOW_UNSAFE_MESSAGE_TYPE(ij::run_launch_ref)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(ij::input_lease_ref)
