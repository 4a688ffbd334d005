#pragma once
// The vote coordinator's scheduling (actors/vote_coordinator), pure: which
// votes wait for a credit (the backlog), which worker takes the next one,
// the credits and demand of each worker, every vote's deadline and the one
// timer for them, votes moved from a worker that left (failover) and the
// wait for a worker when none is left, and the judges' budgets. The actor
// owns the messages and the votes' tallies; it asks this class what to
// send where, and when.
//
// A worker is used under credits it granted: one call per credit, to the
// alive worker with a credit and the fewest of this run's calls outstanding
// (ties round-robin for waiting votes). Each vote sent has the deadline from
// then; deadlines are kept in the order they were set (one deadline for all),
// so the oldest is the next due. A vote a worker queued (issue 31: sent
// ahead over the round trip, waiting there for a slot) has no deadline until
// the worker says it started; it counts as outstanding at that worker (its
// credits, the choice of worker, a failover all see it). Time is CAF's actor
// clock's (std::chrono::steady_clock), passed in: nothing here reads a clock.
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/budgets/judge_budget.hpp"
#include "messages/judge_request.hpp"

namespace ij {

using schedule_time = std::chrono::steady_clock::time_point;

/// A worker as one run's schedule sees it.
struct scheduled_worker {
  std::string judge_id;
  /// Credits granted and not used yet.
  std::uint32_t credits = 0;
  /// This run's calls sent and not answered (queued at the worker or not).
  std::uint32_t outstanding = 0;
  /// Of those, the ones waiting in the worker's queue for a slot.
  std::uint32_t queued = 0;
  /// The capacity the worker last reported.
  std::uint32_t capacity = 0;
  /// The demand last announced to it, less the credits it granted since
  /// (the worker counts it down the same way).
  std::uint32_t announced = 0;
  bool alive = true;
  /// This run's calls the worker answered, and those that were faults.
  std::uint64_t served = 0;
  std::uint64_t faults = 0;
};

/// A vote sent to a worker and not answered yet.
struct pending_vote {
  /// The call's token (a reply names it).
  std::uint64_t token;
  std::uint64_t seq;
  std::size_t worker;
  /// The request without its answers, for a fault record or a move.
  judge_request meta;
  std::int64_t started_ms;
  schedule_time due;
  /// Waiting in its worker's queue: no deadline until it starts.
  bool queued = false;
};

/// A vote taken from a worker that left, waiting for another worker of the
/// same judge (its request keeps vote index, seed and swap).
struct moved_vote {
  std::uint64_t seq;
  judge_request meta;
  std::string judge_id;
  schedule_time due;
};

/// The schedule over workers kept elsewhere: linked_vote_schedule below
/// holds them, each with what the actor keeps of it.
class vote_schedule {
public:
  vote_schedule() = default;
  vote_schedule(std::chrono::milliseconds deadline,
                std::chrono::milliseconds failover_wait,
                std::unordered_map<std::string, budget_meter> budgets);
  virtual ~vote_schedule() = default;

  // --- Workers --------------------------------------------------------------

  /// A worker that left joins again (as it describes itself now): alive, no
  /// credits, no demand told.
  void rejoin(std::size_t wi, std::string judge_id);
  scheduled_worker& worker(std::size_t wi) { return slot(wi); }
  const scheduled_worker& worker(std::size_t wi) const { return slot(wi); }
  std::size_t workers() const { return slot_count(); }
  bool any_alive() const;

  /// A worker's update: `credits` more, the capacity it reports now.
  void grant(std::size_t wi, std::uint32_t credits, std::uint32_t capacity);

  /// Who takes the oldest waiting vote: the alive worker with a credit, the
  /// fewest of our calls outstanding and its judge within budget, ties
  /// round-robin; nullopt when none has a credit.
  std::optional<std::size_t> pick_for_waiting();
  /// Who takes a moved vote: an alive worker of its judge with a credit and
  /// the fewest of our calls outstanding (its call was counted against the
  /// budget when first made); nullopt when none.
  std::optional<std::size_t> pick_for_moved(const std::string& judge_id) const;

