#include "core/voting/vote_schedule.hpp"

#include <algorithm>
#include <utility>

namespace ij {

vote_schedule::vote_schedule(
  std::chrono::milliseconds deadline, std::chrono::milliseconds failover_wait,
  std::unordered_map<std::string, budget_meter> budgets)
    : deadline_(deadline), failover_wait_(failover_wait),
      budgets_(std::move(budgets)) {}

// --- Workers ----------------------------------------------------------------

void vote_schedule::rejoin(std::size_t wi, std::string judge_id) {
  auto& w = slot(wi);
  w.judge_id = std::move(judge_id);
  w.alive = true;
  w.credits = 0;
  w.announced = 0;
}

bool vote_schedule::any_alive() const {
  for (std::size_t i = 0; i < workers(); ++i)
    if (slot(i).alive)
      return true;
  return false;
}

void vote_schedule::grant(std::size_t wi, std::uint32_t credits,
                          std::uint32_t capacity) {
  auto& w = slot(wi);
  w.credits += credits;
  // Counted down as the worker counts its copy, so that a demand it has used
  // up is told again even when the number waiting is unchanged (else: a hang).
  w.announced -= std::min(w.announced, credits);
  w.capacity = capacity;
}

// The one choice of a worker: alive, with a credit, `eligible`, the fewest
// of our calls outstanding; ties to the first from `from` on.
template <class Eligible>
std::optional<std::size_t> vote_schedule::pick(std::size_t from,
                                               Eligible eligible) const {
  auto n = workers();
  auto best = n;
  for (std::size_t k = 0; k < n; ++k) {
    auto i = (from + k) % n;
    auto& w = slot(i);
    if (!w.alive || w.credits == 0 || !eligible(i, w))
      continue;
    if (best == n || w.outstanding < slot(best).outstanding)
      best = i;
  }
  if (best == n)
    return std::nullopt;
  return best;
}

std::optional<std::size_t> vote_schedule::pick_for_waiting() {
  auto best =
    pick(next_worker_, [this](std::size_t i, const scheduled_worker&) {
      return !at_budget(i);
    });
  if (best)
    next_worker_ = *best + 1;
  return best;
}

std::optional<std::size_t>
vote_schedule::pick_for_moved(const std::string& judge_id) const {
  return pick(0, [&](std::size_t, const scheduled_worker& w) {
    return w.judge_id == judge_id;
  });
}

// --- Budgets ----------------------------------------------------------------

budget_meter* vote_schedule::meter(const std::string& judge_id) {
  auto i = budgets_.find(judge_id);
  return i == budgets_.end() ? nullptr : &i->second;
}

bool vote_schedule::at_budget(std::size_t wi) const {
  auto i = budgets_.find(slot(wi).judge_id);
  return i != budgets_.end() && i->second.reached();
}

std::optional<std::size_t> vote_schedule::all_at_budget() const {
  std::optional<std::size_t> any;
  for (std::size_t i = 0; i < workers(); ++i) {
    if (!slot(i).alive)
      continue;
    if (!at_budget(i))
      return std::nullopt;
    if (!any)
      any = i;
  }
  return any;
}

// --- The backlog ------------------------------------------------------------

void vote_schedule::wait(std::uint64_t seq, std::uint32_t votes) {
  for (std::uint32_t n = 0; n < votes; ++n)
    backlog_.push_back(seq);
}

std::uint64_t vote_schedule::take_waiting() {
  auto seq = backlog_.front();
  backlog_.pop_front();
  return seq;
}

// --- Votes sent and answered ------------------------------------------------

std::uint64_t vote_schedule::sent(std::uint64_t seq, std::size_t wi,
                                  judge_request meta, std::int64_t started_ms,
                                  schedule_time now) {
  auto& w = slot(wi);
  --w.credits;
  ++w.outstanding;
  auto token = next_token_++;
  pending_.emplace(token, pending_vote{token, seq, wi, std::move(meta),
                                       started_ms, now + deadline_, false});
  by_due_.push_back({token, now + deadline_});
  return token;
}

bool vote_schedule::current(const due_entry& e) const {
  auto p = pending_.find(e.token);
  return p != pending_.end() && !p->second.queued && p->second.due == e.due;
}

// Stale entries at the front go at once, so the queue holds little more
// than the votes in flight.
void vote_schedule::drop_stale() {
  while (!by_due_.empty() && !current(by_due_.front()))
    by_due_.pop_front();
}

void vote_schedule::hold(std::uint64_t token, std::size_t wi) {
  auto p = pending_.find(token);
  if (p == pending_.end() || p->second.worker != wi || p->second.queued)
    return;
  p->second.queued = true;
  ++slot(wi).queued;
  drop_stale();
}

void vote_schedule::start(std::uint64_t token, std::size_t wi,
                          schedule_time now) {
  auto p = pending_.find(token);
  if (p == pending_.end() || p->second.worker != wi)
    return;
  if (p->second.queued) {
    p->second.queued = false;
    --slot(wi).queued;
  }
  p->second.due = now + deadline_;
  by_due_.push_back({token, p->second.due});
  drop_stale();
}

std::optional<std::uint64_t>
vote_schedule::answered(std::uint64_t token, std::size_t wi, bool fault) {
  auto p = pending_.find(token);
  if (p == pending_.end())
    return std::nullopt;
  auto seq = p->second.seq;
  auto& w = slot(wi);
  if (p->second.queued)
    --w.queued; // answered without a word that it started (a fault)
  pending_.erase(p);
  drop_stale();
  --w.outstanding;
  ++w.served;
  w.faults += fault ? 1 : 0;
  return seq;
}

std::optional<pending_vote> vote_schedule::next_expired(schedule_time now) {
  drop_stale();
  if (by_due_.empty() || by_due_.front().due > now)
    return std::nullopt;
  auto p = pending_.find(by_due_.front().token);
  auto v = std::move(p->second);
  pending_.erase(p);
  by_due_.pop_front();
  --slot(v.worker).outstanding;
  return v;
}

std::vector<pending_vote> vote_schedule::take_outstanding(std::size_t wi) {
  std::vector<std::uint64_t> tokens;
  for (auto& [token, p] : pending_)
    if (p.worker == wi)
      tokens.push_back(token);
  std::sort(tokens.begin(), tokens.end());
  std::vector<pending_vote> out;
  out.reserve(tokens.size());
  for (auto token : tokens) {
    auto p = pending_.find(token);
    if (p->second.queued)
      --slot(wi).queued;
    out.push_back(std::move(p->second));
    pending_.erase(p);
    --slot(wi).outstanding;
  }
  drop_stale();
  return out;
}

// --- Failover ---------------------------------------------------------------

void vote_schedule::move(pending_vote vote, std::string judge_id,
                         schedule_time now) {
  moved_.push_back(moved_vote{vote.seq, std::move(vote.meta),
                              std::move(judge_id), now + failover_wait_});
}

bool vote_schedule::wants_moved(const std::string& judge_id) const {
  return std::any_of(moved_.begin(), moved_.end(),
                     [&](auto& m) { return m.judge_id == judge_id; });
}

std::optional<moved_vote> vote_schedule::next_moved_expired(schedule_time now) {
  if (moved_.empty() || moved_.front().due > now)
    return std::nullopt;
  auto m = std::move(moved_.front());
  moved_.pop_front();
  return m;
}

void vote_schedule::track_starvation(schedule_time now) {
  if (any_alive() || backlog_.empty())
    starved_since_.reset();
  else if (!starved_since_)
    starved_since_ = now;
}

bool vote_schedule::starvation_over(schedule_time now) {
  if (!starved_since_ || *starved_since_ + failover_wait_ > now)
    return false;
  starved_since_.reset();
  return true;
}

// --- Credits and demand -----------------------------------------------------

std::uint32_t vote_schedule::wanted() const {
  std::uint32_t unused = 0;
  for (std::size_t i = 0; i < workers(); ++i)
    unused += slot(i).alive ? slot(i).credits : 0;
  auto waiting = static_cast<std::uint32_t>(backlog_.size() + moved_.size());
  return waiting > unused ? waiting - unused : 0;
}

std::uint32_t vote_schedule::unneeded_credits(std::size_t wi) {
  auto& w = slot(wi);
  if (!backlog_.empty() || w.credits == 0 || wants_moved(w.judge_id))
    return 0;
  auto c = w.credits;
  w.credits = 0;
  return c;
}

std::optional<std::uint32_t>
vote_schedule::demand_change(std::size_t wi, std::uint32_t wanted) {
  auto& w = slot(wi);
  if (w.announced == wanted)
    return std::nullopt;
  w.announced = wanted;
  return wanted;
}

vote_schedule::letting_go vote_schedule::let_go(std::size_t wi) {
  auto& w = slot(wi);
  letting_go out{w.credits, w.announced > 0};
  w.credits = 0;
  w.announced = 0;
  return out;
}

// --- Time -------------------------------------------------------------------

std::optional<schedule_time> vote_schedule::next_due() const {
  std::optional<schedule_time> at;
  auto consider = [&](schedule_time t) {
    if (!at || t < *at)
      at = t;
  };
  // The first current deadline (stale ones are dropped as they reach the
  // front, so it is nearly always the first).
  for (auto& e : by_due_)
    if (current(e)) {
      consider(e.due);
      break;
    }
  if (!moved_.empty())
    consider(moved_.front().due);
  if (starved_since_)
    consider(*starved_since_ + failover_wait_);
  return at;
}

std::optional<schedule_time> vote_schedule::timer_to_arm() {
  auto at = next_due();
  if (!at || (timer_armed_ && timer_at_ <= *at))
    return std::nullopt;
  timer_armed_ = true;
  timer_at_ = *at;
  return at;
}

void vote_schedule::timer_fired(schedule_time now) {
  if (timer_armed_ && timer_at_ <= now)
    timer_armed_ = false;
}

void vote_schedule::clear() {
  backlog_.clear();
  pending_.clear();
  for (std::size_t i = 0; i < workers(); ++i)
    slot(i).queued = 0;
  by_due_.clear();
  moved_.clear();
  starved_since_.reset();
}

} // namespace ij
