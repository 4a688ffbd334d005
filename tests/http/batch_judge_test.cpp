// The batched judge (adapters/batch_judge) against the batch fakes of both
// APIs (tests/http/fake_batches): batches by size and by age, results in any
// order, the journal's order, failures per on_failure, whole-batch
// rejections, journal errors, adoption after a crash, cancelling a run.
// No assertion depends on timing: waits are bounded only to fail instead of
// hanging.
#include <atomic>
#include <chrono>
#include <future>
#include <map>
#include <mutex>
#include <optional>
#include <thread>

#include <catch2/catch.hpp>

#include "adapters/batch_judge.hpp"
#include "messages/error.hpp"
#include "tests/http/fake_batches.hpp"

using namespace ij;
using namespace std::chrono_literals;
using test::api_kind;
using test::fake_batches;

namespace {

constexpr const char* test_key = "sk-batch-judge-key";

/// Waits until `pred` holds; fails the test (not hangs) after a minute.
template <class Pred>
void wait_until(Pred pred) {
  auto end = std::chrono::steady_clock::now() + 60s;
  while (!pred()) {
    if (std::chrono::steady_clock::now() > end)
      throw std::runtime_error("condition not met within 60 s");
    std::this_thread::sleep_for(5ms);
  }
}

/// The journal a run would keep, in memory. `check` sees each mark as it is
/// recorded (before `done`); `fail_step` makes that step's records fail.
class test_journal : public batch_journal {
public:
  void record(batch_mark mark, std::function<void(caf::error)> done) override {
    std::function<void(const batch_mark&)> check;
    {
      std::lock_guard<std::mutex> g(mtx_);
      check = check_;
    }
    if (check)
      check(mark);
    std::lock_guard<std::mutex> g(mtx_);
    if (fail_ && *fail_ == mark.step)
      return done(make_error(errc::io_failed, "disk full (test)"));
    marks_.push_back(std::move(mark));
    done(caf::error{});
  }
  std::vector<batch_mark> marks() const {
    std::lock_guard<std::mutex> g(mtx_);
    return marks_;
  }
  std::size_t count(batch_step step) const {
    std::lock_guard<std::mutex> g(mtx_);
    return static_cast<std::size_t>(
      std::count_if(marks_.begin(), marks_.end(),
                    [&](const batch_mark& m) { return m.step == step; }));
  }
  void set_check(std::function<void(const batch_mark&)> check) {
    std::lock_guard<std::mutex> g(mtx_);
    check_ = std::move(check);
  }
  void fail(batch_step step) {
    std::lock_guard<std::mutex> g(mtx_);
    fail_ = step;
  }

private:
  mutable std::mutex mtx_;
  std::vector<batch_mark> marks_;
  std::function<void(const batch_mark&)> check_;
  std::optional<batch_step> fail_;
};

/// The synchronous fallback: answers at once and counts its calls.
class stub_fallback : public judge_adapter {
public:
  std::string id() const override { return "stub:batch-fallback"; }
  void call(const std::string&, const call_options& opts,
            reply_handler done) override {
    ++calls;
    adapter_reply r;
    r.ok = true;
    r.text = "DECISION: DIFFERENT\nREASON: sync "
             + make_custom_id({opts.run_tag, opts.pair_seq, opts.vote_index});
    done(r);
  }
  std::atomic<int> calls{0};
};

/// Every reply, by custom_id.
class replies {
public:
  reply_handler handler(const std::string& id) {
    return [this, id](adapter_reply r) {
      std::lock_guard<std::mutex> g(mtx_);
      ++answers_[id];
      got_[id] = std::move(r);
    };
  }
  std::size_t size() const {
    std::lock_guard<std::mutex> g(mtx_);
    return got_.size();
  }
  void wait(std::size_t n) const {
    wait_until([&] { return size() >= n; });
  }
  adapter_reply at(const std::string& id) const {
    std::lock_guard<std::mutex> g(mtx_);
    return got_.at(id);
  }
  /// Each call answered exactly once.
  bool once() const {
    std::lock_guard<std::mutex> g(mtx_);
    return std::all_of(answers_.begin(), answers_.end(),
                       [](auto& a) { return a.second == 1; });
  }

private:
  mutable std::mutex mtx_;
  std::map<std::string, adapter_reply> got_;
  std::map<std::string, int> answers_;
};

api_kind kind_of(batch_api api) {
  return api == batch_api::anthropic ? api_kind::anthropic : api_kind::openai;
}

std::unique_ptr<fake_batches> make_fake(batch_api api) {
  test::fake_batch_options o;
  o.kind = kind_of(api);
  o.api_key = test_key;
  auto fake = std::make_unique<fake_batches>(o);
  // Each reply names its request: a reply reaching the wrong call shows.
  fake->set_reply([](const std::string& id) {
    return "DECISION: EQUIVALENT\nREASON: for " + id
           + "\nNUMERIC_A: 1\nNUMERIC_B: 1";
  });
  return fake;
}

std::unique_ptr<batch_client> client_for(const fake_batches& fake,
                                         batch_api api) {
  batch_client_config cfg;
  cfg.api = api;
  auto base = parse_url(fake.base_url());
  REQUIRE(base);
  cfg.base = *base;
  cfg.key = test_key;
  cfg.timeout = 20s;
  auto client = batch_client::create(cfg);
  REQUIRE(client);
  return std::move(*client);
}

struct setup {
  batch_api api;
  std::unique_ptr<fake_batches> fake;
  std::shared_ptr<test_journal> journal = std::make_shared<test_journal>();
  std::shared_ptr<stub_fallback> fallback = std::make_shared<stub_fallback>();

