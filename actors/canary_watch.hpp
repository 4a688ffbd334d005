#pragma once
// A run session's live canaries (issue 10), kept beside the session's own
// state: which canary goes before which real pair (core/canaries/canary_plan),
// the canaries on their way through the vote coordinator, and, when one comes
// back, its result, its audit records and the bias alarms it sets off
// (core/canaries/bias_alarm). Not an actor: the session calls it while
// admitting and while taking voted pairs, so canaries ride the same path as
// real pairs — same coordinator, same judges, same prompt and call options —
// and never reach the item ledger or the pair totals.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "core/canaries/bias_alarm.hpp"
#include "core/canaries/canary_plan.hpp"
#include "messages/audit_entry.hpp"
#include "messages/canary_result.hpp"
#include "messages/judge_info.hpp"
#include "messages/judge_watch.hpp"
#include "messages/vote_job.hpp"

namespace ij {

class canary_watch {
public:
  /// A canary back from its votes.
  struct judged {
    canary_result result;
    /// Its judge_call records, its canary record, then any bias_alarm
    /// records, in that order.
    std::vector<audit_entry> entries;
    /// The alarms this canary set off (action filled in).
    std::vector<bias_alarm_event> alarms;
  };

  /// Names the judge of a worker (by worker id): {name, judge id}.
  using judge_lookup =
    std::function<std::pair<std::string, std::string>(const std::string&)>;

  canary_watch(const canary_settings& settings, std::string run_id);

  bool enabled() const { return settings_.enabled(); }

  /// The canary to send before the real pair at input `position`, as a job
  /// with sequence number `seq`; nullopt when none goes there.
  std::optional<vote_job> before(std::uint64_t position, std::uint64_t seq);

  /// Whether the plan puts a canary before input `position` (placed or
  /// skipped on resume: it takes a sequence number either way).
  bool planned(std::uint64_t position) const {
    return plan_ && plan_->canary_before(position);
  }

  /// Canaries (by id) a resumed run's audit already holds: placed as before,
  /// never sent again.
  void skip(const std::unordered_set<std::string>& ids) { skip_ = ids; }

  /// Whether `seq` is a canary on its way.
  bool owns(std::uint64_t seq) const { return open_.count(seq) != 0; }

  /// Canaries on their way.
  std::size_t open() const { return open_.size(); }

  /// A canary back from the coordinator: precondition owns(vp.seq).
  judged take(voted_pair& vp, const judge_lookup& judge_of);

  /// Canaries judged so far.
  std::uint64_t judged_count() const { return judged_; }

  /// Per judge, its canary results so far.
  std::vector<canary_tally> tallies() const;

  const canary_settings& settings() const { return settings_; }

private:
  struct open_canary {
    std::size_t index;
    std::uint64_t position;
    std::string id;
  };

  canary_settings settings_;
  std::string run_id_;
  std::optional<canary_plan> plan_;
  bias_alarm alarm_;
  std::unordered_map<std::uint64_t, open_canary> open_;
  std::unordered_set<std::string> skip_;
  std::uint64_t placed_ = 0;
  std::uint64_t judged_ = 0;
};

} // namespace ij
