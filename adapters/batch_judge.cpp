#include "adapters/batch_judge.hpp"

#include <algorithm>
#include <atomic>
#include <deque>
#include <future>
#include <map>
#include <mutex>
#include <random>
#include <set>
#include <thread>
#include <unordered_map>
#include <unordered_set>

#include "adapters/api_error.hpp"
#include "adapters/batch_faults.hpp"
#include "adapters/batch_judge_state.hpp"
#include "messages/error.hpp"

namespace ij {

namespace {

std::int64_t now_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
           std::chrono::system_clock::now().time_since_epoch())
    .count();
}

/// The adapter's own id for a batch: known before the provider's, unique
/// across restarts (random), usable as OpenAI metadata and a journal key.
std::string random_key() {
  static thread_local std::mt19937_64 rng{std::random_device{}()};
  static const char hex[] = "0123456789abcdef";
  std::string k = "ijb-";
  auto v = rng();
  for (int i = 0; i < 16; ++i, v >>= 4)
    k += hex[v & 15];
  return k;
}

adapter_reply fault_reply(fault_kind kind, std::string error) {
  adapter_reply r;
  r.ok = false;
  r.fault = kind;
  r.error = std::move(error);
  return r;
}

// A cancelled run's call (judge_adapter.hpp): `sent` when its batch had
// reached the provider.
adapter_reply aborted_reply(bool sent) {
  auto r = fault_reply(
    fault_kind::aborted,
    sent ? "aborted: its run was cancelled (its batch had been submitted)"
         : "aborted: its run was cancelled (its batch had not been "
           "submitted)");
  r.attempts = sent ? 1 : 0;
  return r;
}

std::string tag_of(const std::string& custom_id) {
  return custom_id.substr(0, custom_id.find('-'));
}

} // namespace

// --- stats and shutdown -----------------------------------------------------

void batch_judge::state::publish() {
  batch_stats s;
  steady::time_point first{};
  for (auto& [key, b] : batches) {
    if (!b.submitted || b.state == batch_state::validating)
      ++s.submitted;
    else
      ++s.in_progress;
    if (first == steady::time_point{} || b.opened < first)
      first = b.opened;
  }
  s.ended = ended_count;
  s.calls_waiting = queue.size();
  std::lock_guard<std::mutex> g(stats_mtx);
  snapshot = s;
  oldest = first;
}

void batch_judge::state::shutdown() {
  stopping = true;
  flush_timer.cancel();
  for (auto& [key, b] : batches)
    b.timer.reset();
  // Not cancelled at the provider: a restart adopts what is open.
  auto reply =
    fault_reply(fault_kind::unavailable, "batch judge shutting down");
  for (auto& [id, entry] : calls)
    answer(entry, reply);
  calls.clear();
  queue.clear();
  batches.clear();
  unsent_closing.clear();
  publish();
}

// --- calls
// --------------------------------------------------------------------

void batch_judge::state::on_call(std::string prompt, call_options opts,
                                 reply_handler done) {
  if (!valid_run_tag(opts.run_tag))
    return done(
      fault_reply(fault_kind::bad_request, "batch judge: run tag \""
                                             + body_excerpt(opts.run_tag, 40)
                                             + "\" is not [a-z0-9]{1,16}"));
  auto id = make_custom_id({opts.run_tag, opts.pair_seq, opts.vote_index});
  if (auto it = calls.find(id); it != calls.end()) {
    // The same vote already in flight: it gets that call's reply.
    it->second.waiters.push_back({opts.call_id, std::move(done)});
    return;
  }
  auto call_id = opts.call_id;
  call_entry entry{std::move(prompt), std::move(opts), {}, steady::now(), {}};
  entry.waiters.push_back({call_id, std::move(done)});
  if (auto u = unclaimed.find(id); u != unclaimed.end()) {
    auto s = std::move(u->second);
    unclaimed.erase(u);
    return deliver(std::move(entry), s);
  }
  if (auto h = held.find(id); h != held.end()) {
    entry.batch_key = h->second;
    calls.emplace(id, std::move(entry));
    return;
  }
  calls.emplace(id, std::move(entry));
  queue.push_back(id);
  if (queue.size() >= cfg.max_requests)
    flush(false);
  else if (queue.size() == 1)
    arm_timer();
}