  explicit setup(batch_api a) : api(a), fake(make_fake(a)) {}

  batch_judge_config
  config(std::size_t max_requests = 3,
         batch_failure_policy on_failure = batch_failure_policy::fault) {
    batch_judge_config c;
    c.api = api;
    c.max_requests = max_requests;
    c.max_wait = 100ms;
    c.poll = 10ms;
    c.on_failure = on_failure;
    return c;
  }

  std::shared_ptr<batch_judge> judge(batch_judge_config c) {
    auto j = make_batch_judge(c, client_for(*fake, api), fallback, journal);
    REQUIRE(j);
    return *j;
  }
};

call_options vote(const std::string& tag, std::uint64_t seq,
                  std::uint32_t v = 0) {
  call_options o;
  o.model = "judge-model";
  o.max_tokens = 64;
  o.run_tag = tag;
  o.pair_seq = seq;
  o.vote_index = v;
  o.pair_id = "pair-" + std::to_string(seq);
  return o;
}

std::string id_of(const call_options& o) {
  return make_custom_id({o.run_tag, o.pair_seq, o.vote_index});
}

/// Calls pairs [from, to) of run `tag`, vote 0.
void call_pairs(batch_judge& j, replies& r, const std::string& tag,
                std::uint64_t from, std::uint64_t to) {
  for (auto seq = from; seq < to; ++seq) {
    auto o = vote(tag, seq);
    j.call("prompt of pair " + std::to_string(seq), o, r.handler(id_of(o)));
  }
}

const auto both_apis = {batch_api::anthropic, batch_api::openai};

} // namespace

TEST_CASE(
  "batch judge: a batch at max_requests, another at max_wait, replies matched",
  "[http][batch][batch_judge]") {
  for (auto api : both_apis) {
    INFO(to_string(api));
    setup s(api);
    // Every pending mark precedes its batch at the provider (counted on
    // the journal's thread, checked here: Catch is not thread-safe).
    std::atomic<int> early{0};
    s.journal->set_check([&](const batch_mark& m) {
      if (m.step == batch_step::pending)
        for (auto& e : m.entries)
          if (s.fake->times_sent(e.custom_id) != 0)
            ++early;
    });
    replies r;
    {
      auto j = s.judge(s.config(3));
      call_pairs(*j, r, "run1", 0, 5);
      r.wait(5);
      wait_until([&] { return j->stats().ended == 2; });
      CHECK(j->stats().calls_waiting == 0);
      CHECK(j->stats().in_progress == 0);
    }
    CHECK(early == 0);
    CHECK(s.fake->batches_created() == 2);
    CHECK(r.once());
    for (std::uint64_t seq = 0; seq < 5; ++seq) {
      auto id = make_custom_id({"run1", seq, 0});
      auto reply = r.at(id);
      CHECK(reply.ok);
      CHECK(reply.batched);
      CHECK(reply.attempts == 1);
      CHECK_THAT(reply.text, Catch::Contains("for " + id + "\n"));
      CHECK(s.fake->times_sent(id) == 1);
    }
    CHECK(s.journal->count(batch_step::pending) == 2);
    CHECK(s.journal->count(batch_step::submitted) == 2);
    CHECK(s.journal->count(batch_step::ended) == 2);
    CHECK(s.fake->violations().empty());
  }
}