  // --- Budgets --------------------------------------------------------------

  /// The meter of a judge; nullptr when it has no budget.
  budget_meter* meter(const std::string& judge_id);
  bool at_budget(std::size_t wi) const;
  /// An alive worker whose judge is at its budget, when every alive
  /// worker's judge is; nullopt while some alive worker may still be called.
  std::optional<std::size_t> all_at_budget() const;

  // --- The backlog ----------------------------------------------------------

  /// `votes` more votes of job `seq` wait for a credit.
  void wait(std::uint64_t seq, std::uint32_t votes);
  bool backlog_empty() const { return backlog_.empty(); }
  /// The oldest waiting vote's job; precondition: !backlog_empty().
  std::uint64_t take_waiting();

  // --- Votes sent and answered ----------------------------------------------

  /// A vote of job `seq` sent to worker `wi` under one of its credits, at
  /// `now`: it is due after the deadline. Returns the call's token.
  std::uint64_t sent(std::uint64_t seq, std::size_t wi, judge_request meta,
                     std::int64_t started_ms, schedule_time now);
  /// Whether `token` is a vote still outstanding.
  bool outstanding(std::uint64_t token) const {
    return pending_.count(token) != 0;
  }
  /// A vote answered by worker `wi` (`fault`: the record is one): its job's
  /// seq; nullopt when it had expired or moved (the reply is late).
  std::optional<std::uint64_t> answered(std::uint64_t token, std::size_t wi,
                                        bool fault);
  /// Worker `wi` queued vote `token` (issue 31): its deadline waits.
  void hold(std::uint64_t token, std::size_t wi);
  /// Worker `wi` started queued vote `token` at `now`: due a deadline later.
  void start(std::uint64_t token, std::size_t wi, schedule_time now);
  /// The next vote past its deadline at `now`, taken out; nullopt if none.
  std::optional<pending_vote> next_expired(schedule_time now);
  /// The votes outstanding at worker `wi`, oldest first, taken out (it left,
  /// or its judge was stopped).
  std::vector<pending_vote> take_outstanding(std::size_t wi);

  // --- Failover -------------------------------------------------------------

  /// A vote taken from a worker that left waits for another worker of
  /// `judge_id` until the failover wait from `now` is over.
  void move(pending_vote vote, std::string judge_id, schedule_time now);
  /// Whether a moved vote waits for a worker of this judge.
  bool wants_moved(const std::string& judge_id) const;
  /// Moved votes go to a worker of their judge with a credit, oldest first,
  /// through `send(moved_vote&, worker index)`; the others keep waiting.
  template <class Send>
  void place_moved(Send send) {
    if (moved_.empty())
      return; // the common case: no deque made per message
    std::deque<moved_vote> waiting;
    while (!moved_.empty()) {
      auto m = std::move(moved_.front());
      moved_.pop_front();
      if (auto wi = pick_for_moved(m.judge_id))
        send(m, *wi);
      else
        waiting.push_back(std::move(m));
    }
    moved_ = std::move(waiting);
  }
  /// The oldest moved vote whose wait is over at `now`, taken out.
  std::optional<moved_vote> next_moved_expired(schedule_time now);

  /// Notes when votes wait and no worker at all is alive (the failover wait
  /// runs from then), and when that is over.
  void track_starvation(schedule_time now);
  /// Whether the votes waiting have waited the failover wait for any worker
  /// at `now` (the wait then starts afresh).
  bool starvation_over(schedule_time now);

  // --- Credits and demand ---------------------------------------------------

