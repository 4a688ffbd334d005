#pragma once
// Decision -> EquivalenceOutcome (SPEC §3).
#include <string>

#include "core/voting/vote_tally.hpp"
#include "messages/equivalence_outcome.hpp"
#include "messages/judge_decision.hpp"
#include "messages/judge_record.hpp"
#include "messages/vote_result.hpp"

namespace ij {

/// EQUIVALENT {true,1}; DIFFERENT {false,1}; ABSTAIN {null,0}, or {false,0}
/// when abstain_as_neither is false; PARSE_ERROR {null,0}.
equivalence_outcome outcome_of(judge_decision d,
                               bool abstain_as_neither = true);

/// {null, 0, "absent"}: A or B absent, the judge is not called.
equivalence_outcome absent_outcome();

/// {null, 0, error}, marked as a fault: never true or false.
equivalence_outcome fault_outcome(std::string error);

/// The outcome a record stands for: a transport failure is a fault carrying
/// its error; otherwise outcome_of(decision, abstain_as_neither).
equivalence_outcome outcome_of_record(const judge_record& record,
                                      bool abstain_as_neither);

/// The result of a pair with A or B absent: no vote cast, the absent
/// outcome, and the votes it would have had under `votes`.
vote_result absent_result(std::string pair_id, const vote_config& votes);

} // namespace ij