TEST_CASE(
  "batch judge: the journal's order, and one request per custom_id in flight",
  "[http][batch][batch_judge]") {
  for (auto api : both_apis) {
    INFO(to_string(api));
    setup s(api);
    std::mutex mtx;
    std::vector<std::string> seen;
    replies r, twin;
    s.journal->set_check([&](const batch_mark& m) {
      std::string what{to_string(m.step)};
      if (m.step == batch_step::pending && s.fake->batches_created() != 0)
        what += " after the batch was created";
      if (m.step == batch_step::submitted
          && (s.fake->batches_created() != 1 || s.fake->polls() != 0
              || m.batch_id != s.fake->batch_ids().at(0)))
        what += " after a poll, or without the batch's id";
      // The end is journaled before any reply goes: a run's audit holds it
      // before its calls' records and its run_end.
      if (m.step == batch_step::ended && r.size() + twin.size() != 0)
        what += " after a reply";
      std::lock_guard<std::mutex> g(mtx);
      seen.push_back(what);
    });
    {
      auto j = s.judge(s.config(2));
      auto o = vote("t", 1);
      j->call("p", o, r.handler("first"));
      j->call("p", o, twin.handler("second")); // the same vote: no duplicate
      j->call("p", vote("t", 2), r.handler("other"));
      r.wait(2);
      twin.wait(1);
    }
    CHECK(seen == std::vector<std::string>{"pending", "submitted", "ended"});
    CHECK(s.fake->times_sent("t-p1-v0") == 1);
    CHECK(r.at("first").text == twin.at("second").text);
    auto marks = s.journal->marks();
    REQUIRE(marks.size() == 3);
    CHECK(marks[0].entries.size() == 2);
    CHECK(marks[0].entries[0].pair_id == "pair-1");
    CHECK(marks[0].judge == "stub:batch-fallback");
    CHECK(marks[0].key == marks[2].key);
    CHECK(marks[2].state == "ended");
  }
}

TEST_CASE(
  "batch judge: an errored request goes to the sync fallback or is a fault",
  "[http][batch][batch_judge]") {
  for (auto api : both_apis) {
    INFO(to_string(api));
    for (auto policy :
         {batch_failure_policy::sync, batch_failure_policy::fault}) {
      setup s(api);
      s.fake->fail_request("r-p1-v0", 500, "upstream boom");
      replies r;
      {
        auto j = s.judge(s.config(2, policy));
        call_pairs(*j, r, "r", 0, 2);
        r.wait(2);
      }
      CHECK(r.once());
      CHECK(r.at("r-p0-v0").ok);
      auto failed = r.at("r-p1-v0");
      if (policy == batch_failure_policy::sync) {
        CHECK(failed.ok);
        CHECK_FALSE(failed.batched);
        CHECK_THAT(failed.text, Catch::Contains("sync r-p1-v0"));
        CHECK(s.fallback->calls == 1);
      } else {
        CHECK_FALSE(failed.ok);
        // OpenAI's line carries the status (500); Anthropic's the error type
        // (the fake's invalid_request_error).
        CHECK(failed.fault
              == (api == batch_api::openai ? fault_kind::server_error
                                           : fault_kind::bad_request));
        CHECK_THAT(failed.error, Catch::Contains(s.fake->batch_ids().at(0)));
        CHECK_THAT(failed.error, Catch::Contains("upstream boom"));
        CHECK(s.fallback->calls == 0);
      }
      CHECK(s.fake->times_sent("r-p1-v0") == 1);
    }
  }
}

