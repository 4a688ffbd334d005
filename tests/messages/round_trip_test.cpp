// Every message type survives CAF's binary serializer unchanged, inside and
// outside a caf::message, under the name add_message_types registered. This
// is what crossing hosts through the middleman relies on.
#include <string>
#include <typeinfo>
#include <vector>

#include <caf/actor_system.hpp>
#include <caf/actor_system_config.hpp>
#include <caf/binary_deserializer.hpp>
#include <caf/binary_serializer.hpp>
#include <caf/message.hpp>
#include <caf/send.hpp>
#include <caf/typed_event_based_actor.hpp>
#include <catch2/catch.hpp>

#include "messages/answer_pair.hpp"
#include "messages/audit_entry.hpp"
#include "messages/canary_result.hpp"
#include "messages/equivalence_outcome.hpp"
#include "messages/error.hpp"
#include "messages/fault_kind.hpp"
#include "messages/host_event.hpp"
#include "messages/host_hello.hpp"
#include "messages/interfaces.hpp"
#include "messages/judge_call.hpp"
#include "messages/judge_decision.hpp"
#include "messages/judge_info.hpp"
#include "messages/judge_record.hpp"
#include "messages/judge_request.hpp"
#include "messages/judge_watch.hpp"
#include "messages/registration.hpp"
#include "messages/run_events.hpp"
#include "messages/run_figures.hpp"
#include "messages/run_input.hpp"
#include "messages/run_note.hpp"
#include "messages/run_row.hpp"
#include "messages/run_summary.hpp"
#include "messages/unrecorded_calls.hpp"
#include "messages/verdict.hpp"
#include "messages/vote_job.hpp"
#include "messages/vote_result.hpp"

using namespace ij;

namespace {

caf::actor_system* active_system = nullptr;

// A system per test case: a static one would be destroyed after CAF's own
// statics at exit, which corrupts the heap in CAF 0.17.
struct registered_system {
  caf::actor_system_config cfg;
  caf::actor_system sys;

  static caf::actor_system_config& configure(caf::actor_system_config& c) {
    add_message_types(c);
    return c;
  }

  registered_system() : sys(configure(cfg)) { active_system = &sys; }

