// Judge workers: capacity granted as credits, round-robin over clients,
// records of every call (SPEC §10).
#include <deque>
#include <memory>

#include <catch2/catch.hpp>

#include "actors/judge_worker.hpp"
#include "adapters/stub_judges.hpp"
#include "core/hosts/worker_fields.hpp"
#include "core/prompts/prompt.hpp"
#include "test_support.hpp"

using namespace ij;
using namespace ij::test;

namespace {

judge_binding binding_with_cap(judge_adapter_ptr adapter, std::uint32_t cap) {
  judge_binding b;
  b.spec.name = "test";
  b.spec.type = "test";
  b.spec.model = "manual-model";
  b.spec.temperature = 0.7;
  b.spec.seed = 100;
  b.spec.max_in_flight = cap;
  b.adapter = std::move(adapter);
  return b;
}

judge_request request_for(std::string id, std::uint32_t vote = 0) {
  judge_request r;
  r.pair_id = std::move(id);
  r.a = "The answer is 200.";
  r.b = "two hundred";
  r.vote_index = vote;
  r.has_seed = true;
  r.seed = 100 + vote;
  return r;
}

/// A client like a vote coordinator: announces its queued requests as
/// demand and sends one call per credit as credits arrive.
struct test_client {
  struct state {
    judge_worker_actor worker;
    std::deque<judge_request> queue;
    std::uint32_t credits = 0;
    std::uint32_t credits_received = 0;
    std::vector<judge_reply> replies;
    /// Tokens the worker said it queued, and started from its queue.
    std::vector<std::uint64_t> queued;
    std::vector<std::uint64_t> started;
    std::size_t updates = 0;
    std::uint32_t capacity = 0;
    std::uint64_t next_token = 1;
    /// Whether to use credits as they come (false: hold them).
    bool send_on_credit = true;
  };
  std::shared_ptr<state> st = std::make_shared<state>();
  judge_client_actor actor;

  test_client(caf::actor_system& sys, judge_worker_actor worker) {
    st->worker = worker;
    auto s = st;
    actor = sys.spawn(
      [s](judge_client_actor::pointer self,
          int) -> judge_client_actor::behavior_type {
        return {[s, self](worker_update& u) {
          ++s->updates;
          s->capacity = u.capacity;
          s->credits += u.credits;
          s->credits_received += u.credits;
          for (auto& r : u.replies)
            s->replies.push_back(std::move(r));
          s->queued.insert(s->queued.end(), u.queued.begin(), u.queued.end());
          s->started.insert(s->started.end(), u.started.begin(),
                            u.started.end());
          if (s->send_on_credit)
            send_calls(self, *s);
        }};
      },
      0);
  }

  static void send_calls(judge_client_actor::pointer self, state& s) {
    std::vector<judge_call> calls;
    while (s.credits > 0 && !s.queue.empty()) {
      --s.credits;
      calls.push_back({s.next_token++, std::move(s.queue.front())});
      s.queue.pop_front();
    }
    if (!calls.empty())
      self->send(s.worker, judge_client_actor{self}, std::move(calls));
  }

  /// Queues requests and tells the worker how many wait.
  void submit(std::vector<judge_request> reqs) {
    for (auto& r : reqs)
      st->queue.push_back(std::move(r));
    caf::send_as(actor, st->worker, demand_atom::value, actor,
                 static_cast<std::uint32_t>(st->queue.size()));
  }

  /// The record of the call with this token (1 for the first call).
  const judge_record* record(std::uint64_t token) const {
    for (auto& r : st->replies)
      if (r.token == token)
        return &r.record;
    return nullptr;
  }
};

} // namespace