void batch_judge::state::arm_timer() {
  while (!queue.empty() && !calls.count(queue.front()))
    queue.pop_front();
  if (queue.empty())
    return;
  flush_timer.expires_at(calls.at(queue.front()).since + cfg.max_wait);
  flush_timer.async_wait([this](boost::system::error_code ec) {
    if (ec || stopping)
      return;
    flush(true);
    publish();
  });
}

void batch_judge::state::flush(bool due_only) {
  auto due = [&] {
    while (!queue.empty() && !calls.count(queue.front()))
      queue.pop_front();
    if (queue.empty())
      return false;
    return queue.size() >= cfg.max_requests
           || steady::now() - calls.at(queue.front()).since >= cfg.max_wait;
  };
  if (!due_only && !queue.empty())
    build_batch();
  while (due())
    build_batch();
  arm_timer();
}

void batch_judge::state::build_batch() {
  batch_document doc(cfg.api);
  open_batch b;
  b.key = random_key();
  while (!queue.empty() && doc.size() < cfg.max_requests) {
    auto id = queue.front();
    auto it = calls.find(id);
    if (it == calls.end() || !it->second.batch_key.empty()) {
      queue.pop_front();
      continue;
    }
    if (auto err = doc.add(id, it->second.prompt, it->second.opts)) {
      if (doc.size() > 0)
        break; // full: the rest go in the next batch
      // This request alone does not fit: it cannot be batched.
      queue.pop_front();
      auto entry = std::move(it->second);
      calls.erase(it);
      answer(entry, fault_reply(fault_kind::bad_request,
                                "batch judge: " + render_error(err)));
      continue;
    }
    queue.pop_front();
    it->second.batch_key = b.key;
    b.entries.push_back(
      {id, it->second.opts.pair_id, it->second.opts.vote_index});
  }
  if (doc.size() == 0)
    return;
  auto text = doc.finish();
  b.document = text ? std::move(*text) : std::string{};
  b.opened = steady::now();
  auto key = b.key;
  auto m = mark(b, batch_step::pending);
  batches.emplace(key, std::move(b));
  record(std::move(m), [this, key](caf::error err) {
    on_pending_recorded(key, std::move(err));
  });
}

batch_mark batch_judge::state::mark(const open_batch& b, batch_step step,
                                    std::string state_text) const {
  return batch_mark{step,      judge_id, b.key, b.id, std::move(state_text),
                    b.entries, now_ms()};
}

void batch_judge::state::record(batch_mark m,
                                std::function<void(caf::error)> fn) {
  journal->record(std::move(m), back<caf::error>(std::move(fn)));
}

// --- one batch's life
// ---------------------------------------------------------

void batch_judge::state::on_pending_recorded(const std::string& key,
                                             caf::error err) {
  auto b = find(key);
  if (!b)
    return; // its run was cancelled meanwhile: never submitted
  if (err) {
    // Never submitted unrecorded.
    fail_batch(*b, fault_kind::unavailable,
               "batch journal: cannot record batch " + key + ": "
                 + render_error(err),
               false);
    batches.erase(key);
    return;
  }
  b->at_ms = now_ms();
  client->submit(std::move(b->document),
                 back<caf::expected<batch_status>>(
                   [this, key](caf::expected<batch_status> st) {
                     on_submitted(key, std::move(st));
                   }),
                 key);
}

void batch_judge::state::on_submitted(const std::string& key,
                                      caf::expected<batch_status> st) {
  auto b = find(key);
  if (!b) {
    // Its run was cancelled while the provider was answering.
    if (st)
      client->cancel(st->id, [](caf::expected<batch_status>) {});
    return;
  }
  if (!st) {
    auto reason = render_error(st.error());
    return close(key, "rejected",
                 failures(*b, fault_of_error(st.error()),
                          std::string{to_string(cfg.api)}
                            + " rejected the batch: " + reason,
                          true));
  }
  b->id = st->id;
  b->state = st->state;
  b->submitted = true;
  record(mark(*b, batch_step::submitted), [this, key](caf::error err) {
    on_submitted_recorded(key, std::move(err));
  });
}

void batch_judge::state::on_submitted_recorded(const std::string& key,
                                               caf::error err) {
  auto b = find(key);
  if (!b)
    return;
  if (err) {
    // Not polled unrecorded: cancelled at the provider, its votes faults.
    client->cancel(b->id, [](caf::expected<batch_status>) {});
    fail_batch(*b, fault_kind::unavailable,
               "batch journal: cannot record batch " + b->id + ": "
                 + render_error(err),
               false);
    batches.erase(key);
    return;
  }
  schedule_poll(key, cfg.poll);
}