  /// Votes waiting (backlog and moved) beyond the credits held: the demand
  /// to announce to every alive worker.
  std::uint32_t wanted() const;
  /// Credits of worker `wi` nothing waits for, given back (0: keep them).
  std::uint32_t unneeded_credits(std::size_t wi);
  /// The demand to announce to worker `wi` when it changed.
  std::optional<std::uint32_t> demand_change(std::size_t wi,
                                             std::uint32_t wanted);
  /// We want nothing more from worker `wi`: its credits (to give back) and
  /// whether it must hear a zero demand; both are then zero.
  struct letting_go {
    std::uint32_t credits;
    bool zero_demand;
  };
  letting_go let_go(std::size_t wi);

  // --- Time -----------------------------------------------------------------

  /// The earliest time something is due: the oldest outstanding vote's
  /// deadline, the oldest moved vote's wait, the end of a wait for any
  /// worker.
  std::optional<schedule_time> next_due() const;
  /// When to arm the one timer (nullopt: the timer on its way is early
  /// enough, or nothing is due); the timer is then armed for then.
  std::optional<schedule_time> timer_to_arm();
  /// The timer fired at `now`.
  void timer_fired(schedule_time now);

  /// Drops every vote (the run was cancelled); workers stay.
  void clear();

protected:
  vote_schedule(const vote_schedule&) = default;
  vote_schedule(vote_schedule&&) = default;
  vote_schedule& operator=(const vote_schedule&) = default;
  vote_schedule& operator=(vote_schedule&&) = default;

private:
  /// The workers, by index (linked_vote_schedule's storage).
  virtual scheduled_worker& slot(std::size_t wi) = 0;
  virtual const scheduled_worker& slot(std::size_t wi) const = 0;
  virtual std::size_t slot_count() const = 0;

  template <class Eligible>
  std::optional<std::size_t> pick(std::size_t from, Eligible eligible) const;

  std::chrono::milliseconds deadline_{120000};
  std::chrono::milliseconds failover_wait_{30000};
  std::unordered_map<std::string, budget_meter> budgets_;
  /// Where the round-robin over workers goes on.
  std::size_t next_worker_ = 0;
  /// Votes waiting for a credit, one entry per vote (job seq), oldest first.
  std::deque<std::uint64_t> backlog_;
  /// Outstanding votes by token; a token absent here was answered or expired.
  std::unordered_map<std::uint64_t, pending_vote> pending_;
  /// Deadlines in the order they were set, which is their order (one
  /// deadline for all): an entry whose vote was answered, queued or given
  /// another deadline since is stale and skipped.
  struct due_entry {
    std::uint64_t token;
    schedule_time due;
  };
  std::deque<due_entry> by_due_;
  bool current(const due_entry& e) const;
  void drop_stale();
  std::uint64_t next_token_ = 1;
  /// Moved votes, oldest first (their waits end in this order).
  std::deque<moved_vote> moved_;
  /// Since when no worker is alive while votes wait.
  std::optional<schedule_time> starved_since_;
  /// Whether a timer is on its way, and when it fires.
  bool timer_armed_ = false;
  schedule_time timer_at_;
};

/// A schedule whose workers each carry the actor's `Link` (its handle, its
/// description, ...): one record per worker, so that nothing else is kept
/// at the schedule's indexes.
template <class Link>
class linked_vote_schedule final : public vote_schedule {
public:
  struct entry : scheduled_worker {
    Link link;
  };

  using vote_schedule::vote_schedule;

  /// A new worker of `judge_id`; its index.
  std::size_t add_worker(std::string judge_id, std::uint32_t capacity,
                         Link link = {}) {
    entry e;
    e.judge_id = std::move(judge_id);
    e.capacity = capacity;
    e.link = std::move(link);
    entries_.push_back(std::move(e));
    return entries_.size() - 1;
  }

  Link& link(std::size_t wi) { return entries_[wi].link; }
  const Link& link(std::size_t wi) const { return entries_[wi].link; }

private:
  scheduled_worker& slot(std::size_t wi) override { return entries_[wi]; }
  const scheduled_worker& slot(std::size_t wi) const override {
    return entries_[wi];
  }
  std::size_t slot_count() const override { return entries_.size(); }

  std::vector<entry> entries_;
};

} // namespace ij
