// The response cache: a stored reply is reused only when the whole key
// matches (the vote index included), a fault is never stored, entries expire
// after the TTL (by an injected clock: no sleeping), the oldest go past
// max_bytes, and stats/clear see what is stored.
#include <atomic>
#include <future>
#include <mutex>

#include <unistd.h>

#include <catch2/catch.hpp>

#include "adapters/response_cache.hpp"
#include "core/prompts/prompt.hpp"
#include "tests/error_text.hpp"

using namespace ij;

namespace {

/// Counts its calls and answers inline: ok with `text`, or a fault.
class counting_judge : public judge_adapter {
public:
  std::string id() const override { return "test:counting"; }
  void call(const std::string& prompt, const call_options& opts,
            reply_handler done) override {
    ++calls;
    adapter_reply r;
    r.ok = !fail;
    r.text = r.ok ? "DECISION: EQUIVALENT for " + prompt + " v"
                      + std::to_string(opts.vote_index)
                  : "";
    r.error = r.ok ? "" : "HTTP 503";
    r.fault = r.ok ? fault_kind::none : fault_kind::server_error;
    r.input_tokens = 10;
    r.output_tokens = 3;
    done(std::move(r));
  }
  std::atomic<int> calls{0};
  bool fail = false;
};

struct temp_file {
  std::string path;
  temp_file() {
    char name[] = "/tmp/ij-cache-test-XXXXXX";
    int fd = ::mkstemp(name);
    REQUIRE(fd >= 0);
    ::close(fd);
    ::unlink(name); // SQLite creates it
    path = name;
  }
  ~temp_file() {
    for (auto suffix : {"", "-wal", "-shm"})
      ::unlink((path + suffix).c_str());
  }
};

/// Calls through the adapter and waits for the reply (it comes from the
/// cache thread).
adapter_reply call_and_wait(judge_adapter& a, const std::string& prompt,
                            std::uint32_t vote) {
  call_options o;
  o.model = "m";
  o.vote_index = vote;
  std::promise<adapter_reply> p;
  auto f = p.get_future();
  a.call(prompt, o, [&](adapter_reply r) { p.set_value(std::move(r)); });
  return f.get();
}

} // namespace

TEST_CASE(
  "a reply is reused only for the same key, and faults are not stored") {
  temp_file file;
  std::atomic<std::int64_t> now{1'000'000};
  auto opened = response_cache::open(file.path, std::chrono::seconds{60}, 0,
                                     [&] { return now.load(); });
  REQUIRE(opened);
  auto cache = *opened;
  auto judge = std::make_shared<counting_judge>();
  auto cached = with_cache(judge, cache);
  CHECK_FALSE(cached->answers_inline());

  auto first = call_and_wait(*cached, "A=1 B=1", 0);
  CHECK(first.ok);
  CHECK_FALSE(first.cached);
  auto again = call_and_wait(*cached, "A=1 B=1", 0);
  CHECK(again.cached);
  CHECK(again.text == first.text);
  CHECK(again.input_tokens == 10);
  CHECK(judge->calls == 1);
  // Another vote of the same pair is another answer, not the first again.
  auto vote1 = call_and_wait(*cached, "A=1 B=1", 1);
  CHECK_FALSE(vote1.cached);
  CHECK(judge->calls == 2);
  // Another prompt (A or B differ, or swapped) is another key.
  call_and_wait(*cached, "A=1 B=2", 0);
  CHECK(judge->calls == 3);

  judge->fail = true;
  auto fault = call_and_wait(*cached, "A=9 B=9", 0);
  CHECK_FALSE(fault.ok);
  auto retried = call_and_wait(*cached, "A=9 B=9", 0);
  CHECK_FALSE(retried.cached);
  CHECK(judge->calls == 5); // the fault was not stored: called again

  auto s = cache->stats();
  CHECK(s.entries == 3);
  CHECK(s.hits == 1);
  CHECK(s.stores == 3);

  // Past the TTL the entry is not reused.
  judge->fail = false;
  now += 61'000;
  auto expired = call_and_wait(*cached, "A=1 B=1", 0);
  CHECK_FALSE(expired.cached);
  CHECK(judge->calls == 6);
  auto fresh = call_and_wait(*cached, "A=1 B=1", 0);
  CHECK(fresh.cached);

  CHECK(cache->clear() == 3);
  CHECK(cache->stats().entries == 0);
}