TEST_CASE("a worker keeps at most its capacity in flight and grants a credit "
          "per finished call") {
  test_system t;
  auto adapter = std::make_shared<manual_adapter>();
  auto w = spawn_judge_worker(t.sys, binding_with_cap(adapter, 2), "w@local");
  test_client c{t.sys, w};
  std::vector<judge_request> reqs;
  for (int i = 0; i < 5; ++i)
    reqs.push_back(request_for("p" + std::to_string(i)));
  c.submit(reqs);
  t.run();
  CHECK(c.st->credits_received == 2);
  CHECK(adapter->calls() == 2);
  CHECK(adapter->open() == 2);
  CHECK(c.st->replies.empty());
  // Each completion frees a slot for exactly one more call.
  REQUIRE(adapter->complete_next(canonical("EQUIVALENT")));
  t.run();
  CHECK(adapter->calls() == 3);
  CHECK(c.st->replies.size() == 1);
  while (adapter->complete_next(canonical("EQUIVALENT")))
    t.run();
  CHECK(adapter->calls() == 5);
  CHECK(adapter->peak_open() == 2);
  REQUIRE(c.st->replies.size() == 5);
  for (auto& r : c.st->replies)
    CHECK(r.record.decision == judge_decision::equivalent);
  CHECK(c.record(5)->pair_id == "p4");
  caf::anon_send_exit(w, caf::exit_reason::user_shutdown);
}

TEST_CASE("the adapter's own lower concurrency caps the worker") {
  test_system t;
  auto adapter = std::make_shared<manual_adapter>(true, 1);
  auto w = spawn_judge_worker(t.sys, binding_with_cap(adapter, 8), "w@local");
  test_client c{t.sys, w};
  c.submit({request_for("a"), request_for("b")});
  t.run();
  CHECK(adapter->calls() == 1);
  CHECK(c.st->capacity == 1);
  adapter->complete_next(canonical("DIFFERENT"));
  t.run();
  CHECK(adapter->calls() == 2);
  adapter->complete_next(canonical("DIFFERENT"));
  t.run();
  CHECK(adapter->peak_open() == 1);
  REQUIRE(c.record(2));
  CHECK(c.record(2)->decision == judge_decision::different);
  caf::anon_send_exit(w, caf::exit_reason::user_shutdown);
}

TEST_CASE("a judge record carries every field of the call, its worker's "
          "constants come from "
          "the worker's info") {
  test_system t;
  auto adapter = std::make_shared<manual_adapter>();
  auto w = spawn_judge_worker(t.sys, binding_with_cap(adapter, 1), "w7@local");
  test_client c{t.sys, w};
  auto req = request_for("p7", 3);
  c.submit({req});
  t.run();
  auto reply = canonical("EQUIVALENT", "200", "200");
  reply.text = "Sure!\n" + reply.text;
  reply.attempts = 2;
  adapter->complete_next(reply);
  t.run();
  REQUIRE(c.record(1));
  auto rec = *c.record(1);
  // The prompt id travels with the record: a worker has two prompts and
  // each call names the one it used (issue 29) ...
  CHECK(rec.prompt_id == std::string{judge_prompt_id});
  // ... sent without what the worker's info says once for all its records ...
  CHECK(rec.adapter_id.empty());
  CHECK(rec.worker_id.empty());
  CHECK(rec.host.empty());
  CHECK(rec.model.empty());
  // ... which the client puts back (the vote coordinator does on receipt).
  auto info = ask<judge_info>(t.sys, w, info_atom::value);
  t.run();
  REQUIRE(info->value);
  set_worker_fields(rec, *info->value);
  CHECK(rec.pair_id == "p7");
  CHECK(rec.prompt_id == std::string{judge_prompt_id});
  CHECK(rec.host == "local");
  CHECK(rec.adapter_id == "test:manual");
  CHECK(rec.worker_id == "w7@local");
  CHECK(rec.model == "manual-model");
  CHECK(rec.temperature == 0.7);
  CHECK(rec.has_seed);
  CHECK(rec.seed == 103);
  CHECK(rec.vote_index == 3);
  CHECK_FALSE(rec.swapped);
  CHECK(rec.raw_text == reply.text);
  CHECK(rec.decision == judge_decision::equivalent);
  CHECK(rec.reason == "scripted");
  CHECK(rec.numeric_a == "200");
  CHECK(rec.numeric_b == "200");
  CHECK(rec.extra_text);
  CHECK_FALSE(rec.inconsistent);
  CHECK(rec.fault == fault_kind::none);
  CHECK(rec.attempts == 2);
  CHECK(rec.input_tokens == 10);
  CHECK(rec.output_tokens == 3);
  CHECK(rec.started_at_ms > 0);
  CHECK(rec.finished_at_ms >= rec.started_at_ms);
  CHECK(rec.latency_ms >= 0.0);
  // The adapter got the canonical prompt and the request's seed.
  REQUIRE(adapter->prompts().size() == 1);
  CHECK(adapter->prompts()[0] == build_judge_prompt(req.a, req.b));
  CHECK(adapter->options()[0].seed == std::optional<std::int64_t>{103});
  CHECK(adapter->options()[0].model == "manual-model");
  caf::anon_send_exit(w, caf::exit_reason::user_shutdown);
}

