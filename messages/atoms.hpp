#pragma once
// Every atom of the protocol, in one place (at most 10 characters each).
#include <caf/atom.hpp>

namespace ij {

using start_atom = caf::atom_constant<caf::atom("start")>;
using finish_atom = caf::atom_constant<caf::atom("finish")>;
using item_total_atom = caf::atom_constant<caf::atom("itemtotal")>;
using rejected_atom = caf::atom_constant<caf::atom("rejected")>;
using status_atom = caf::atom_constant<caf::atom("status")>;
using flush_atom = caf::atom_constant<caf::atom("flush")>;
/// The vote coordinator's own timer: votes past their deadline are faults.
using deadline_atom = caf::atom_constant<caf::atom("deadline")>;
/// Asks the audit logger for the chain's final hash (of the last line).
using final_hash_atom = caf::atom_constant<caf::atom("finalhash")>;
/// A judge actor's own note that one adapter call has come back.
using call_done_atom = caf::atom_constant<caf::atom("calldone")>;

} // namespace ij