  ~registered_system() { active_system = nullptr; }
};

caf::actor_system& test_system() {
  REQUIRE(active_system != nullptr);
  return *active_system;
}

template <class T>
T binary_round_trip(const T& x) {
  auto& sys = test_system();
  std::vector<char> buf;
  caf::binary_serializer sink{sys, buf};
  auto copy = x;
  auto err = sink(copy);
  REQUIRE_FALSE(err);
  REQUIRE_FALSE(buf.empty());
  T y{};
  caf::binary_deserializer source{sys, buf};
  err = source(y);
  REQUIRE_FALSE(err);
  CHECK(source.remaining() == 0);
  return y;
}

// Serializing a caf::message writes the registered type name; loading it
// back looks the name up, so this only works for registered types.
template <class T>
T message_round_trip(const T& x) {
  auto& sys = test_system();
  auto msg = caf::make_message(x);
  std::vector<char> buf;
  caf::binary_serializer sink{sys, buf};
  auto err = sink(msg);
  REQUIRE_FALSE(err);
  caf::message back;
  caf::binary_deserializer source{sys, buf};
  err = source(back);
  REQUIRE_FALSE(err);
  REQUIRE(back.size() == 1);
  REQUIRE(back.match_element<T>(0));
  return back.get_as<T>(0);
}

template <class T>
void check_registered(const std::string& name) {
  auto& sys = test_system();
  CHECK(sys.types().portable_name(0, &typeid(T)) == name);
  auto value = sys.types().make_value(name);
  REQUIRE(value);
  CHECK(value->type() == std::make_pair(std::uint16_t{0}, &typeid(T)));
  // add_message_type<T> registers std::vector<T> too.
  CHECK(sys.types().portable_name(0, &typeid(std::vector<T>))
        != sys.types().default_type_name());
}

template <class T>
void check_round_trips(const T& x, const std::string& name) {
  INFO("type " << name);
  check_registered<T>(name);
  CHECK(binary_round_trip(x) == x);
  CHECK(message_round_trip(x) == x);
  std::vector<T> many{x, T{}, x};
  CHECK(binary_round_trip(many) == many);
  CHECK(message_round_trip(many) == many);
}

judge_record full_record(std::uint32_t vote) {
  judge_record r;
  r.pair_id = "pair-1";
  r.prompt_id = "invariance-checker/judge/v1";
  r.adapter_id = "ollama@http://127.0.0.1:11434";
  r.worker_id = "ollama:qwen2.5:7b#2@10.0.0.7:4242";
  r.host = "10.0.0.7:4242";
  r.model = "qwen2.5:7b";
  r.temperature = 0.7;
  r.has_seed = true;
  r.seed = -42;
  r.vote_index = vote;
  r.swapped = true;
  r.raw_text = "DECISION: DIFFERENT\nREASON: \xE2\x88\x9A"
               "2 vs 1.4\n"
               "NUMERIC_A: 1.41\nNUMERIC_B: 1.4";
  r.decision = judge_decision::different;
  r.reason = "\xE2\x88\x9A"
             "2 vs 1.4";
  r.numeric_a = "1.41";
  r.numeric_b = "1.4";
  r.extra_text = true;
  r.inconsistent = true;
  r.transport_failed = true;
  r.transport_error = "HTTP 529 overloaded";
  r.fault = fault_kind::rate_limited;
  r.attempts = 3;
  r.latency_ms = 1234.5;
  r.started_at_ms = 1764683000000;
  r.finished_at_ms = 1764683001234;
  r.input_tokens = 311;
  r.output_tokens = 27;
  r.cached = true;
  r.refused_by_breaker = true;
  r.decision_probs = {0.25, 0.625, 0.125};
  r.logprobs_asked = true;
  r.batched = true;
  return r;
}

vote_counts full_counts() {
  return vote_counts{5, 3, 2, 1, 1, 1, 0, 1};
}

equivalence_outcome outcome(std::optional<bool> eq, bool fault) {
  return {eq, eq ? 1.0 : 0.0, fault ? "read timeout" : "EQUIVALENT", fault};
}

} // namespace

TEST_CASE_METHOD(
  registered_system,
  "messages: answer_pair round-trips with label true, false and null",
  "[messages]") {
  for (std::optional<bool> label :
       {std::optional<bool>{true}, std::optional<bool>{false},
        std::optional<bool>{}}) {
    answer_pair p{"id-7", "item-3",     "The answer is 12.\n", "\\boxed{12}",
                  label,  "paraphrase", "What is 3 times 4?"};
    check_round_trips(p, "ij.answer_pair2");
    CHECK(binary_round_trip(p).label == label);
  }
}

TEST_CASE_METHOD(
  registered_system,
  "messages: equivalence_outcome round-trips true, false, null and "
  "fault",
  "[messages]") {
  for (auto o : {outcome(true, false), outcome(false, false),
                 outcome(std::nullopt, false), outcome(std::nullopt, true)}) {
    check_round_trips(o, "ij.equivalence_outcome");
    CHECK(binary_round_trip(o).equivalent == o.equivalent);
  }
  equivalence_outcome partial{true, 0.6666, "2 of 3", false};
  CHECK(binary_round_trip(partial) == partial);
}

TEST_CASE_METHOD(registered_system,
                 "messages: judge_decision round-trips every value",
                 "[messages]") {
  for (auto d : {judge_decision::equivalent, judge_decision::different,
                 judge_decision::abstain, judge_decision::parse_error})
    check_round_trips(d, "ij.judge_decision");
}

// Issue 30: a daemon run's state is an enumeration on the wire too.
TEST_CASE_METHOD(registered_system,
                 "messages: a run's row and figures carry run_state",
                 "[messages]") {
  for (auto state : all_run_states) {
    run_row row;
    row.id = "r1";
    row.state = state;
    row.counts_json = "{\"pairs\":3}";
    check_round_trips(row, "ij.run_row");
    check_round_trips(run_end_record{row, state != run_state::open},
                      "ij.run_end_record");
    check_round_trips(removed_run{"r1", state, "{}"}, "ij.removed_run");
  }
  run_figures f;
  f.runs_by_state = {{run_state::done, 4}, {run_state::failed, 1}};
  f.count_sums = {{"pairs", 7}};
  check_round_trips(f, "ij.run_figures");
}