TEST_CASE("a request without seed reaches the adapter without seed") {
  test_system t;
  auto adapter = std::make_shared<manual_adapter>();
  auto w = spawn_judge_worker(t.sys, binding_with_cap(adapter, 1), "w@local");
  test_client c{t.sys, w};
  auto req = request_for("p", 1);
  req.has_seed = false;
  c.submit({req});
  t.run();
  adapter->complete_next(canonical("ABSTAIN"));
  t.run();
  REQUIRE(c.record(1));
  CHECK_FALSE(c.record(1)->has_seed);
  CHECK_FALSE(adapter->options()[0].seed.has_value());
  caf::anon_send_exit(w, caf::exit_reason::user_shutdown);
}

TEST_CASE("a transport failure is a record with its fault kind, never an "
          "error") {
  test_system t;
  auto w = spawn_judge_worker(
    t.sys, binding_with_cap(failing_judge("connection refused"), 1), "w@local");
  test_client c{t.sys, w};
  c.submit({request_for("p")});
  t.run();
  REQUIRE(c.record(1));
  CHECK(c.record(1)->transport_failed);
  CHECK(c.record(1)->transport_error == "connection refused");
  CHECK(c.record(1)->fault == fault_kind::connection);
  CHECK(c.record(1)->decision == judge_decision::parse_error);
  caf::anon_send_exit(w, caf::exit_reason::user_shutdown);
}

TEST_CASE("synchronous stubs answer a batch of calls in one message") {
  test_system t;
  auto w =
    spawn_judge_worker(t.sys, binding_with_cap(numeric_judge(), 8), "w@local");
  test_client c{t.sys, w};
  std::vector<judge_request> reqs;
  for (int i = 0; i < 8; ++i)
    reqs.push_back(request_for("p" + std::to_string(i)));
  c.submit(reqs);
  t.run();
  REQUIRE(c.st->replies.size() == 8);
  for (auto& r : c.st->replies)
    CHECK(r.record.decision == judge_decision::equivalent);
  // One update with the 8 credits, one with the 8 records.
  CHECK(c.st->updates == 2);
  caf::anon_send_exit(w, caf::exit_reason::user_shutdown);
}

TEST_CASE("clients sharing an inline judge get credits in shares, so that "
          "their batches stay large (eight runs on one daemon)") {
  test_system t;
  auto w =
    spawn_judge_worker(t.sys, binding_with_cap(numeric_judge(), 8), "w@local");
  std::vector<std::unique_ptr<test_client>> clients;
  for (int k = 0; k < 8; ++k)
    clients.push_back(std::make_unique<test_client>(t.sys, w));
  for (int k = 0; k < 8; ++k) {
    std::vector<judge_request> reqs;
    for (int i = 0; i < 2048; ++i)
      reqs.push_back(
        request_for("c" + std::to_string(k) + "-" + std::to_string(i)));
    clients[k]->submit(reqs);
  }
  t.run();
  // An inline judge's credit limit is 1024: a share of 128 each. One
  // credit at a time would split each freed batch over the eight clients
  // and end in thousands of one-call updates.
  for (auto& c : clients) {
    CHECK(c->st->replies.size() == 2048);
    CHECK(c->st->updates <= 2 * 2048 / 128 + 4);
  }
  caf::anon_send_exit(w, caf::exit_reason::user_shutdown);
}

