#include "messages/registration.hpp"

#include <algorithm>

#include "messages/answer_pair.hpp"
#include "messages/audit_entry.hpp"
#include "messages/canary_result.hpp"
#include "messages/equivalence_outcome.hpp"
#include "messages/error.hpp"
#include "messages/fault_kind.hpp"
#include "messages/host_event.hpp"
#include "messages/host_hello.hpp"
#include "messages/interfaces.hpp"
#include "messages/judge_call.hpp"
#include "messages/judge_decision.hpp"
#include "messages/judge_info.hpp"
#include "messages/judge_record.hpp"
#include "messages/judge_request.hpp"
#include "messages/judge_watch.hpp"
#include "messages/run_events.hpp"
#include "messages/run_figures.hpp"
#include "messages/run_input.hpp"
#include "messages/run_note.hpp"
#include "messages/run_row.hpp"
#include "messages/run_summary.hpp"
#include "messages/unrecorded_calls.hpp"
#include "messages/verdict.hpp"
#include "messages/verdict_batch.hpp"
#include "messages/vote_job.hpp"
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
  cfg.add_message_type<answer_pair>("ij.answer_pair2");
  cfg.add_message_type<equivalence_outcome>("ij.equivalence_outcome");
  cfg.add_message_type<judge_request>("ij.judge_request2");
  cfg.add_message_type<judge_record>("ij.judge_record");
  cfg.add_message_type<vote_counts>("ij.vote_counts");
  cfg.add_message_type<vote_result>("ij.vote_result2");
  cfg.add_message_type<single_verdict>("ij.single_verdict");
  cfg.add_message_type<statistical_params>("ij.statistical_params");
  cfg.add_message_type<statistical_verdict>("ij.statistical_verdict");
  cfg.add_message_type<judge_usage>("ij.judge_usage");
  cfg.add_message_type<host_usage>("ij.host_usage");
  cfg.add_message_type<fault_reason>("ij.fault_reason");
  cfg.add_message_type<judge_part>("ij.judge_part");
  cfg.add_message_type<judge_confusion>("ij.judge_confusion");
  cfg.add_message_type<panel_summary>("ij.panel_summary");
  cfg.add_message_type<cascade_summary>("ij.cascade_summary");
  cfg.add_message_type<judge_spend>("ij.judge_spend");
  cfg.add_message_type<canary_tally>("ij.canary_tally");
  cfg.add_message_type<bias_alarm_event>("ij.bias_alarm_event");
  cfg.add_message_type<position_bias_rate>("ij.position_bias_rate");
  cfg.add_message_type<run_summary>("ij.run_summary");
  cfg.add_message_type<audit_entry>("ij.audit_entry");
  cfg.add_message_type<decided_pair>("ij.decided_pair");
  cfg.add_message_type<audit_batch>("ij.audit_batch");
  // Judges as services: what crosses to and from a worker, local or remote.
  cfg.add_message_type<judge_info>("ij.judge_info3");
  cfg.add_message_type<judge_call>("ij.judge_call");
  cfg.add_message_type<judge_reply>("ij.judge_reply2");
  cfg.add_message_type<worker_update>("ij.worker_update2");
  cfg.add_message_type<worker_status>("ij.worker_status2");
  cfg.add_message_type<worker_entry>("ij.worker_entry");
  cfg.add_message_type<judge_worker_actor>("ij.judge_worker_actor");
  cfg.add_message_type<judge_client_actor>("ij.judge_client_actor");
  cfg.add_message_type<directory_listener_actor>("ij.directory_listener_actor");
  cfg.add_message_type<judge_directory_actor>("ij.judge_directory_actor");
  // Judge hosts.
  cfg.add_message_type<host_hello>("ij.host_hello2");
  cfg.add_message_type<host_event_kind>("ij.host_event_kind");
  cfg.add_message_type<host_event>("ij.host_event");
  cfg.add_message_type<judge_host_actor>("ij.judge_host_actor");
  cfg.add_message_type<host_connector_actor>("ij.host_connector_actor");
  // A run and its client.
  cfg.add_message_type<rejected_line>("ij.rejected_line");
  cfg.add_message_type<input_batch>("ij.input_batch");
  cfg.add_message_type<vote_job>("ij.vote_job2");
  cfg.add_message_type<voted_pair>("ij.voted_pair");
  cfg.add_message_type<run_note>("ij.run_note");
  cfg.add_message_type<unrecorded_calls>("ij.unrecorded_calls");
  cfg.add_message_type<run_started>("ij.run_started");
  cfg.add_message_type<worker_load>("ij.worker_load");
  cfg.add_message_type<run_progress>("ij.run_progress");
  cfg.add_message_type<canary_result>("ij.canary_result");
  cfg.add_message_type<run_actor>("ij.run_actor");
  cfg.add_message_type<run_listener_actor>("ij.run_listener_actor");
  // The daemon (one process: its actors and HTTP threads).
  cfg.add_message_type<run_row>("ij.run_row");
  cfg.add_message_type<run_end_record>("ij.run_end_record");
  cfg.add_message_type<verdict_batch>("ij.verdict_batch");
  cfg.add_message_type<run_figures>("ij.run_figures");
  cfg.add_message_type<removed_run>("ij.removed_run");
  cfg.add_message_type<daemon_run_actor>("ij.daemon_run_actor");
}

std::vector<std::string>
registered_message_types(const caf::actor_system_config& cfg) {
  std::vector<std::string> out;
  out.reserve(cfg.value_factories_by_name.size());
  for (auto& kv : cfg.value_factories_by_name)
    out.push_back(kv.first);
  std::sort(out.begin(), out.end());
  return out;
}

} // namespace ij
