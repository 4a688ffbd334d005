// Votes sent ahead over the round trip (issue 31), in one process: judge
// hosts reached through a delay proxy of 20 ms round trip (bench/
// delay_proxy), each judging through a fake backend. The host's worker
// queues votes beyond its capacity (the queue is used), and a host lost with
// a full queue — its connection severed, or silent for a while (a
// partition) — loses and doubles nothing: every pair's result comes once,
// with one record. Waits only guard against a hang; nothing asserts on time.
#include <algorithm>
#include <future>
#include <thread>

#include <catch2/catch.hpp>

#include "tests/hosts/in_process_hosts.hpp"
#include "tests/http/fake_apis.hpp"

using namespace ij;
using namespace ij::test;
using namespace std::chrono_literals;

namespace {

constexpr std::uint32_t cap = 4;

/// Fast links: pings every 100 ms, lost after 1.5 s of silence, retries at
/// most every 300 ms; the middleman's own timeout long, so that a partition
/// is found by the pings.
host_connection fast_links() {
  host_connection c;
  c.heartbeat = 100ms;
  c.lost_after = 1500ms;
  c.connection_timeout = 60s;
  c.retry_max = 300ms;
  return c;
}

/// A host behind its own fake backend (latency 40 ms, C = 4), reached
/// through a proxy adding 10 ms each way.
struct far_host {
  std::unique_ptr<fake_api> backend;
  std::unique_ptr<host_system> host;
  std::unique_ptr<bench::delay_proxy> proxy;

  far_host() {
    fake_api_options o;
    o.model = "judge-model";
    o.reply_text = "DECISION: EQUIVALENT\nREASON: same\nNUMERIC_A: NULL\n"
                   "NUMERIC_B: NULL";
    o.latency = 40ms;
    o.threads = cap + 2;
    o.record_requests = false;
    backend = std::make_unique<fake_api>(o);
    host = std::make_unique<host_system>(
      judges_for("openai:judge-model@" + backend->base_url(), cap));
    auto port = host->name.substr(host->name.rfind(':') + 1);
    proxy = std::make_unique<bench::delay_proxy>(
      "127.0.0.1", static_cast<std::uint16_t>(std::stoi(port)), 10ms);
  }

  std::uint32_t queued_now() {
    std::uint32_t n = 0;
    for (auto& s : host->status())
      n += s.queued;
    return n;
  }
  std::uint32_t peak_queued() {
    std::uint32_t n = 0;
    for (auto& s : host->status())
      n = std::max(n, s.peak_queued);
    return n;
  }
};

/// Every pair's result came once, with its one record.
void check_each_once(const vote_timing& t, std::size_t votes) {
  std::size_t missing = 0, doubled = 0, records = 0;
  for (std::size_t seq = 1; seq <= votes; ++seq) {
    missing += t.results[seq] == 0;
    doubled += t.results[seq] > 1;
    records += t.records[seq];
  }
  CHECK(missing == 0);
  CHECK(doubled == 0);
  CHECK(records == votes);
}

template <class Done>
bool soon(Done done) {
  for (int i = 0; i < 1200; ++i) {
    if (done())
      return true;
    std::this_thread::sleep_for(100ms);
  }
  return false;
}

/// Votes through two far hosts; `fault` is done to the first while its
/// queue holds votes.
template <class Fault>
void lose_a_full_queue(Fault fault) {
  far_host a, b;
  coordinator_system coordinator{fast_links()};
  coordinator.connect(a.proxy->address());
  coordinator.connect(b.proxy->address());
  constexpr std::size_t votes = 300;
  auto run = std::async(std::launch::async, [&] {
    return vote(coordinator.sys, coordinator.workers(), votes, 0,
                coordinator.directory);
  });
  REQUIRE(soon([&] { return a.queued_now() > 0; }));
  fault(a, coordinator);
  auto t = run.get();
  check_each_once(t, votes);
}

} // namespace

TEST_CASE(
  "hosts 20 ms away: votes wait in the host's queue beyond its capacity, and "
  "every pair is decided once",
  "[hosts][pipeline]") {
  far_host h;
  coordinator_system coordinator{fast_links()};
  coordinator.connect(h.proxy->address());
  constexpr std::size_t votes = 300;
  auto t = vote(coordinator.sys, coordinator.workers(), votes);
  check_each_once(t, votes);
  CHECK(h.peak_queued() > 0);
  CHECK(h.backend->server().max_concurrent() <= cap); // the queue is the host's
}

TEST_CASE(
  "a host lost with a full queue (its connection severed) loses and doubles "
  "nothing",
  "[hosts][pipeline]") {
  lose_a_full_queue([](far_host& a, coordinator_system&) { a.proxy->sever(); });
}

TEST_CASE(
  "a host partitioned with a full queue (silent, no reset) loses and doubles "
  "nothing, its late replies dropped",
  "[hosts][pipeline]") {
  lose_a_full_queue([](far_host& a, coordinator_system& c) {
    a.proxy->hold(true);
    // Silent past lost_after: the host is lost (its worker leaves, its votes
    // move); then the link comes back and what it held arrives late.
    REQUIRE(soon([&] { return c.workers().size() == 1; }));
    a.proxy->hold(false);
  });
}