TEST_CASE("a swapped request swaps NUMERIC_A/B back into the pair's order") {
  test_system t;
  auto adapter = std::make_shared<manual_adapter>();
  auto w = spawn_judge_worker(t.sys, binding_with_cap(adapter, 1), "w@local");
  test_client c{t.sys, w};
  auto req = request_for("p", 1);
  req.swapped = true;
  c.submit({req});
  t.run();
  adapter->complete_next(canonical("DIFFERENT", "1", "2"));
  t.run();
  REQUIRE(c.record(1));
  CHECK(c.record(1)->swapped);
  CHECK(c.record(1)->numeric_a == "2");
  CHECK(c.record(1)->numeric_b == "1");
  caf::anon_send_exit(w, caf::exit_reason::user_shutdown);
}

TEST_CASE("two clients share a worker of capacity 2 in turn: never more "
          "than 2 calls in flight, and neither starves") {
  test_system t;
  auto adapter = std::make_shared<manual_adapter>();
  auto w = spawn_judge_worker(t.sys, binding_with_cap(adapter, 2), "w@local");
  test_client big{t.sys, w};
  test_client small{t.sys, w};
  std::vector<judge_request> many, few;
  for (int i = 0; i < 40; ++i)
    many.push_back(request_for("big" + std::to_string(i)));
  for (int i = 0; i < 4; ++i)
    few.push_back(request_for("small" + std::to_string(i)));
  big.submit(many);
  t.run();
  small.submit(few);
  t.run();
  // The big client's queue does not keep the small one waiting: within a
  // bounded number of calls (one turn each), the small one is served.
  std::size_t completed = 0;
  while (adapter->complete_next(canonical("EQUIVALENT"))) {
    ++completed;
    t.run();
    CHECK(adapter->open() <= 2);
    if (small.st->replies.size() < few.size()) {
      // Calls completed so far: at most two of big's per call of small's,
      // plus the two big ones already in flight when small arrived.
      CHECK(completed <= 2 * small.st->replies.size() + 4);
    }
  }
  CHECK(adapter->peak_open() == 2);
  CHECK(big.st->replies.size() == many.size());
  CHECK(small.st->replies.size() == few.size());
  caf::anon_send_exit(w, caf::exit_reason::user_shutdown);
}

TEST_CASE("credits a client holds return to the others when it ends or "
          "releases them") {
  test_system t;
  auto adapter = std::make_shared<manual_adapter>();
  auto w = spawn_judge_worker(t.sys, binding_with_cap(adapter, 2), "w@local");
  test_client hoarder{t.sys, w};
  hoarder.st->send_on_credit = false;
  test_client other{t.sys, w};
  hoarder.submit({request_for("h1"), request_for("h2")});
  t.run();
  CHECK(hoarder.st->credits == 2);
  other.submit({request_for("o1")});
  t.run();
  CHECK(other.st->credits_received == 0); // the worker is full of credits
  caf::send_as(hoarder.actor, w, release_atom::value, hoarder.actor,
               std::uint32_t{1});
  t.run();
  CHECK(other.st->replies.empty());
  CHECK(adapter->calls() == 1); // the released credit went to `other`
  caf::anon_send_exit(hoarder.actor, caf::exit_reason::user_shutdown);
  t.run();
  other.submit({request_for("o2")});
  t.run();
  CHECK(adapter->calls() == 2); // the hoarder's last credit came back
  while (adapter->complete_next(canonical("EQUIVALENT")))
    t.run();
  CHECK(other.st->replies.size() == 2);
  caf::anon_send_exit(w, caf::exit_reason::user_shutdown);
}