void batch_judge::state::schedule_poll(const std::string& key,
                                       std::chrono::milliseconds after) {
  auto b = find(key);
  if (!b)
    return;
  b->timer = std::make_unique<net::steady_timer>(io, after);
  b->timer->async_wait([this, key](boost::system::error_code ec) {
    if (ec || stopping)
      return;
    poll(key);
    publish();
  });
}

void batch_judge::state::poll(const std::string& key) {
  auto b = find(key);
  if (!b)
    return;
  client->status(b->id, back<caf::expected<batch_status>>(
                          [this, key](caf::expected<batch_status> st) {
                            on_status(key, st);
                          }));
}

void batch_judge::state::on_status(const std::string& key,
                                   caf::expected<batch_status> st) {
  auto b = find(key);
  if (!b)
    return;
  if (!st) {
    if (is_unreachable(st.error()))
      return schedule_poll(key, cfg.poll); // worth trying later
    return close(key, "lost",
                 failures(*b, fault_of_error(st.error()),
                          "batch " + b->id
                            + " cannot be read: " + render_error(st.error()),
                          true));
  }
  b->state = st->state;
  if (!is_terminal(st->state))
    return schedule_poll(key, cfg.poll);
  if (st->state == batch_state::failed) {
    std::string why;
    for (auto& e : st->errors)
      why += (why.empty() ? "" : "; ") + e;
    return close(key, "failed",
                 failures(*b, fault_kind::bad_request,
                          "batch " + b->id + " failed: "
                            + (why.empty() ? "no reason given" : why),
                          true));
  }
  client->results(b->id,
                  back<caf::expected<std::vector<batch_result>>>(
                    [this, key](caf::expected<std::vector<batch_result>> r) {
                      on_results(key, std::move(r));
                    }));
}

void batch_judge::state::on_results(
  const std::string& key, caf::expected<std::vector<batch_result>> r) {
  auto b = find(key);
  if (!b)
    return;
  if (!r) {
    if (is_unreachable(r.error()))
      return schedule_poll(key, cfg.poll);
    return close(key, "lost",
                 failures(*b, fault_of_error(r.error()),
                          "batch " + b->id + ": results cannot be read: "
                            + render_error(r.error()),
                          true));
  }
  if (b->confirm) {
    std::set<std::string> want, got;
    for (auto& e : b->entries)
      want.insert(e.custom_id);
    for (auto& line : *r)
      got.insert(line.custom_id);
    if (want != got) {
      // Another batch of the same size and time: ours was never created.
      release(*b);
      return close(key, "not found");
    }
  }
  auto outcome = outcome_of(*b, *r);
  close(key, to_string(b->state), std::move(outcome));
}

std::vector<batch_judge::state::settlement>
batch_judge::state::outcome_of(const open_batch& b,
                               const std::vector<batch_result>& results) {
  std::vector<settlement> out;
  std::unordered_set<std::string> mine;
  std::vector<std::string> sent;
  for (auto& e : b.entries) {
    mine.insert(e.custom_id);
    sent.push_back(e.custom_id);
  }
  for (auto& r : results) {
    if (!mine.count(r.custom_id))
      continue;
    settled s{r, fault_of_result(r), {}, true};
    if (r.kind != result_kind::succeeded)
      s.reason = "batch " + b.id + ": request " + r.custom_id + " "
                 + to_string(r.kind) + (r.error.empty() ? "" : ": " + r.error);
    out.emplace_back(r.custom_id, std::move(s));
  }
  for (auto& id : missing_results(sent, results)) {
    batch_result none;
    none.custom_id = id;
    none.kind = result_kind::canceled;
    out.emplace_back(id, settled{none, fault_kind::unavailable,
                                 "batch " + b.id + " (" + to_string(b.state)
                                   + "): no result for " + id,
                                 true});
  }
  return out;
}