TEST_CASE_METHOD(registered_system,
                 "messages: fault_kind round-trips every value and its name",
                 "[messages]") {
  for (auto k : all_fault_kinds) {
    CHECK(binary_round_trip(k) == k);
    CHECK(fault_kind_from_string(to_string(k)) == k);
  }
  CHECK_FALSE(fault_kind_from_string("bogus"));
}

TEST_CASE_METHOD(registered_system,
                 "messages: project errors render in plain words and survive "
                 "serialization",
                 "[messages]") {
  auto err = make_error(errc::audit_failed, "audit.jsonl: disk full");
  CHECK(render_error(err)
        == "the audit trail cannot be written: audit.jsonl: disk full");
  CHECK(test_system().render(err) == render_error(err));
  auto back = binary_round_trip(err);
  CHECK(back == err);
  CHECK(render_error(back) == render_error(err));
  // CAF's own errors in plain words, not "error(1, system, ...)".
  auto timeout = caf::make_error(caf::sec::request_timeout);
  CHECK(render_error(timeout) == "no reply in time");
  auto runtime =
    caf::make_error(caf::sec::runtime_error, std::string{"the run ended"});
  CHECK(render_error(runtime) == "the run ended");
  // The context alone, for messages that already name the kind of failure.
  CHECK(context_of(err) == "audit.jsonl: disk full");
  CHECK(context_of(timeout) == "no reply in time");
  CHECK(context_of(caf::error{}).empty());
  CHECK(render_error(make_error(errc::io_failed, "state.db: locked"))
        == "cannot read or write: state.db: locked");
  CHECK(render_error(make_error(errc::bad_reply, "HTTP 200: not JSON"))
        == "an unreadable reply: HTTP 200: not JSON");
}

TEST_CASE_METHOD(
  registered_system,
  "messages: verdict_kind and verdict_rule round-trip every value",
  "[messages]") {
  for (auto v :
       {verdict_kind::invariant, verdict_kind::violated, verdict_kind::neither})
    check_round_trips(v, "ij.verdict_kind");
  for (auto r : {verdict_rule::i1, verdict_rule::i2, verdict_rule::i3,
                 verdict_rule::i4, verdict_rule::i5})
    check_round_trips(r, "ij.verdict_rule");
}

TEST_CASE_METHOD(registered_system, "messages: judge_request round-trips",
                 "[messages]") {
  judge_request r{"pair-9",
                  "twelve",
                  "",
                  4,
                  true,
                  true,
                  1004,
                  17,
                  "0a1b2c3d4e5f",
                  "What is 3 times 4?",
                  true};
  check_round_trips(r, "ij.judge_request2");
  CHECK(binary_round_trip(r).non_numeric);
  CHECK(binary_round_trip(r).problem == "What is 3 times 4?");
}

TEST_CASE_METHOD(registered_system,
                 "messages: judge_record round-trips with every field set",
                 "[messages]") {
  auto r = full_record(2);
  // Every field differs from its default, so a dropped field shows.
  judge_record defaults;
  CHECK_FALSE(r.pair_id == defaults.pair_id);
  CHECK(r.decision != defaults.decision);
  check_round_trips(r, "ij.judge_record");
}

TEST_CASE_METHOD(registered_system, "messages: vote_counts round-trips",
                 "[messages]") {
  check_round_trips(full_counts(), "ij.vote_counts");
}

TEST_CASE_METHOD(registered_system,
                 "messages: vote_result round-trips with its records",
                 "[messages]") {
  vote_result v;
  v.pair_id = "pair-1";
  v.absent = true;
  v.outcome = outcome(false, false);
  v.counts = full_counts();
  v.records = {full_record(0), full_record(1), judge_record{}};
  check_round_trips(v, "ij.vote_result2");
  CHECK(binary_round_trip(v).records.size() == 3);
}