TEST_CASE("a worker serves the client its messages name: a message naming "
          "none is ignored, whoever sends it") {
  test_system t;
  auto adapter = std::make_shared<manual_adapter>();
  auto w = spawn_judge_worker(t.sys, binding_with_cap(adapter, 2), "w@local");
  std::vector<judge_call> calls{{1, request_for("a")}};
  caf::anon_send(w, demand_atom::value, judge_client_actor{}, std::uint32_t{2});
  caf::anon_send(w, judge_client_actor{}, calls);
  t.run();
  CHECK(adapter->calls() == 0);
  auto status = ask<worker_status>(t.sys, w, status_atom::value);
  t.run();
  REQUIRE(status->value);
  CHECK(status->value->clients == 0);
  // Sent by nobody, the demand names a client: that client gets the credit.
  test_client c{t.sys, w};
  c.st->queue.push_back(request_for("b"));
  caf::anon_send(w, demand_atom::value, c.actor, std::uint32_t{1});
  t.run();
  CHECK(c.st->credits_received == 1);
  CHECK(adapter->calls() == 1);
  while (adapter->complete_next(canonical("EQUIVALENT")))
    t.run();
  REQUIRE(c.st->replies.size() == 1);
  CHECK(c.st->replies.front().record.pair_id == "b");
  caf::anon_send_exit(c.actor, caf::exit_reason::user_shutdown);
  caf::anon_send_exit(w, caf::exit_reason::user_shutdown);
}

TEST_CASE("calls sent without a credit wait instead of exceeding the "
          "capacity") {
  test_system t;
  auto adapter = std::make_shared<manual_adapter>();
  auto w = spawn_judge_worker(t.sys, binding_with_cap(adapter, 1), "w@local");
  test_client c{t.sys, w};
  std::vector<judge_call> calls{{1, request_for("a")}, {2, request_for("b")}};
  caf::send_as(c.actor, w, c.actor, calls);
  t.run();
  CHECK(adapter->calls() == 1);
  adapter->complete_next(canonical("EQUIVALENT"));
  t.run();
  CHECK(adapter->calls() == 2);
  adapter->complete_next(canonical("EQUIVALENT"));
  t.run();
  CHECK(adapter->peak_open() == 1);
  CHECK(c.st->replies.size() == 2);
  caf::anon_send_exit(w, caf::exit_reason::user_shutdown);
}

TEST_CASE(
  "a client's cancel aborts its calls at the adapter and their slots go "
  "to the other clients at once") {
  test_system t;
  auto adapter = std::make_shared<manual_adapter>();
  adapter->answer_aborts = false; // slow to abort: the slots must not wait
  auto w = spawn_judge_worker(t.sys, binding_with_cap(adapter, 2), "w@local");
  test_client cancelled{t.sys, w};
  test_client other{t.sys, w};
  cancelled.submit({request_for("c1"), request_for("c2"), request_for("c3")});
  t.run();
  other.submit({request_for("o1"), request_for("o2")});
  t.run();
  CHECK(adapter->calls() == 2);
  CHECK(other.st->credits_received == 0);
  caf::send_as(cancelled.actor, w, cancel_atom::value, cancelled.actor);
  t.run();
  // Both calls were aborted by their id, and the other client's calls are
  // at the adapter while the aborted ones are still open there.
  auto opts = adapter->options();
  CHECK(adapter->aborted()
        == std::vector<std::uint64_t>{opts[0].call_id, opts[1].call_id});
  CHECK(opts[0].call_id != 0);
  CHECK(adapter->calls() == 4);
  CHECK(adapter->open() == 4);
  // The adapter answers the aborts: the cancelled client hears what became
  // of each (its third request never got a credit: nothing to tell).
  for (int i = 0; i < 2; ++i) {
    adapter_reply cut;
    cut.fault = fault_kind::aborted;
    cut.attempts = 1;
    REQUIRE(adapter->complete_next(cut));
  }
  t.run();
  REQUIRE(cancelled.st->replies.size() == 2);
  for (auto& r : cancelled.st->replies) {
    CHECK(r.record.fault == fault_kind::aborted);
    CHECK(r.record.attempts == 1);
  }
  while (adapter->complete_next(canonical("EQUIVALENT")))
    t.run();
  CHECK(other.st->replies.size() == 2);
  caf::anon_send_exit(w, caf::exit_reason::user_shutdown);
}

