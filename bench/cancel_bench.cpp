// cancel_bench: how soon a judge serves the next run after DELETE of a run
// with its calls in flight (issue 26). `invjudge serve`, a fake OpenAI judge
// thinking L (default 3 s) with C = 4 calls in flight at most.
//
//   baseline   a run on the idle judge: its first verdict after L and the
//              daemon's own time;
//   cancel     run A fills the C slots; once the judge has A's C calls,
//              DELETE A and start run B on the same judge: B's first verdict,
//              timed from the DELETE.
//
// Target (issue 26): B's first verdict within L + 0.5 s (3.5 s at L = 3 s);
// before cancels aborted the calls, B waited for A's calls to end first. It
// also prints the calls the judge received and the cancelled run's counts
// (sent, answered, aborted), which must agree.
//
//   build/bench/cancel_bench [--latency-ms L] [--rounds R]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <thread>

#include <CLI/CLI.hpp>
#include <rapidjson/document.h>

#include "bench/json_field.hpp"
#include "messages/error.hpp"
#include "tests/daemon/daemon_support.hpp"
#include "tests/http/fake_apis.hpp"
#include "tools/api_client.hpp"

using namespace ij;
using namespace ij::test;
using clock_type = std::chrono::steady_clock;
using ij::bench::json_field;

namespace {

double since(clock_type::time_point t) {
  return std::chrono::duration<double>(clock_type::now() - t).count();
}

std::string pairs_of(const std::string& prefix, int n) {
  std::string out;
  for (int i = 0; i < n; ++i)
    out += R"({"id":")" + prefix + std::to_string(i)
           + R"(","a":"1","b":"1"})"
             "\n";
  return out;
}

std::string start_run(api_client& api, const std::string& config,
                      const std::string& prefix, int pairs) {
  auto r = api.request("POST", "/v1/runs", "{\"config\":" + config + "}",
                       "application/json");
  if (r.status != 201)
    throw std::runtime_error("create failed: " + r.body + context_of(r.error));
  auto id = json_field(r.body, "id");
  api.request("POST", "/v1/runs/" + id + "/pairs", pairs_of(prefix, pairs),
              "application/x-ndjson");
  return id;
}

// Waits for the run's first verdict line (the daemon's follower API).
void first_verdict(api_client& api, const std::string& id) {
  for (int i = 0; i < 120; ++i) {
    auto r =
      api.request("GET", "/v1/runs/" + id + "/verdicts?after=0&wait_ms=1000");
    if (r.status == 200 && !r.body.empty())
      return;
  }
  throw std::runtime_error("no verdict from run " + id);
}

std::uint64_t calls_count(const std::string& run_body, const char* name) {
  rapidjson::Document d;
  d.Parse(run_body.c_str());
  if (!d.IsObject() || !d.HasMember("counts"))
    return 0;
  return d["counts"]["calls"][name].GetUint64();
}

} // namespace

int main(int argc, char** argv) {
  CLI::App app{
    "cancel_bench: the next run's first verdict after DELETE of a run with "
    "calls in flight"};
  int latency_ms = 3000;
  int rounds = 3;
  app.add_option("--latency-ms", latency_ms, "The judge's latency L");
  app.add_option("--rounds", rounds, "Rounds (the worst is reported)");
  CLI11_PARSE(app, argc, argv);

  fake_api_options o;
  o.kind = api_kind::openai;
  o.latency = std::chrono::milliseconds(latency_ms);
  o.threads = 4;
  o.record_requests = false;
  fake_api fake(o);
  auto config =
    R"({"judges":[{"name":"slow","type":"openai","model":"judge-model",)"
    R"("base_url":")"
    + fake.base_url()
    + R"(","temperature":0,"timeout_ms":120000,"max_in_flight":4,)"
      R"("max_attempts":1}],"votes":1})";
  temp_dir dir;
  started_daemon d{dir, dir.file("state")};
  api_client api{d.url(), ""};
  auto L = latency_ms / 1000.0;

  // The baseline: a run on the idle judge (its worker started here).
  double baseline = 0;
  for (int r = 0; r < rounds; ++r) {
    auto t = clock_type::now();
    auto id = start_run(api, config, "base" + std::to_string(r) + "-", 1);
    first_verdict(api, id);
    baseline = std::max(baseline, since(t));
    api.request("POST", "/v1/runs/" + id + "/close");
    wait_until_ended(api, id);
  }

  double worst = 0;
  std::uint64_t sent = 0, aborted = 0, answered = 0, received = 0;
  for (int r = 0; r < rounds; ++r) {
    auto before = fake.server().requests();
    auto a = start_run(api, config, "a" + std::to_string(r) + "-", 20);
    while (fake.server().requests() < before + 4)
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    auto t = clock_type::now();
    api.request("DELETE", "/v1/runs/" + a);
    auto b = start_run(api, config, "b" + std::to_string(r) + "-", 1);
    first_verdict(api, b);
    worst = std::max(worst, since(t));
    auto ended = wait_until_ended(api, a);
    sent += calls_count(ended, "sent");
    aborted += calls_count(ended, "aborted");
    answered += calls_count(ended, "answered");
    received += 4;
    api.request("POST", "/v1/runs/" + b + "/close");
    wait_until_ended(api, b);
  }

  std::printf(
    "cancel_bench: judge latency L = %.1f s, 4 calls in flight, %d round(s)\n",
    L, rounds);
  std::printf("  baseline: a run on the idle judge, first verdict after %.2f s "
              "(%.2f x L)\n",
              baseline, baseline / L);
  std::printf(
    "  DELETE with 4 calls in flight -> the next run's first verdict after "
    "%.2f s (%.2f x L, %.2f x baseline; target <= L + 0.5 s = %.1f s)\n",
    worst, worst / L, worst / baseline, L + 0.5);
  std::printf(
    "  the cancelled runs: %llu calls received by the judge; counts sent %llu, "
    "answered %llu, aborted %llu\n",
    static_cast<unsigned long long>(received),
    static_cast<unsigned long long>(sent),
    static_cast<unsigned long long>(answered),
    static_cast<unsigned long long>(aborted));
  return worst <= L + 0.5 && sent == received ? 0 : 1;
}