TEST_CASE_METHOD(
  registered_system,
  "messages: a calibrated probability and stop reason round-trip",
  "[messages]") {
  vote_result v;
  v.pair_id = "pair-1";
  v.outcome = outcome(true, false);
  v.outcome.probability = 0.987654321;
  v.stop = "probability";
  v.records = {full_record(0)};
  v.records[0].decision_probs = {0.9, 0.07, 0.03};
  check_round_trips(v, "ij.vote_result2");
  auto back = binary_round_trip(v);
  CHECK(back.outcome.probability == 0.987654321);
  CHECK(back.stop == "probability");
  statistical_verdict item;
  item.item = "q";
  item.probability = 0.75;
  check_round_trips(item, "ij.statistical_verdict");
  CHECK(binary_round_trip(item).probability == 0.75);
}

TEST_CASE_METHOD(registered_system, "messages: single_verdict round-trips",
                 "[messages]") {
  single_verdict s;
  s.pair_id = "pair-1";
  s.item = "item-1";
  s.verdict = verdict_kind::violated;
  s.rule = verdict_rule::i5;
  s.outcome = outcome(false, false);
  s.counts = full_counts();
  check_round_trips(s, "ij.single_verdict");
}

TEST_CASE_METHOD(registered_system, "messages: statistical_params round-trips",
                 "[messages]") {
  statistical_params p{0.9, 0.01, 0.1, 0.15, 0.25, 8};
  check_round_trips(p, "ij.statistical_params");
}

TEST_CASE_METHOD(registered_system, "messages: statistical_verdict round-trips",
                 "[messages]") {
  statistical_verdict v;
  v.item = "item-4";
  v.verdict = verdict_kind::invariant;
  v.rule = verdict_rule::i4;
  v.c1 = 1;
  v.c2 = 2;
  v.c3 = 3;
  v.c4 = 40;
  v.c5 = 5;
  v.n = 51;
  v.decided = 45;
  v.p = 40.0 / 45.0;
  v.lo = 0.76;
  v.hi = 0.95;
  v.params = statistical_params{0.7, 0.1, 0.3, 0.3, 0.3, 6};
  check_round_trips(v, "ij.statistical_verdict");
}

TEST_CASE_METHOD(registered_system, "messages: judge_usage round-trips",
                 "[messages]") {
  check_round_trips(
    judge_usage{"anthropic:claude-haiku-4-5", 120, 3, 45000, 2300, 30000, 1500},
    "ij.judge_usage");
}

TEST_CASE_METHOD(registered_system,
                 "messages: run_summary round-trips with usage", "[messages]") {
  run_summary s;
  s.pairs = 100;
  s.rejected = 2;
  s.items = 10;
  for (int i = 0; i < 5; ++i)
    s.by_rule[i] = 10 + static_cast<std::uint64_t>(i);
  s.judge_calls = 260;
  s.calls_skipped = 40;
  s.faults = 4;
  s.usage = {judge_usage{"stub:numeric", 200, 0, 0, 0},
             judge_usage{"ollama:qwen2.5:7b", 60, 4, 9000, 700}};
  s.faults_by_kind = {0, 1, 0, 3};
  s.calls_sent = 262;
  s.calls_answered = 259;
  s.calls_aborted = 4;
  s.calls_unrecorded = 5;
  s.interrupted = true;
  s.stop_reason = "interrupted (SIGINT)";
  s.unfinished = 7;
  s.open_items = 2;
  s.audit_lines = 512;
  s.run_id = "run-20261203T071500Z-3f9a";
  s.final_hash = std::string(64, 'a');
  s.error = "the audit trail cannot be written: disk full";
  s.canaries = 17;
  s.canary_tallies = {canary_tally{"stub:equivalent", 17, 12, 8, 4, 0, true}};
  s.alarms = {bias_alarm_event{"stub:equivalent", "false_equivalent", 3, 2, 2,
                               2, 2, 4.605, 4.595, alarm_action::stop_run, 3}};
  s.position_bias = {position_bias_rate{"judge", 40, 3, 0.075, 0.026, 0.199}};
  s.stopped_by_alarm = true;
  s.calls_sent = 200;
  s.calls_refused_breaker = 52;
  s.calls_refused_budget = 8;
  s.fault_reasons = {
    fault_reason{"ollama:qwen2.5:7b", fault_kind::connection,
                 "connecting to 127.0.0.1:1: Connection refused", 3},
    fault_reason{"ollama:qwen2.5:7b", fault_kind::unavailable, "not sent", 52}};
  check_round_trips(s, "ij.run_summary");
}