TEST_CASE("a cancel drops calls waiting at the worker as never sent, a client "
          "that ends has its calls aborted") {
  test_system t;
  auto adapter = std::make_shared<manual_adapter>();
  auto w = spawn_judge_worker(t.sys, binding_with_cap(adapter, 1), "w@local");
  test_client c{t.sys, w};
  // Without credits: one starts, one waits at the worker.
  std::vector<judge_call> calls{{1, request_for("a")}, {2, request_for("b")}};
  caf::send_as(c.actor, w, c.actor, calls);
  t.run();
  CHECK(adapter->calls() == 1);
  caf::send_as(c.actor, w, cancel_atom::value, c.actor);
  t.run();
  REQUIRE(c.st->replies.size() == 2);
  auto* queued = c.record(2);
  REQUIRE(queued);
  CHECK(queued->fault == fault_kind::aborted);
  CHECK(queued->attempts == 0); // it never reached the adapter
  CHECK(queued->pair_id == "b");
  auto* started = c.record(1);
  REQUIRE(started);
  CHECK(started->fault == fault_kind::aborted);
  CHECK(started->attempts == 1);
  CHECK(adapter->calls() == 1);

  // A client that ends: its call is aborted, the slot goes to the next.
  test_client gone{t.sys, w};
  test_client next{t.sys, w};
  adapter->answer_aborts = false;
  gone.submit({request_for("g")});
  t.run();
  next.submit({request_for("n")});
  t.run();
  CHECK(adapter->calls() == 2);
  caf::anon_send_exit(gone.actor, caf::exit_reason::user_shutdown);
  t.run();
  CHECK(adapter->aborted().size() == 2);
  CHECK(adapter->calls() == 3);
  // The calls still open at the adapter end (their handlers hold the
  // adapter: left open, they would never be freed).
  while (adapter->complete_next(canonical("EQUIVALENT")))
    t.run();
  CHECK(next.st->replies.size() == 1);
  caf::anon_send_exit(w, caf::exit_reason::user_shutdown);
}

TEST_CASE(
  "a worker queues calls sent ahead for a client across a round trip, up "
  "to the bound, and starts them as slots free") {
  test_system t;
  auto adapter = std::make_shared<manual_adapter>();
  auto w = spawn_judge_worker(t.sys, binding_with_cap(adapter, 2), "w@local",
                              "local", 3);
  test_client c{t.sys, w};
  // The host's pings measured 50 ms to the client's node.
  caf::anon_send(w, rtt_atom::value, c.actor.node(), std::uint32_t{50000});
  std::vector<judge_request> reqs;
  for (int i = 0; i < 10; ++i)
    reqs.push_back(request_for("p" + std::to_string(i)));
  c.submit(reqs);
  t.run();
  // No call has ended yet: no call rate, no queue.
  CHECK(c.st->credits_received == 2);
  REQUIRE(adapter->complete_next(canonical("EQUIVALENT")));
  t.run();
  // Now the queue covers the round trip, up to its bound of 3: one call at
  // the adapter took the free slot, three wait at the worker.
  CHECK(c.st->credits_received == 2 + 4);
  CHECK(adapter->calls() == 3);
  CHECK(c.st->queued == std::vector<std::uint64_t>{4, 5, 6});
  auto status = ask<worker_status>(t.sys, w, status_atom::value);
  t.run();
  REQUIRE(status->value);
  CHECK(status->value->in_flight == 2);
  CHECK(status->value->queued == 3);
  CHECK(status->value->peak_queued == 3);
  // A slot frees: the oldest queued call starts at once, without waiting
  // for a credit to cross the network; the client hears it started.
  REQUIRE(adapter->complete_next(canonical("EQUIVALENT")));
  t.run();
  CHECK(c.st->started == std::vector<std::uint64_t>{4});
  CHECK(adapter->calls() == 4);
  while (adapter->complete_next(canonical("EQUIVALENT")))
    t.run();
  CHECK(c.st->replies.size() == 10);
  CHECK(adapter->peak_open() == 2); // never beyond the capacity
  caf::anon_send_exit(w, caf::exit_reason::user_shutdown);
}

