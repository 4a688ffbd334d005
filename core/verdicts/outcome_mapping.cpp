#include "core/verdicts/outcome_mapping.hpp"

#include <utility>

namespace ij {

equivalence_outcome outcome_of(judge_decision d, bool abstain_as_neither) {
  std::string detail{to_string(d)};
  switch (d) {
    case judge_decision::equivalent:
      return {true, 1.0, std::move(detail), false};
    case judge_decision::different:
      return {false, 1.0, std::move(detail), false};
    case judge_decision::abstain:
      // abstain_as_neither=false takes the safer side: no claim of invariance.
      if (!abstain_as_neither)
        return {false, 0.0, std::move(detail), false};
      return {std::nullopt, 0.0, std::move(detail), false};
    case judge_decision::parse_error: break;
  }
  return {std::nullopt, 0.0, std::move(detail), false};
}

equivalence_outcome absent_outcome() {
  return {std::nullopt, 0.0, "absent", false};
}

equivalence_outcome fault_outcome(std::string error) {
  return {std::nullopt, 0.0, std::move(error), true};
}

equivalence_outcome outcome_of_record(const judge_record& record,
                                      bool abstain_as_neither) {
  if (record.transport_failed)
    return fault_outcome(record.transport_error);
  return outcome_of(record.decision, abstain_as_neither);
}

vote_result absent_result(std::string pair_id, const vote_config& votes) {
  vote_result out;
  out.pair_id = std::move(pair_id);
  out.absent = true;
  out.outcome = absent_outcome();
  out.counts.votes = votes.votes;
  out.counts.min_agreement = votes.min_agreement;
  return out;
}

} // namespace ij
