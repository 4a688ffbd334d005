#include "messages/registration.hpp"

#include "messages/answer_pair.hpp"
#include "messages/audit_entry.hpp"
#include "messages/equivalence_outcome.hpp"
#include "messages/error.hpp"
#include "messages/fault_kind.hpp"
#include "messages/interfaces.hpp"
#include "messages/judge_decision.hpp"
#include "messages/judge_record.hpp"
#include "messages/judge_request.hpp"
#include "messages/run_summary.hpp"
#include "messages/verdict.hpp"
#include "messages/vote_result.hpp"

namespace ij {

void add_message_types(caf::actor_system_config& cfg) {
  // The project's errors render in plain words wherever CAF renders them.
  cfg.add_error_category(caf::atom("ij"), [](std::uint8_t code, caf::atom_value,
                                             const caf::message& ctx) {
    return render_error(caf::error{code, caf::atom("ij"), ctx});
  });
  // add_message_type<T> also registers std::vector<T>.
  cfg.add_message_type<judge_decision>("ij.judge_decision");
  cfg.add_message_type<fault_kind>("ij.fault_kind");
  cfg.add_message_type<verdict_kind>("ij.verdict_kind");
  cfg.add_message_type<verdict_rule>("ij.verdict_rule");
  cfg.add_message_type<answer_pair>("ij.answer_pair");
  cfg.add_message_type<equivalence_outcome>("ij.equivalence_outcome");
  cfg.add_message_type<judge_request>("ij.judge_request");
  cfg.add_message_type<judge_record>("ij.judge_record");
  cfg.add_message_type<vote_counts>("ij.vote_counts");
  cfg.add_message_type<vote_result>("ij.vote_result");
  cfg.add_message_type<single_verdict>("ij.single_verdict");
  cfg.add_message_type<statistical_params>("ij.statistical_params");
  cfg.add_message_type<statistical_verdict>("ij.statistical_verdict");
  cfg.add_message_type<judge_usage>("ij.judge_usage");
  cfg.add_message_type<run_summary>("ij.run_summary");
  cfg.add_message_type<audit_entry>("ij.audit_entry");
  cfg.add_message_type<audit_batch>("ij.audit_batch");
}

} // namespace ij