/// The batch is done with: it goes now (a late answer about it finds it
/// gone), `ended` is journaled, and only once that is durable are its
/// votes settled by `outcome`. So a batch's end is in the journal (a run's
/// audit) before any record of its calls, and before the run's end: a run
/// ends once its votes are settled, and its journal refuses marks after
/// that. Its adopted ids stay held until then, for `route`.
void batch_judge::state::close(const std::string& key,
                               const std::string& state_text,
                               std::vector<settlement> outcome) {
  auto b = find(key);
  if (!b)
    return;
  auto m = mark(*b, batch_step::ended, state_text);
  if (!b->submitted && b->id.empty())
    unsent_closing.insert(key);
  auto entries = std::move(b->entries);
  batches.erase(key);
  ++ended_count;
  record(std::move(m), [this, key, entries = std::move(entries),
                        outcome = std::move(outcome)](caf::error) mutable {
    // Settled whether or not the mark was recorded: the answers are real,
    // and a run whose audit failed ends on that failure itself.
    for (auto& [custom_id, s] : outcome)
      route(key, custom_id, std::move(s));
    for (auto& e : entries)
      if (auto h = held.find(e.custom_id); h != held.end() && h->second == key)
        held.erase(h);
    unsent_closing.erase(key);
  });
}

std::vector<batch_judge::state::settlement>
batch_judge::state::failures(const open_batch& b, fault_kind kind,
                             const std::string& reason, bool per_policy) {
  std::vector<settlement> out;
  for (auto& e : b.entries) {
    batch_result r;
    r.custom_id = e.custom_id;
    r.kind = result_kind::errored;
    r.error = reason;
    out.emplace_back(e.custom_id, settled{r, kind, reason, per_policy});
  }
  return out;
}

void batch_judge::state::fail_batch(open_batch& b, fault_kind kind,
                                    const std::string& reason,
                                    bool per_policy) {
  for (auto& [custom_id, s] : failures(b, kind, reason, per_policy))
    route(b.key, custom_id, std::move(s));
}

void batch_judge::state::route(const std::string& key,
                               const std::string& custom_id, settled s) {
  auto it = calls.find(custom_id);
  if (it == calls.end() || it->second.batch_key != key) {
    // An adopted batch's vote not re-issued yet: kept until claimed.
    if (auto h = held.find(custom_id); h != held.end() && h->second == key)
      unclaimed[custom_id] = std::move(s);
    return;
  }
  auto entry = std::move(it->second);
  calls.erase(it);
  deliver(std::move(entry), s);
}

void batch_judge::state::deliver(call_entry entry, const settled& s) {
  if (s.result.kind == result_kind::succeeded) {
    auto reply = s.result.reply;
    reply.attempts = 1;
    reply.batched = true;
    return answer(entry, reply);
  }
  if (!s.per_policy || cfg.on_failure == batch_failure_policy::fault)
    return answer(entry, fault_reply(s.kind, s.reason));
  if (entry.waiters.empty())
    return; // every caller aborted: nobody to call for
  // Again, synchronously: one call answers every waiter (named by the first
  // one's call_id, which an abort of that caller passes on).
  entry.opts.call_id = entry.waiters.front().call_id;
  auto waiters =
    std::make_shared<std::vector<waiter>>(std::move(entry.waiters));
  fallback->call(entry.prompt, entry.opts, [waiters](adapter_reply reply) {
    for (auto& w : *waiters)
      w.done(reply);
  });
}

void batch_judge::state::answer(call_entry& entry, const adapter_reply& reply) {
  auto waiters = std::move(entry.waiters);
  entry.waiters.clear();
  for (auto& w : waiters)
    w.done(reply);
}

// Whether a call's request has reached the provider: its batch submitted.
bool batch_judge::state::submitted(const call_entry& entry) const {
  if (entry.batch_key.empty())
    return false;
  if (unsent_closing.count(entry.batch_key))
    return false;
  auto b = batches.find(entry.batch_key);
  return b == batches.end() || b->second.submitted || !b->second.id.empty();
}

// One caller's call ends now (its run was cancelled): it is answered as
// aborted, sent when its batch was submitted; a custom_id nobody waits for
// any more leaves the queue (a batch already made keeps it: its result is
// dropped). A call at the sync fallback is the fallback's to abort.
void batch_judge::state::on_abort(std::uint64_t call_id) {
  for (auto it = calls.begin(); it != calls.end(); ++it) {
    auto& ws = it->second.waiters;
    auto w = std::find_if(ws.begin(), ws.end(), [&](const waiter& x) {
      return x.call_id == call_id;
    });
    if (w == ws.end())
      continue;
    auto done = std::move(w->done);
    ws.erase(w);
    auto reply = aborted_reply(submitted(it->second));
    if (ws.empty() && it->second.batch_key.empty())
      calls.erase(it);
    done(std::move(reply));
    return;
  }
  fallback->abort(call_id);
}