TEST_CASE("the cache survives a reopen and keeps under max_bytes") {
  temp_file file;
  std::int64_t now = 5000;
  {
    auto opened = response_cache::open(file.path, std::chrono::seconds{0}, 0,
                                       [&] { return now++; });
    REQUIRE(opened);
    auto cache = *opened;
    auto judge = std::make_shared<counting_judge>();
    auto cached = with_cache(judge, cache);
    for (int i = 0; i < 10; ++i)
      call_and_wait(*cached, "pair " + std::to_string(i), 0);
    CHECK(cache->stats().entries == 10);
  }
  auto judge = std::make_shared<counting_judge>();
  auto reopened = response_cache::open(file.path, std::chrono::seconds{0}, 200,
                                       [&] { return now++; });
  REQUIRE(reopened);
  auto cache = *reopened;
  auto cached = with_cache(judge, cache);
  // Reopened: the stored reply is found, no call.
  CHECK(call_and_wait(*cached, "pair 9", 0).cached);
  CHECK(judge->calls == 0);
  // A store past max_bytes evicts the oldest entries.
  call_and_wait(*cached, "pair 10", 0);
  auto s = cache->stats();
  CHECK(s.bytes <= 200);
  CHECK(s.entries < 11);
  CHECK(s.entries > 0);
  CHECK_FALSE(call_and_wait(*cached, "pair 0", 0).cached);
}

TEST_CASE("a file that is not a cache is refused, naming the path") {
  auto cache = response_cache::open("/nonexistent-dir/c.sqlite",
                                    std::chrono::seconds{0}, 0);
  CHECK_FALSE(cache);
  CHECK(test::why(cache).find("/nonexistent-dir/c.sqlite")
        != std::string::npos);
  CHECK(cache.error() == ij::errc::io_failed);
}

TEST_CASE("calls asking for log-probabilities pass the cache, constrained ones "
          "have their own key") {
  temp_file file;
  auto opened = response_cache::open(file.path, std::chrono::seconds{60}, 0);
  REQUIRE(opened);
  auto cache = *opened;
  auto judge = std::make_shared<counting_judge>();
  auto cached = with_cache(judge, cache);
  call_options o;
  o.model = "m";
  o.logprobs = true;
  for (int i = 0; i < 2; ++i) {
    std::promise<adapter_reply> p;
    auto f = p.get_future();
    cached->call("A=1 B=1", o,
                 [&](adapter_reply r) { p.set_value(std::move(r)); });
    CHECK_FALSE(f.get().cached); // the cache keeps no probabilities
  }
  CHECK(judge->calls == 2);
  CHECK(cache->stats().entries == 0);
  o.logprobs = false;
  auto plain = response_cache::key_of("x", "p", o);
  o.constrain = reply_constraint::json;
  auto json = response_cache::key_of("x", "p", o);
  o.constrain = reply_constraint::grammar;
  CHECK(plain != json);
  CHECK(json != response_cache::key_of("x", "p", o));
}

TEST_CASE(
  "cache key: the call's prompt id and SHA-256 are part of it (issue 29)") {
  call_options o;
  o.model = "m";
  auto implicit = response_cache::key_of("x", "same prompt text", o);
  // Naming the canonical prompt keeps the key every earlier run stored.
  o.prompt_id = std::string{judge_prompt_id};
  o.prompt_sha256 = judge_prompt_template_sha256();
  CHECK(response_cache::key_of("x", "same prompt text", o) == implicit);
  // Another template (or the same id with other bytes): another key, even
  // for the very same text sent.
  o.prompt_id = "team/v1";
  o.prompt_sha256 = std::string(64, 'a');
  auto declared = response_cache::key_of("x", "same prompt text", o);
  CHECK(declared != implicit);
  o.prompt_sha256 = std::string(64, 'b');
  CHECK(response_cache::key_of("x", "same prompt text", o) != declared);
}
