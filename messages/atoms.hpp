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

} // namespace ij