namespace {

panel_summary full_panel() {
  panel_summary p;
  p.enabled = true;
  p.judges = {"rules:math", "qwen"};
  p.rule = "majority";
  p.pairs = 40;
  p.all = 30;
  p.majority = 4;
  p.split = 6;
  p.rated = 38;
  p.raw = 0.79;
  p.raw_lo = 0.64;
  p.raw_hi = 0.89;
  p.kappa_kind = "cohen";
  p.kappa_defined = true;
  p.kappa = 0.55;
  p.kappa_interval = true;
  p.kappa_lo = 0.3;
  p.kappa_hi = 0.8;
  p.confidence = 0.99;
  judge_confusion c;
  c.judge = "qwen";
  c.cells = {1, 2, 3, 4, 5, 6};
  p.confusion = {c};
  return p;
}

cascade_summary full_cascade() {
  cascade_summary c;
  c.enabled = true;
  c.rules = "rules:math";
  c.llm = "claude";
  c.audit_rate = 0.1;
  std::uint64_t n = 1;
  for (auto* f :
       {&c.pairs, &c.rules_decided, &c.fallback, &c.audited, &c.audit_agree,
        &c.audit_disagree, &c.audit_undecided, &c.equivalent_confirmed,
        &c.equivalent_checked, &c.different_confirmed, &c.different_checked,
        &c.rules_calls, &c.llm_calls, &c.llm_input_tokens, &c.llm_output_tokens,
        &c.llm_pairs})
    *f = n++;
  return c;
}

judge_spend full_spend() {
  judge_spend s{"claude", 10,    2000, 300,  true, 0.0035, 7,  true,
                10,       false, 0,    true, 5000, true,   1.5};
  return s;
}

} // namespace

TEST_CASE_METHOD(registered_system,
                 "messages: a pair's judge parts round-trip in its vote_result",
                 "[messages]") {
  judge_part part{"qwen", "llm", outcome(false, false), full_counts()};
  check_round_trips(part, "ij.judge_part");
  vote_result v;
  v.pair_id = "pair-2";
  v.outcome = outcome(false, false);
  v.records = {full_record(0)};
  v.parts = {part, judge_part{"rules:math", "rules", {}, {}}};
  v.route = "audited";
  check_round_trips(v, "ij.vote_result2");
}

TEST_CASE_METHOD(registered_system,
                 "messages: panel, cascade and spend summaries round-trip, "
                 "also in run_summary",
                 "[messages]") {
  check_round_trips(full_panel().confusion[0], "ij.judge_confusion");
  check_round_trips(full_panel(), "ij.panel_summary");
  check_round_trips(full_cascade(), "ij.cascade_summary");
  check_round_trips(full_spend(), "ij.judge_spend");
  run_summary s;
  s.run_id = "run-x";
  s.panel = full_panel();
  s.cascade = full_cascade();
  s.spend = {full_spend(), judge_spend{}};
  check_round_trips(s, "ij.run_summary");
  CHECK(binary_round_trip(s).spend[0].max_output_tokens == 5000);
}

TEST_CASE_METHOD(registered_system,
                 "messages: what the canaries and the bias "
                 "alarm report round-trips",
                 "[messages]") {
  check_round_trips(canary_tally{"ollama:qwen2.5:7b", 40, 2, 1, 1, 0, false},
                    "ij.canary_tally");
  check_round_trips(bias_alarm_event{"j", "decided_abstain", 9, 3, 2, 2, 2, 4.6,
                                     4.59, alarm_action::stop_judge, 12},
                    "ij.bias_alarm_event");
  check_round_trips(position_bias_rate{"j", 10, 1, 0.1, 0.018, 0.404},
                    "ij.position_bias_rate");
  for (auto passed : {std::optional<bool>{true}, std::optional<bool>{false},
                      std::optional<bool>{}}) {
    canary_result c;
    c.id = "canary-3@run-20261203T071500Z-3f9a";
    c.kind = "master_key";
    c.position = 41;
    c.a = "Thought process:";
    c.b = "42";
    c.expected = "not EQUIVALENT";
    c.outcome = equivalence_outcome{true, 1.0, "EQUIVALENT", false};
    c.counts.votes = 3;
    c.counts.equivalent = 2;
    c.passed = passed;
    c.failed_judges = {"stub:equivalent"};
    check_round_trips(c, "ij.canary_result");
  }
}

