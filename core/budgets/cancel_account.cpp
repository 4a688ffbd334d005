#include "core/budgets/cancel_account.hpp"

#include <algorithm>

#include "core/session/call_route.hpp"

namespace ij {

namespace {

void add_reply(unrecorded_calls& u, const judge_record& rec) {
  ++u.answered;
  u.input_tokens += rec.input_tokens;
  u.output_tokens += rec.output_tokens;
  if (rec.batched) {
    u.batched_input_tokens += rec.input_tokens;
    u.batched_output_tokens += rec.output_tokens;
  }
}

} // namespace

unrecorded_calls& cancel_account::of(const std::string& judge_id) {
  auto& u = by_judge_[judge_id];
  u.judge_id = judge_id;
  return u;
}

void cancel_account::dropped(const std::string& judge_id,
                             const judge_record& rec) {
  call_facts facts{rec.cached, rec.refused_by_breaker, rec.fault,
                   !rec.worker_id.empty()};
  if (route_of(facts) == call_route::sent)
    add_reply(of(judge_id), rec);
}

void cancel_account::awaiting(std::uint64_t token, std::size_t worker,
                              std::string judge_id) {
  awaited_[token] = call{worker, std::move(judge_id)};
}

bool cancel_account::aborted(std::uint64_t token, bool sent) {
  auto i = awaited_.find(token);
  if (i == awaited_.end())
    return false;
  auto& u = of(i->second.judge_id);
  ++(sent ? u.aborted_sent : u.aborted_unsent);
  awaited_.erase(i);
  return true;
}

bool cancel_account::answered(std::uint64_t token, const judge_record& rec) {
  if (rec.fault == fault_kind::aborted)
    return aborted(token, rec.attempts > 0);
  auto i = awaited_.find(token);
  if (i == awaited_.end())
    return false;
  auto judge = std::move(i->second.judge_id);
  awaited_.erase(i);
  dropped(judge, rec);
  return true;
}

void cancel_account::worker_gone(std::size_t worker) {
  for (auto i = awaited_.begin(); i != awaited_.end();) {
    if (i->second.worker != worker) {
      ++i;
      continue;
    }
    ++of(i->second.judge_id).aborted_sent;
    i = awaited_.erase(i);
  }
}

void cancel_account::give_up() {
  for (auto& [token, c] : awaited_)
    ++of(c.judge_id).aborted_sent;
  awaited_.clear();
}

std::vector<unrecorded_calls> cancel_account::result() const {
  std::vector<unrecorded_calls> out;
  out.reserve(by_judge_.size());
  for (auto& [id, u] : by_judge_)
    out.push_back(u);
  return out;
}

void merge_unrecorded(std::vector<unrecorded_calls>& into,
                      const std::vector<unrecorded_calls>& more) {
  for (auto& m : more) {
    auto i =
      std::find_if(into.begin(), into.end(), [&](const unrecorded_calls& u) {
        return u.judge_id == m.judge_id;
      });
    if (i == into.end())
      into.push_back(m);
    else
      *i += m;
  }
}

} // namespace ij
