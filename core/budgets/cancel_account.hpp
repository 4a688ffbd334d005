#pragma once
// What a cancel did to one run's calls (issue 26), counted per judge id for
// the calls no judge_call record will show (messages/unrecorded_calls.hpp):
// replies that came back for pairs the cancel left unfinished, and the calls
// the cancel aborted. The vote coordinator names the calls it had in flight
// when it was cancelled (`awaiting`); each is settled by its worker's answer
// to the cancel (aborted, sent or not), by its reply if that came first, or,
// when the worker is gone or the wait is over, as sent (the backend may have
// seen it). Pure; the actor owns the messages and the timer.
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

#include "messages/judge_record.hpp"
#include "messages/unrecorded_calls.hpp"

namespace ij {

class cancel_account {
public:
  /// A record of an unfinished pair, dropped with it: a call answered when
  /// it was sent (core/session/call_route.hpp), else nothing.
  void dropped(const std::string& judge_id, const judge_record& rec);

  /// Call `token` of worker `worker`, serving `judge_id`, was in flight at
  /// the cancel: it is settled by one of the three below.
  void awaiting(std::uint64_t token, std::size_t worker, std::string judge_id);
  /// The worker aborted it (`sent`: its request had reached the backend).
  /// False when the token was not awaited.
  bool aborted(std::uint64_t token, bool sent);
  /// The worker's record of it: of fault `aborted`, as aborted() (sent
  /// when it had attempts); else its reply came before the abort took:
  /// answered, its tokens counted.
  bool answered(std::uint64_t token, const judge_record& rec);
  /// Worker `worker` is gone: its calls count as sent and aborted.
  void worker_gone(std::size_t worker);
  /// The wait is over: every call still awaited counts as sent and aborted.
  void give_up();

  bool settled() const { return awaited_.empty(); }
  std::size_t awaited() const { return awaited_.size(); }

  /// The account, one entry per judge id with anything in it.
  std::vector<unrecorded_calls> result() const;

private:
  struct call {
    std::size_t worker;
    std::string judge_id;
  };
  unrecorded_calls& of(const std::string& judge_id);

  std::unordered_map<std::uint64_t, call> awaited_;
  std::map<std::string, unrecorded_calls> by_judge_;
};

/// Adds `more` into `into`, one entry per judge id.
void merge_unrecorded(std::vector<unrecorded_calls>& into,
                      const std::vector<unrecorded_calls>& more);

} // namespace ij