TEST_CASE("batch judge: an expired batch with partial results",
          "[http][batch][batch_judge]") {
  for (auto api : both_apis) {
    INFO(to_string(api));
    setup s(api);
    s.fake->hold(true);
    replies r;
    {
      auto j = s.judge(s.config(3));
      call_pairs(*j, r, "x", 0, 3);
      wait_until([&] { return s.journal->count(batch_step::submitted) == 1; });
      s.fake->expire(s.fake->batch_ids().at(0), 1);
      r.wait(3);
    }
    CHECK(r.once());
    std::size_t ok = 0;
    for (std::uint64_t seq = 0; seq < 3; ++seq) {
      auto reply = r.at(make_custom_id({"x", seq, 0}));
      if (reply.ok) {
        ++ok;
        continue;
      }
      CHECK(reply.fault == fault_kind::timeout);
      CHECK_THAT(reply.error, Catch::Contains("expired"));
      CHECK_THAT(reply.error, Catch::Contains(s.fake->batch_ids().at(0)));
    }
    CHECK(ok == 1);
    CHECK(s.journal->count(batch_step::ended) == 1);
  }
}

TEST_CASE(
  "batch judge: a batch rejected whole is one clear error on every vote",
  "[http][batch][batch_judge]") {
  for (auto api : both_apis) {
    INFO(to_string(api));
    setup s(api);
    s.fake->reject_next_batch(400, "batch too large for this account");
    replies r;
    std::atomic<int> late_end{0};
    s.journal->set_check([&](const batch_mark& m) {
      late_end += m.step == batch_step::ended && r.size() != 0;
    });
    {
      auto j = s.judge(s.config(2));
      call_pairs(*j, r, "z", 0, 2);
      r.wait(2);
    }
    for (auto id : {"z-p0-v0", "z-p1-v0"}) {
      auto reply = r.at(id);
      CHECK_FALSE(reply.ok);
      CHECK(reply.fault == fault_kind::bad_request);
      CHECK_THAT(reply.error, Catch::Contains("rejected the batch"));
      CHECK_THAT(reply.error,
                 Catch::Contains("batch too large for this account"));
    }
    auto marks = s.journal->marks();
    REQUIRE(marks.size() == 2);
    CHECK(marks[1].step == batch_step::ended);
    CHECK(marks[1].state == "rejected");
    CHECK(late_end == 0); // the faults went after the end was journaled
  }
  // OpenAI: a batch that fails validation after it was accepted.
  setup s(batch_api::openai);
  s.fake->fail_next_validation("invalid_json_line", "bad line");
  replies r;
  {
    auto j = s.judge(s.config(1));
    call_pairs(*j, r, "v", 0, 1);
    r.wait(1);
  }
  auto reply = r.at("v-p0-v0");
  CHECK_FALSE(reply.ok);
  CHECK_THAT(reply.error,
             Catch::Contains("failed: line 1: invalid_json_line: bad line"));
}

TEST_CASE("batch judge: a journal error submits nothing and faults the votes",
          "[http][batch][batch_judge]") {
  for (auto api : both_apis) {
    INFO(to_string(api));
    setup s(api);
    s.journal->fail(batch_step::pending);
    replies r;
    {
      auto j = s.judge(s.config(2, batch_failure_policy::sync));
      call_pairs(*j, r, "j", 0, 2);
      r.wait(2);
    }
    CHECK(s.fake->batches_created() == 0);
    CHECK(s.fallback->calls == 0);
    for (auto id : {"j-p0-v0", "j-p1-v0"}) {
      auto reply = r.at(id);
      CHECK_FALSE(reply.ok);
      CHECK_THAT(reply.error, Catch::Contains("batch journal"));
      CHECK_THAT(reply.error, Catch::Contains("disk full (test)"));
    }
  }
}