// --- restart
// ------------------------------------------------------------------

void batch_judge::state::on_adopt(std::vector<batch_mark> marks) {
  bool search = false;
  for (auto& m : open_batches(marks, judge_id)) {
    if (find(m.key))
      continue;
    search = search || m.step == batch_step::pending;
    adopt_one(std::move(m));
  }
  if (search)
    client->list(back<caf::expected<std::vector<batch_status>>>(
      [this](caf::expected<std::vector<batch_status>> l) {
        on_list(std::move(l));
      }));
}

void batch_judge::state::adopt_one(batch_mark last) {
  open_batch b;
  b.key = last.key;
  b.id = last.batch_id;
  b.entries = std::move(last.entries);
  b.opened = steady::now();
  b.at_ms = last.at_ms;
  b.adopted = true;
  b.submitted = last.step == batch_step::submitted;
  b.searching = !b.submitted;
  for (auto& e : b.entries) {
    held[e.custom_id] = b.key;
    // A call already queued with this id waits for the batch instead.
    if (auto it = calls.find(e.custom_id);
        it != calls.end() && it->second.batch_key.empty())
      it->second.batch_key = b.key;
  }
  auto key = b.key;
  batches.emplace(key, std::move(b));
  if (!batches.at(key).searching)
    poll(key);
}

void batch_judge::state::on_list(
  caf::expected<std::vector<batch_status>> list) {
  if (!list) {
    // Nothing may go again before the provider has been asked: ask again.
    auto retry = std::make_shared<net::steady_timer>(io, cfg.poll);
    retry->async_wait([this, retry](boost::system::error_code ec) {
      if (ec || stopping)
        return;
      client->list(back<caf::expected<std::vector<batch_status>>>(
        [this](caf::expected<std::vector<batch_status>> l) {
          on_list(std::move(l));
        }));
    });
    return;
  }
  std::set<std::string> known;
  for (auto& [key, b] : batches)
    if (!b.id.empty())
      known.insert(b.id);
  std::vector<std::string> keys;
  for (auto& [key, b] : batches)
    if (b.searching)
      keys.push_back(key);
  for (auto& key : keys) {
    auto& b = batches.at(key);
    const batch_status* hit = nullptr;
    for (auto& st : *list) {
      if (known.count(st.id))
        continue;
      bool match = cfg.api == batch_api::openai
                     ? st.batch_key == b.key
                     : st.created_at >= b.at_ms / 1000
                         && st.counts.total == b.entries.size();
      if (match) {
        hit = &st;
        break;
      }
    }
    if (!hit) {
      release(b);
      close(key, "not found");
      continue;
    }
    known.insert(hit->id);
    found(b, *hit);
  }
}

void batch_judge::state::found(open_batch& b, const batch_status& st) {
  b.id = st.id;
  b.state = st.state;
  b.submitted = true;
  b.searching = false;
  b.confirm = cfg.api == batch_api::anthropic;
  auto key = b.key;
  record(mark(b, batch_step::submitted), [this, key](caf::error err) {
    on_submitted_recorded(key, std::move(err));
  });
}

/// An adopted batch that is not at the provider: its calls are free to go.
void batch_judge::state::release(open_batch& b) {
  bool queued = false;
  for (auto& e : b.entries) {
    if (auto h = held.find(e.custom_id); h != held.end() && h->second == b.key)
      held.erase(h);
    unclaimed.erase(e.custom_id);
    auto it = calls.find(e.custom_id);
    if (it != calls.end() && it->second.batch_key == b.key) {
      it->second.batch_key.clear();
      it->second.since = steady::now();
      queue.push_back(e.custom_id);
      queued = true;
    }
  }
  if (queued)
    flush(true);
}

// --- cancel
// -------------------------------------------------------------------

