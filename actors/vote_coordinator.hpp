#pragma once
// The vote coordinator (SPEC §7, §10): multiVoteJudge over one or more judge
// actors.
//
// Per pair: absent A or B -> vote_result{absent} at once, no call. Otherwise
// votes go out in waves: each wave asks for just as many votes as could still
// fix the outcome (k minus the larger side so far, at most the votes left),
// and the next wave goes out only when the previous one is back and the
// tally is not fixed yet. So N=5, k=3 with three agreeing votes costs three
// calls, and the two votes not cast are recorded in counts.not_cast. Every
// vote is one request with the vote deadline: no answer in time is a fault
// ("deadline exceeded"), like a transport failure. Deadlines are kept here,
// not as CAF request timeouts: the coordinator holds one timer, armed for the
// oldest outstanding vote, so memory stays bounded by the votes in flight
// (CAF 0.17 keeps each request timeout's clock entry for the whole deadline,
// answered or not). A reply that arrives after its vote expired is dropped.
//
// Votes go to the least-loaded judge (fewest votes outstanding) that is below
// its capacity, ties broken round-robin; when every judge is full, votes wait
// in a FIFO backlog here. Vote i carries the chosen judge's base seed + i. With order
// balancing, odd votes swap A and B (the judge swaps NUMERIC_A/B back).
//
// Outcome: with votes = 1 the single record maps as in SPEC §3, so ABSTAIN
// with abstain_as_neither = false is {false, 0}. With votes > 1 the tally
// rule of §7 decides and ABSTAIN never counts toward either side, whatever
// abstain_as_neither says (turning abstentions into DIFFERENT votes would let
// a judge that cannot read the answers outvote one that can).
#include <chrono>
#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include <caf/actor_clock.hpp>
#include <caf/typed_response_promise.hpp>

#include "core/vote_tally.hpp"
#include "messages/interfaces.hpp"

namespace ij {

/// A judge actor as the coordinator sees it, with what records need when the
/// judge itself cannot answer (deadline).
struct vote_judge {
  judge_actor actor;
  std::string adapter_id;
  std::string model;
  double temperature = 0.0;
  std::optional<std::int64_t> base_seed;
  /// Votes the coordinator keeps outstanding at this judge (its configured
  /// in-flight cap): further votes wait here, so that a vote's deadline runs
  /// from when the judge can take it, not from when it joined a queue.
  std::uint32_t capacity = 4;
};

struct vote_settings {
  vote_config votes;
  bool order_balancing = false;
  bool abstain_as_neither = true;
  std::chrono::milliseconds deadline{120000};
};

struct vote_coordinator_state {
  static inline const char* name = "vote-coordinator";

  struct job {
    answer_pair pair;
    vote_tally tally;
    /// Votes asked for so far (sent or in the backlog).
    std::uint32_t asked = 0;
    /// Votes sent so far: the next vote's index.
    std::uint32_t dispatched = 0;
    /// Votes asked for and not back yet (sent or in the backlog).
    std::uint32_t in_flight = 0;
    std::vector<judge_record> records;
    caf::typed_response_promise<vote_result> promise;
  };

  std::vector<vote_judge> judges;
  /// Votes outstanding per judge, for least-loaded dispatch.
  std::vector<std::uint32_t> load;
  std::size_t next_judge = 0;
  /// Jobs waiting for a judge with room, one entry per vote, oldest first.
  std::deque<std::uint64_t> backlog;
  vote_settings settings;
  std::unordered_map<std::uint64_t, job> jobs;
  std::uint64_t next_job = 1;

  /// A vote sent to a judge and not answered yet.
  struct pending_vote {
    std::uint64_t job;
    std::size_t judge;
    /// The request without its answers, for the deadline record.
    judge_request meta;
    std::int64_t started_ms;
    caf::actor_clock::time_point due;
  };
  /// Outstanding votes by token; a token absent here was answered or expired.
  std::unordered_map<std::uint64_t, pending_vote> pending;
  /// Tokens in dispatch order, which is deadline order (one deadline for all).
  std::deque<std::uint64_t> by_due;
  std::uint64_t next_token = 1;
  /// Whether a deadline_atom is on its way to us.
  bool timer_armed = false;
};

/// Precondition: at least one judge, settings.votes valid.
vote_coordinator_actor::behavior_type
vote_coordinator(vote_coordinator_actor::stateful_pointer<vote_coordinator_state>
                   self,
                 std::vector<vote_judge> judges, vote_settings settings);

} // namespace ij