TEST_CASE("batch judge: adopted after a crash, nothing is sent twice",
          "[http][batch][batch_judge]") {
  for (auto api : both_apis) {
    INFO(to_string(api));
    setup s(api);
    s.fake->hold(true);
    replies before;
    {
      auto j = s.judge(s.config(3));
      call_pairs(*j, before, "c", 0, 3);
      wait_until([&] { return s.journal->count(batch_step::submitted) == 1; });
    } // the "crash": destroyed mid-batch, nothing cancelled
    before.wait(3);
    CHECK_THAT(before.at("c-p0-v0").error, Catch::Contains("shutting down"));
    CHECK(s.fake->cancels() == 0);
    s.fake->hold(false);
    replies after;
    {
      auto j = s.judge(s.config(3));
      j->adopt(s.journal->marks());
      // One call re-issued at once; the others after the batch has ended
      // (their results kept until claimed).
      call_pairs(*j, after, "c", 0, 1);
      wait_until([&] { return s.journal->count(batch_step::ended) == 1; });
      call_pairs(*j, after, "c", 1, 3);
      after.wait(3);
    }
    CHECK(s.fake->batches_created() == 1);
    for (std::uint64_t seq = 0; seq < 3; ++seq) {
      auto id = make_custom_id({"c", seq, 0});
      CHECK(s.fake->times_sent(id) == 1);
      CHECK(after.at(id).ok);
      CHECK_THAT(after.at(id).text, Catch::Contains("for " + id + "\n"));
    }
    CHECK(after.once());
  }
}

TEST_CASE(
  "batch judge: a pending-only mark is found at the provider by listing",
  "[http][batch][batch_judge]") {
  for (auto api : both_apis) {
    INFO(to_string(api));
    setup s(api);
    // The crash came after the provider took the batch, before its answer
    // was recorded: the mark is pending, the batch exists.
    batch_mark m;
    m.step = batch_step::pending;
    m.judge = s.fallback->id();
    m.key = "ijb-lostanswer01";
    m.at_ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                std::chrono::system_clock::now().time_since_epoch())
                .count();
    batch_document doc(api);
    for (std::uint64_t seq = 0; seq < 2; ++seq) {
      auto o = vote("l", seq);
      REQUIRE_FALSE(
        doc.add(id_of(o), "prompt of pair " + std::to_string(seq), o));
      m.entries.push_back({id_of(o), o.pair_id, 0});
    }
    {
      auto direct = client_for(*s.fake, api);
      std::promise<bool> sent;
      direct->submit(
        *doc.finish(),
        [&](caf::expected<batch_status> st) { sent.set_value(bool(st)); },
        m.key);
      REQUIRE(sent.get_future().get());
    }
    replies r;
    {
      auto j = s.judge(s.config(3));
      j->adopt({m});
      call_pairs(*j, r, "l", 0, 2);
      r.wait(2);
    }
    CHECK(s.fake->lists() >= 1);
    CHECK(s.fake->batches_created() == 1);
    CHECK(s.fake->times_sent("l-p0-v0") == 1);
    CHECK(s.fake->times_sent("l-p1-v0") == 1);
    CHECK(r.at("l-p1-v0").ok);
    auto marks = s.journal->marks();
    REQUIRE(marks.size() >= 1);
    CHECK(marks[0].step == batch_step::submitted);
    CHECK(marks[0].key == m.key);
    CHECK(marks[0].batch_id == s.fake->batch_ids().at(0));
  }
}

TEST_CASE(
  "batch judge: a pending-only mark not at the provider lets its calls go",
  "[http][batch][batch_judge]") {
  for (auto api : both_apis) {
    INFO(to_string(api));
    setup s(api);
    batch_mark m;
    m.step = batch_step::pending;
    m.judge = s.fallback->id();
    m.key = "ijb-neversent001";
    m.entries.push_back({"n-p0-v0", "pair-0", 0});
    replies r;
    {
      auto j = s.judge(s.config(1));
      j->adopt({m});
      call_pairs(*j, r, "n", 0, 1);
      r.wait(1);
    }
    CHECK(s.fake->lists() == 1);
    CHECK(s.fake->times_sent("n-p0-v0") == 1);
    CHECK(r.at("n-p0-v0").ok);
  }
}