TEST_CASE(
  "queued calls start round-robin over the clients: a queue never lets one "
  "run starve another") {
  test_system t;
  auto adapter = std::make_shared<manual_adapter>();
  auto w = spawn_judge_worker(t.sys, binding_with_cap(adapter, 1), "w@local",
                              "local", 8);
  test_client big{t.sys, w};
  test_client small{t.sys, w};
  caf::anon_send(w, rtt_atom::value, big.actor.node(), std::uint32_t{500000});
  // A first call gives the worker its call rate.
  big.submit({request_for("warm")});
  t.run();
  REQUIRE(adapter->complete_next(canonical("EQUIVALENT")));
  t.run();
  std::vector<judge_request> many, few;
  for (int i = 0; i < 20; ++i)
    many.push_back(request_for("b" + std::to_string(i)));
  for (int i = 0; i < 4; ++i)
    few.push_back(request_for("s" + std::to_string(i)));
  big.submit(many);
  t.run();
  small.submit(few);
  t.run();
  CHECK_FALSE(big.st->queued.empty());
  // While the big client's queue is full, every other start is the small
  // client's until its calls are done.
  std::string order;
  auto opts_seen = std::size_t{0};
  while (adapter->complete_next(canonical("EQUIVALENT"))) {
    t.run();
    auto opts = adapter->options();
    for (; opts_seen < opts.size(); ++opts_seen)
      order += opts[opts_seen].pair_id[0] == 's' ? 's' : 'b';
  }
  INFO(order);
  CHECK(small.st->replies.size() == 4);
  auto last_small = order.rfind('s');
  REQUIRE(last_small != std::string::npos);
  CHECK(last_small <= 2 * 4 + 1); // interleaved, not behind the big queue
  caf::anon_send_exit(w, caf::exit_reason::user_shutdown);
}

TEST_CASE("a worker describes itself and the judge it serves") {
  test_system t;
  auto b = binding_with_cap(numeric_judge(), 3);
  b.spec.name = "rules";
  b.spec.type = "stub";
  b.spec.model = "numeric";
  b.spec.api_key_env = "SOME_KEY_VAR";
  auto w = spawn_judge_worker(t.sys, b, "rules#1@local");
  auto info = ask<judge_info>(t.sys, w, info_atom::value);
  t.run();
  REQUIRE(info->value);
  auto& i = *info->value;
  CHECK(i.judge_id == judge_id_of(b.spec));
  CHECK(i.worker_id == "rules#1@local");
  CHECK(i.host == "local");
  CHECK(i.name == "rules");
  CHECK(i.adapter_type == "stub");
  CHECK(i.adapter_id == "stub:numeric");
  CHECK(i.model == "numeric");
  CHECK(i.temperature == 0.7);
  CHECK(i.supports_seed);
  CHECK(i.has_seed);
  CHECK(i.seed == 100);
  CHECK(i.capacity == 3);
  CHECK(i.api_key_env == "SOME_KEY_VAR");
  CHECK(i.prompt_id == std::string{judge_prompt_id});
  CHECK(i.prompt_sha256 == judge_prompt_template_sha256());
  CHECK_FALSE(i.version.empty());
  // Same judge, another worker: same judge id; another model: another id.
  auto other = b.spec;
  other.base_url = "http://elsewhere:1";
  CHECK(judge_id_of(other) == i.judge_id);
  other.model = "equivalent";
  CHECK(judge_id_of(other) != i.judge_id);
  caf::anon_send_exit(w, caf::exit_reason::user_shutdown);
}
