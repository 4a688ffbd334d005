#include "daemon/input_lease.hpp"

#include <caf/send.hpp>

namespace ij {

input_lease::~input_lease() {
  if (input && owner)
    caf::anon_send(owner, upload_atom::value,
                   input_lease_ref{std::make_shared<input_lease>(
                     std::move(input), daemon_run_actor{})});
}

input_lease_ref lend(std::unique_ptr<run_input> input, daemon_run_actor owner) {
  return input_lease_ref{
    std::make_shared<input_lease>(std::move(input), std::move(owner))};
}

} // namespace ij