TEST_CASE(
  "batch judge: cancel_run cancels the provider's batch of that run only",
  "[http][batch][batch_judge]") {
  for (auto api : both_apis) {
    INFO(to_string(api));
    setup s(api);
    s.fake->hold(true);
    replies r;
    {
      auto j = s.judge(s.config(2));
      call_pairs(*j, r, "a", 0, 2); // a batch of run a alone
      wait_until([&] { return s.journal->count(batch_step::submitted) == 1; });
      call_pairs(*j, r, "a", 2, 3); // mixed: one of a, one of b
      call_pairs(*j, r, "b", 0, 1);
      wait_until([&] { return s.journal->count(batch_step::submitted) == 2; });
      j->cancel_run("a");
      r.wait(3);
      // The cancel reaches the provider after the calls are answered.
      wait_until([&] { return s.fake->cancels() >= 1; });
      CHECK(s.fake->cancels() == 1);
      s.fake->hold(false);
      r.wait(4);
    }
    // Aborted (the run's doing, not the provider's), and sent: their
    // batches had been submitted.
    for (auto id : {"a-p0-v0", "a-p1-v0", "a-p2-v0"}) {
      CHECK_FALSE(r.at(id).ok);
      CHECK(r.at(id).fault == fault_kind::aborted);
      CHECK(r.at(id).attempts == 1);
      CHECK_THAT(r.at(id).error, Catch::Contains("run was cancelled"));
    }
    CHECK(r.at("b-p0-v0").ok);
    CHECK(r.once());
    auto marks = s.journal->marks();
    CHECK(std::any_of(marks.begin(), marks.end(), [](const batch_mark& m) {
      return m.step == batch_step::ended && m.state == "cancelled";
    }));
  }
}

TEST_CASE("batch judge: configuration is checked",
          "[http][batch][batch_judge]") {
  setup s(batch_api::openai);
  auto c = s.config(50001);
  CHECK_FALSE(
    make_batch_judge(c, client_for(*s.fake, s.api), s.fallback, s.journal));
  c = s.config(1);
  CHECK_FALSE(
    make_batch_judge(c, client_for(*s.fake, s.api), s.fallback, nullptr));
  c.api = batch_api::anthropic;
  CHECK_FALSE(
    make_batch_judge(c, client_for(*s.fake, s.api), s.fallback, s.journal));
  c.api = batch_api::openai;
  auto j =
    make_batch_judge(c, client_for(*s.fake, s.api), s.fallback, s.journal);
  REQUIRE(j);
  CHECK((*j)->id() == "stub:batch-fallback");
  CHECK_FALSE((*j)->answers_inline());
}

TEST_CASE(
  "batch journal: the open batches of a judge from marks in any order") {
  auto mark = [](batch_step step, std::string judge, std::string key,
                 std::vector<batch_entry> entries = {}) {
    batch_mark m;
    m.step = step;
    m.judge = std::move(judge);
    m.key = std::move(key);
    m.entries = std::move(entries);
    if (step != batch_step::pending)
      m.batch_id = "b-" + m.key;
    return m;
  };
  std::vector<batch_entry> a{{"t-p1-v0", "x", 0}}, b{{"t-p2-v0", "y", 0}},
    c{{"t-p3-v0", "z", 0}};
  std::vector<batch_mark> marks{
    mark(batch_step::submitted, "j", "ka"),  // its entries come later
    mark(batch_step::pending, "j", "kb", b), // never submitted
    mark(batch_step::pending, "j", "ka", a),
    mark(batch_step::ended, "j", "kc"), // ended: not open
    mark(batch_step::pending, "j", "kc", c),
    mark(batch_step::pending, "other", "kd", c)}; // another judge's
  auto open = open_batches(marks, "j");
  REQUIRE(open.size() == 2);
  CHECK(open[0].key == "ka");
  CHECK(open[0].step == batch_step::submitted);
  CHECK(open[0].batch_id == "b-ka");
  REQUIRE(open[0].entries.size() == 1);
  CHECK(open[0].entries[0].custom_id == "t-p1-v0");
  CHECK(open[1].key == "kb");
  CHECK(open[1].step == batch_step::pending);
  REQUIRE(open[1].entries.size() == 1);
  CHECK(open[1].entries[0].pair_id == "y");
}
