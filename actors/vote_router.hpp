#pragma once
// The vote router (issue 10): a panel or a rules-first cascade for one run.
// It stands where a vote coordinator stands for a run whose judges pool
// their votes, and splits each pair into one job per judge it needs; each
// judge has its own vote coordinator (its own votes, tally, deadline and
// budget), and the router combines their results into the pair's. The
// routing rules are core's (core/agreement/panel_rule.hpp,
// core/agreement/cascade_policy.hpp); this actor only moves jobs and results.
//
// Panel: every pair goes to every panel judge at once; when all are back,
// the pair's outcome follows the panel rule and its route is the agreement
// tier. Cascade: every pair goes to the rule judge (one vote: it is
// deterministic); a pair it leaves undecided goes to the LLM judge, whose
// outcome is the pair's (route "fallback"); a rule-decided pair goes to the
// LLM judge too when the audit draws it (route "audited"; the rule judge's
// outcome stays), else it is done (route "rules").
//
// Cancel: each coordinator is cancelled (its workers abort its calls); the
// reply adds their accounts and the records of the parts this router held
// for unfinished pairs, or that reached it after the cancel.
//
// Absent A or B: a result at once, no judge asked (rule I1), as in the
// coordinator. A pair the rule judge did not read as numbers goes to the
// cascade's LLM judge with its non-numeric prompt
// (core/agreement/cascade_policy). A pair with planted-verdict flags (asked
// anyway, on_planted "judge"): a model judge's EQUIVALENT part is not taken
// (core/guard/pair_guard). Results carry every judge's part
// (vote_result::parts), every call's record in part order, and the counts
// summed over the parts.
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include <caf/typed_event_based_actor.hpp>

#include "actors/vote_coordinator.hpp"
#include "core/budgets/cancel_account.hpp"
#include "core/config/run_config.hpp"
#include "messages/interfaces.hpp"

namespace ij {

/// One judge of a panel or a cascade, with the settings of its coordinator.
struct routed_judge {
  std::string name;
  std::string judge_id;
  /// "panel", "rules" or "llm".
  std::string role;
  vote_settings settings;
  /// A rule judge (rules:math, stub:numeric): keeps its word on a pair with
  /// a planted verdict; a model's EQUIVALENT there is not taken.
  bool by_rule = false;
  /// The workers its coordinator uses: those of its exact call settings.
  judge_selection selection;
};

/// What the router does: a panel (judges in panel order) or a cascade
/// (judges [rules, llm]).
struct route_plan {
  std::vector<routed_judge> judges;
  std::optional<panel_rule> panel;
  std::optional<cascade_config> cascade;
};

/// The plan a configuration with a panel or a cascade gives, with `base` as
/// every judge's vote settings (budgets included); nullopt without either.
std::optional<route_plan> route_plan_of(const run_config& cfg,
                                        const vote_settings& base);

struct vote_router_state {
  static inline const char* name = "vote-router";

  /// A pair on its way through its judges.
  struct open_pair {
    answer_pair pair;
    /// Results so far, by judge index in the plan.
    std::vector<std::optional<vote_result>> parts;
    std::size_t waiting = 0;
    bool audited = false;
    /// Its planted-verdict flags, when its judges are asked anyway.
    std::vector<std::string> flags;
    /// The cascade's LLM stage asks with the non-numeric prompt.
    bool non_numeric = false;
  };

  /// A job given to judge `judge` for pair `seq`.
  struct stage {
    std::uint64_t seq;
    std::size_t judge;
  };

  route_plan plan;
  vote_sink_actor sink;
  std::vector<vote_coordinator_actor> coordinators;
  std::unordered_map<std::uint64_t, open_pair> pairs;
  /// Our own job numbers, one per job given to a coordinator.
  std::unordered_map<std::uint64_t, stage> stages;
  std::uint64_t next_stage = 1;
  /// Jobs to send per coordinator, and results to send to the sink, at the
  /// end of the current message.
  std::vector<std::vector<vote_job>> outgoing;
  std::vector<voted_pair> done;
  bool cancelled = false;
  /// After a cancel: the records of the parts of unfinished pairs (those
  /// held here, and those still arriving from the coordinators).
  cancel_account cancelled_calls;
};

/// Spawns one vote coordinator per judge of `plan` (linked: they end with
/// the router), each over the workers of its judge.
vote_router_actor::behavior_type
vote_router(vote_router_actor::stateful_pointer<vote_router_state> self,
            vote_sink_actor sink, judge_directory_actor directory,
            std::vector<worker_entry> workers, route_plan plan);

} // namespace ij
