#pragma once
// Decision -> EquivalenceOutcome (SPEC §3).
#include <string>

#include "messages/equivalence_outcome.hpp"
#include "messages/judge_decision.hpp"

namespace ij {

/// EQUIVALENT {true,1}; DIFFERENT {false,1}; ABSTAIN {null,0}, or {false,0}
/// when abstain_as_neither is false; PARSE_ERROR {null,0}.
equivalence_outcome outcome_of(judge_decision d, bool abstain_as_neither = true);

/// {null, 0, "absent"}: A or B absent, the judge is not called.
equivalence_outcome absent_outcome();

/// {null, 0, error}, marked as a fault: never true or false.
equivalence_outcome fault_outcome(std::string error);

} // namespace ij