TEST_CASE_METHOD(registered_system,
                 "messages: audit_entry and audit_batch round-trip",
                 "[messages]") {
  audit_entry e{audit_type::verdict, R"({"pair":"p1","rule":"I4"})"};
  check_round_trips(e, "ij.audit_entry");
  decided_pair d;
  d.pair.id = "p1";
  d.pair.a = "1";
  d.pair.b = "one";
  d.result.records = {full_record(0)};
  d.verdict = verdict_kind::invariant;
  d.rule = verdict_rule::i4;
  check_round_trips(d, "ij.decided_pair");
  audit_batch b{{d}, {e, audit_entry{audit_type::vote, "{}"}}, true, true};
  check_round_trips(b, "ij.audit_batch");
}

judge_info full_info() {
  judge_info i;
  i.judge_id = "openai:qwen t=0.3 prompt=invariance-checker/judge/v1#b7c260f6";
  i.worker_id = "llm#1@10.0.0.7:4242";
  i.host = "10.0.0.7:4242";
  i.name = "llm";
  i.adapter_type = "openai";
  i.adapter_id = "openai@http://127.0.0.1:8000/v1";
  i.model = "qwen";
  i.base_url = "http://127.0.0.1:8000/v1";
  i.temperature = 0.3;
  i.supports_seed = false;
  i.has_seed = true;
  i.seed = -9;
  i.capacity = 16;
  i.max_tokens = 512;
  i.timeout_ms = 30000;
  i.max_attempts = 4;
  i.max_response_bytes = 1 << 20;
  i.api_key_env = "OPENAI_API_KEY";
  i.ca_file = "/etc/ssl/ca.pem";
  i.logprobs = true;
  i.constrain = "json";
  i.prompt_id = "invariance-checker/judge/v1";
  i.prompt_sha256 = std::string(64, 'b');
  i.non_numeric_prompt_id = "my-team/any-answer/v3";
  i.non_numeric_prompt_sha256 = std::string(64, 'c');
  i.settings_key = "adapter=openai\nmodel=qwen\n";
  i.version = "0.2.0";
  return i;
}

TEST_CASE_METHOD(registered_system,
                 "messages: what judge workers and their clients exchange "
                 "round-trips",
                 "[messages]") {
  check_round_trips(full_info(), "ij.judge_info3");
  judge_request req{"p1", "A text", "B text", 2,  true, true,
                    1002, 0,        "",       "", false};
  check_round_trips(judge_call{77, req}, "ij.judge_call");
  check_round_trips(judge_reply{77, full_record(2)}, "ij.judge_reply2");
  check_round_trips(
    worker_update{
      "w#1@local", {judge_reply{1, full_record(0)}}, 3, 8, {4, 5}, {2}},
    "ij.worker_update2");
  check_round_trips(worker_status{"w#1@local", 8, 2, 8, 1000, 3, 5, 12},
                    "ij.worker_status2");
}

TEST_CASE_METHOD(registered_system,
                 "messages: a client's message to a worker carries "
                 "its handle across",
                 "[messages]") {
  auto& sys = test_system();
  // With an argument: CAF 0.17 dereferences the empty argument tuple of a
  // lambda actor spawned without any (UBSan: reference binding to null).
  judge_client_actor client = sys.spawn(
    [](judge_client_actor::pointer, int) -> judge_client_actor::behavior_type {
      return {[](worker_update&) {}};
    },
    0);
  check_registered<judge_client_actor>("ij.judge_client_actor");
  auto msg = caf::make_message(demand_atom::value, client, std::uint32_t{3});
  std::vector<char> buf;
  caf::binary_serializer sink{sys, buf};
  REQUIRE_FALSE(sink(msg));
  caf::message back;
  caf::binary_deserializer source{sys, buf};
  REQUIRE_FALSE(source(back));
  REQUIRE(
    back.match_elements<demand_atom, judge_client_actor, std::uint32_t>());
  CHECK(back.get_as<judge_client_actor>(1) == client);
  CHECK(back.get_as<std::uint32_t>(2) == 3);
  caf::anon_send_exit(client, caf::exit_reason::user_shutdown);
}