void batch_judge::state::on_cancel_run(const std::string& tag,
                                       std::function<void()> acknowledged) {
  std::vector<std::string> gone;
  for (auto& [id, entry] : calls)
    if (tag_of(id) == tag)
      gone.push_back(id);
  for (auto& id : gone) {
    auto entry = std::move(calls.at(id));
    calls.erase(id);
    answer(entry, aborted_reply(submitted(entry)));
  }
  for (auto it = unclaimed.begin(); it != unclaimed.end();)
    it = tag_of(it->first) == tag ? unclaimed.erase(it) : std::next(it);
  std::vector<std::string> keys;
  for (auto& [key, b] : batches)
    if (!b.entries.empty()
        && std::all_of(
          b.entries.begin(), b.entries.end(),
          [&](const batch_entry& e) { return tag_of(e.custom_id) == tag; }))
      keys.push_back(key);
  // Answers to the provider's cancels still to come, then `acknowledged`.
  auto left = std::make_shared<std::atomic<std::size_t>>(1);
  auto one_done = [left, acknowledged = std::move(acknowledged)] {
    if (--*left == 0 && acknowledged)
      acknowledged();
  };
  for (auto& key : keys) {
    auto& b = batches.at(key);
    // Not yet submitted: on_pending_recorded / on_submitted find it gone.
    if (!b.id.empty()) {
      ++*left;
      client->cancel(b.id,
                     [one_done](caf::expected<batch_status>) { one_done(); });
    }
    close(key, "cancelled");
  }
  arm_timer();
  one_done();
}

// --- the adapter
// --------------------------------------------------------------

batch_judge::batch_judge(std::shared_ptr<state> st) : st_(std::move(st)) {}

batch_judge::~batch_judge() {
  std::promise<void> done;
  net::post(st_->io, [s = st_.get(), &done] {
    s->shutdown();
    done.set_value();
  });
  done.get_future().wait();
  // The client answers what it has pending; those answers find us stopping.
  st_->client.reset();
  st_->work.reset();
  st_->io.stop();
  st_->thread.join();
}

std::string batch_judge::id() const {
  return st_->judge_id;
}

bool batch_judge::supports_seed() const {
  return st_->fallback->supports_seed();
}

void batch_judge::call(const std::string& prompt, const call_options& opts,
                       reply_handler done) {
  auto s = st_.get();
  s->run([s, prompt, opts, done = std::move(done)]() mutable {
    s->on_call(std::move(prompt), std::move(opts), std::move(done));
  });
}

void batch_judge::abort(std::uint64_t call_id) {
  if (call_id == 0)
    return;
  auto s = st_.get();
  s->run([s, call_id] { s->on_abort(call_id); });
}

void batch_judge::adopt(std::vector<batch_mark> marks) {
  auto s = st_.get();
  s->run(
    [s, marks = std::move(marks)]() mutable { s->on_adopt(std::move(marks)); });
}

void batch_judge::cancel_run(const std::string& run_tag) {
  auto s = st_.get();
  s->run([s, run_tag] { s->on_cancel_run(run_tag); });
}

void batch_judge::cancel_run(const std::string& run_tag,
                             std::function<void()> acknowledged) {
  auto s = st_.get();
  s->run([s, run_tag, acknowledged = std::move(acknowledged)]() mutable {
    s->on_cancel_run(run_tag, std::move(acknowledged));
  });
}

batch_stats batch_judge::stats() const {
  std::lock_guard<std::mutex> g(st_->stats_mtx);
  auto s = st_->snapshot;
  if (st_->oldest != steady::time_point{})
    s.oldest_age_ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                        steady::now() - st_->oldest)
                        .count();
  return s;
}

caf::expected<std::shared_ptr<batch_judge>> make_batch_judge(
  batch_judge_config config, std::unique_ptr<batch_client> client,
  judge_adapter_ptr sync_fallback, std::shared_ptr<batch_journal> journal) {
  if (!client || !sync_fallback || !journal)
    return make_error(errc::bad_config, "batch judge: a batch client, a sync "
                                        "fallback and a journal are required");
  if (client->api() != config.api)
    return make_error(errc::bad_config,
                      std::string{"batch judge: a "} + to_string(config.api)
                        + " judge with a " + to_string(client->api())
                        + " batch client");
  auto limit = limits_of(config.api).max_requests;
  if (config.max_requests == 0 || config.max_requests > limit)
    return make_error(errc::bad_config, "batch judge: max_requests must be 1.."
                                          + std::to_string(limit) + " for "
                                          + to_string(config.api));
  auto st = std::make_shared<batch_judge::state>();
  st->cfg = config;
  st->client = std::move(client);
  st->judge_id = sync_fallback->id();
  st->fallback = std::move(sync_fallback);
  st->journal = std::move(journal);
  st->thread = std::thread([raw = st.get()] { raw->io.run(); });
  return std::make_shared<batch_judge>(std::move(st));
}

} // namespace ij
