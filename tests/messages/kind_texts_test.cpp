// The enumerations whose texts are written in files, the state database and
// the API (issue 30): each value's text reads back as that value, the texts
// are the ones files already hold, and any other text is refused.
#include <set>
#include <string>

#include <catch2/catch.hpp>

#include "messages/alarm_action.hpp"
#include "messages/audit_type.hpp"
#include "messages/batch_step.hpp"
#include "messages/run_state.hpp"
#include "messages/verdict.hpp"

using namespace ij;

namespace {

template <class E, std::size_t N, class From>
void check_texts(const E (&all)[N], From from,
                 const std::set<std::string>& texts) {
  std::set<std::string> seen;
  for (auto v : all) {
    auto text = std::string{to_string(v)};
    INFO(text);
    CHECK(from(text) == v);
    seen.insert(text);
  }
  CHECK(seen == texts); // one text each, none shared, none changed
  for (auto bad : {"", "bogus", " done", "DONE", "stop_run"})
    CHECK_FALSE(from(bad));
}

} // namespace

TEST_CASE(
  "run states: every state reads back from its text, others are refused") {
  check_texts(all_run_states, run_state_from_string,
              {"open", "running", "done", "cancelled", "failed"});
  CHECK_FALSE(final_state(run_state::open));
  CHECK_FALSE(final_state(run_state::running));
  CHECK(final_state(run_state::done));
  CHECK(final_state(run_state::cancelled));
  CHECK(final_state(run_state::failed));
}

TEST_CASE(
  "alarm actions: every action reads back from its text, others are refused") {
  check_texts(all_alarm_actions, alarm_action_from_string,
              {"warn", "stop-judge", "stop-run"});
}

TEST_CASE("audit record types: every type reads back from its text, others are "
          "refused") {
  check_texts(all_audit_types, audit_type_from_string,
              {"manifest", "judge_call", "vote", "verdict", "item_verdict",
               "rejected", "run_end", "resumed", "cascade_disagreement",
               "batch", "canary", "bias_alarm", "host", "vote_moved",
               "late_reply"});
}

TEST_CASE("batch steps and verdict kinds: each reads back from its text") {
  check_texts(all_batch_steps, batch_step_from_string,
              {"pending", "submitted", "ended"});
  check_texts(all_verdict_kinds, verdict_kind_from_string,
              {"INVARIANT", "VIOLATED", "NEITHER"});
}