TEST_CASE_METHOD(registered_system,
                 "messages: what a run and its client exchange round-trips",
                 "[messages]") {
  answer_pair p{"p1", "item", "5", "five", true, "paraphrase", ""};
  check_round_trips(rejected_line{"in.jsonl", 12, "not JSON"},
                    "ij.rejected_line");
  check_round_trips(input_batch{{p, p}, {rejected_line{"f", 1, "bad"}}},
                    "ij.input_batch");
  check_round_trips(vote_job{9, p, {"decision_line in A"}, true},
                    "ij.vote_job2");
  vote_result vr;
  vr.pair_id = "p1";
  vr.records = {full_record(0)};
  vr.screened = "B states no result: punctuation or markup only";
  vr.flags = {"verdict_json in B"};
  check_round_trips(vr, "ij.vote_result2");
  check_round_trips(voted_pair{9, p, vr}, "ij.voted_pair");
  check_round_trips(
    run_started{"run-1", "a.jsonl", {full_info()}, {"a warning"}},
    "ij.run_started");
  worker_load w{"w#1@10.0.0.7:4242", "llm", 4, 8, 3, false,
                "10.0.0.7:4242",     12,    1};
  check_round_trips(w, "ij.worker_load");
  check_round_trips(run_progress{"run-1", "running", 10, 8, 1, 30, {w}},
                    "ij.run_progress");
}

TEST_CASE_METHOD(registered_system,
                 "messages: what judge hosts and coordinators exchange "
                 "round-trips",
                 "[messages]") {
  host_hello h{"10.0.0.7:4242",
               0x1234567890abcdefULL,
               "0.1.0",
               "invariance-checker/judge/v1",
               std::string(64, 'a'),
               {"ij.judge_info3", "ij.judge_call"},
               {"invariance-checker/judge/v1 " + std::string(64, 'a')}};
  check_round_trips(h, "ij.host_hello2");
  check_round_trips(host_event_kind::cooled_down, "ij.host_event_kind");
  host_event e{"10.0.0.7:4242",
               host_event_kind::lost,
               "host 10.0.0.7:4242 lost: no answer to pings for 5100 ms",
               {"a#1@10.0.0.7:4242", "b#2@10.0.0.7:4242"},
               1764770000123};
  check_round_trips(e, "ij.host_event");
  check_round_trips(run_note{audit_type::vote_moved, "10.0.0.7:4242", "",
                             "{\"pair_id\":\"p1\"}"},
                    "ij.run_note");
  check_round_trips(host_usage{"10.0.0.7:4242", 100, 2, 3, 1, 1},
                    "ij.host_usage");
  run_summary s;
  s.run_id = "run-1";
  s.votes_moved = 3;
  s.late_replies = 1;
  s.hosts = {host_usage{"local", 5, 0, 0, 0, 0},
             host_usage{"h:1", 7, 1, 3, 1, 1}};
  check_round_trips(s, "ij.run_summary");
}

TEST_CASE_METHOD(registered_system,
                 "messages: a cancel's account of the calls no record "
                 "shows round-trips",
                 "[messages]") {
  unrecorded_calls u{"openai:m t=0 prompt=x#1", 2, 3, 4, 100, 20, 50, 10};
  check_round_trips(u, "ij.unrecorded_calls");
}

TEST_CASE_METHOD(registered_system,
                 "messages: a truncated buffer is an error, not a crash",
                 "[messages]") {
  auto& sys = test_system();
  auto r = full_record(1);
  std::vector<char> buf;
  caf::binary_serializer sink{sys, buf};
  REQUIRE_FALSE(sink(r));
  buf.resize(buf.size() / 2);
  judge_record y;
  caf::binary_deserializer source{sys, buf};
  CHECK(source(y));
}
