#pragma once
// Whether a judge host (its hello) or one of its workers can vote with this
// process: the same prompts (the canonical id and SHA-256, every built-in
// prompt's bytes) and the same message types, so that a remote vote asks
// exactly what a local one asks and both ends read every message the same
// way. A worker's prompts are its judge's: a built-in id must have this
// build's bytes; a declared prompt is part of the judge id (id and
// SHA-256), which a run matches with its own judges'. Pure.
#include <caf/error.hpp>

#include "messages/host_hello.hpp"
#include "messages/judge_info.hpp"

namespace ij {

/// incompatible_peer naming the field that differs, with both values.
caf::error check_compatible(const host_hello& own, const host_hello& theirs);
caf::error check_compatible(const host_hello& own, const judge_info& worker);

} // namespace ij
