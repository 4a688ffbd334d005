// batch_bench: issue 17's benchmark. N pairs (default 100,000) at votes = 1
// through `invjudge run` with a batched judge (max_requests 10,000) against
// the OpenAI batch fake (tests/http/fake_batches), and the same pairs run
// synchronously through the plain OpenAI fake (tests/http/fake_apis, the
// same 42 + 7 tokens a call) as the baseline:
//   - requests per batch (the fake's batches);
//   - the driver's peak memory (ru_maxrss from wait4; and the largest RSS
//     sampled while a batch was in flight), target <= 200 MB;
//   - the time to build (adapters/batch_protocol) and upload and create
//     (adapters/batch_client, against the fake) one batch of 10,000
//     requests, against the synchronous run's time for 10,000 calls;
//   - the run's cost (run_end's spend) against the synchronous run's: ~0.50.
// --daemon: the same batched run posted to `invjudge serve`, the daemon's
// peak memory (VmHWM sampled) against a synchronous run through it; a
// daemon that refuses batched judges is reported, and that part exits 3.
//
//   build/bench/batch_bench [--pairs N] [--max-requests M] [--max-wait-ms W]
//   [--poll-ms P]
//                           [--window W] [--rounds R] [--daemon] [--no-driver]
#include <algorithm>
#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <future>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <CLI/CLI.hpp>
#include <rapidjson/document.h>

#include "adapters/batch_client.hpp"
#include "adapters/batch_protocol.hpp"
#include "adapters/url.hpp"
#include "bench/json_field.hpp"
#include "core/prompts/prompt.hpp"
#include "messages/error.hpp"
#include "tests/http/fake_apis.hpp"
#include "tests/http/fake_batches.hpp"
#include "tests/tools/cli_support.hpp"
#include "tools/api_client.hpp"

using namespace ij;
using namespace ij::test;
using clock_type = std::chrono::steady_clock;

using ij::bench::json_field;

namespace {

constexpr double target_mb = 200;

double since(clock_type::time_point t) {
  return std::chrono::duration<double>(clock_type::now() - t).count();
}

/// A field of /proc/<pid>/status in KiB (VmHWM, VmRSS); 0 once it is gone.
long proc_kib(pid_t pid, const char* field) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/status");
  std::string line;
  auto name = std::string{field} + ":";
  while (std::getline(in, line))
    if (line.rfind(name, 0) == 0)
      return std::stol(line.substr(name.size()));
  return 0;
}

double mb(long kib) {
  return kib / 1024.0;
}

/// Samples a process's memory every 10 ms until stopped: the largest RSS
/// seen while `in_flight()` held, and the last VmHWM read.
class memory_sampler {
public:
  memory_sampler(pid_t pid, std::function<bool()> in_flight)
      : pid_(pid), in_flight_(std::move(in_flight)),
        thread_([this] { loop(); }) {}
  ~memory_sampler() { stop(); }
  void stop() {
    stop_ = true;
    if (thread_.joinable())
      thread_.join();
  }
  long in_flight_rss_kib() const { return in_flight_rss_; }
  long hwm_kib() const { return hwm_; }

private:
  void loop() {
    while (!stop_) {
      bool flying = in_flight_ && in_flight_();
      auto rss = proc_kib(pid_, "VmRSS");
      if (flying)
        in_flight_rss_ = std::max(in_flight_rss_, rss);
      hwm_ = std::max(hwm_, proc_kib(pid_, "VmHWM"));
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
  }
  pid_t pid_;
  std::function<bool()> in_flight_;
  std::atomic<bool> stop_{false};
  long in_flight_rss_ = 0;
  long hwm_ = 0;
  std::thread thread_;
};

/// A batch of the fake has been created and has not ended.
bool batch_in_flight(const fake_batches& fake) {
  for (auto& id : fake.batch_ids()) {
    auto s = fake.status_of(id);
    if (s != "completed" && s != "failed" && s != "expired" && s != "cancelled")
      return true;
  }
  return false;
}

std::string judge_json(const std::string& url, const std::string& batch) {
  // The prices make the two runs' costs comparable: the same tokens, the
  // batched calls at the batch discount.
  return R"({"judges":[{"name":"fake","type":"openai","model":"judge-model","base_url":")"
         + url
         + R"(","temperature":0,"timeout_ms":60000,"max_in_flight":32,"max_attempts":1,)"
           R"("prices":{"input":2,"output":4})"
         + (batch.empty() ? std::string{} : ",\"batch\":" + batch)
         + "}],\"votes\":1}";
}

std::string batch_json(std::size_t max_requests, long max_wait_ms,
                       long poll_ms) {
  // max_wait_ms above the time the driver takes to queue max_requests calls
  // (1 s was not: batches of ~8,300 went on the timer), so that the batches
  // go full; the last goes on the timer.
  return R"({"enabled":true,"max_requests":)" + std::to_string(max_requests)
         + R"(,"max_wait_ms":)" + std::to_string(max_wait_ms) + R"(,"poll_ms":)"
         + std::to_string(poll_ms) + R"(,"on_failure":"sync"})";
}

struct spend {
  double cost = -1;
  std::uint64_t calls = 0, input_tokens = 0, output_tokens = 0, batched = 0;
};

/// The run_end's spend and the number of batched judge calls.
spend read_spend(const std::string& audit) {
  spend s;
  std::ifstream in(audit);
  std::string line;
  while (std::getline(in, line)) {
    bool end = line.find("\"type\":\"run_end\"") != std::string::npos;
    if (line.find("\"type\":\"judge_call\"") != std::string::npos) {
      s.batched += line.find("\"batched\"") != std::string::npos ? 1 : 0;
      continue;
    }
    if (!end)
      continue;
    rapidjson::Document d;
    d.Parse(line.c_str());
    if (d.HasParseError() || !d.HasMember("spend") || !d["spend"].IsArray()
        || d["spend"].Empty())
      continue;
    auto& j = d["spend"][0];
    s.calls = j["calls"].GetUint64();
    s.input_tokens = j["input_tokens"].GetUint64();
    s.output_tokens = j["output_tokens"].GetUint64();
    s.cost = j["cost"].IsNumber() ? j["cost"].GetDouble() : -1;
  }
  return s;
}

struct run_figures {
  double seconds = 0;
  long maxrss_kib = 0;        // wait4's ru_maxrss
  long in_flight_rss_kib = 0; // largest RSS sampled with a batch in flight
  spend cost;
};

/// `invjudge run` on the pairs with this configuration.
run_figures driver_run(const temp_dir& dir, const std::string& tag,
                       const std::string& config, const fake_batches* fake,
                       std::size_t window) {
  write_file(dir.file(tag + ".json"), config);
  auto audit = dir.file(tag + "-audit.jsonl");
  run_figures f;
  auto t = clock_type::now();
  std::vector<std::string> args{"run",
                                "--pairs",
                                dir.file("pairs.jsonl"),
                                "--config",
                                dir.file(tag + ".json"),
                                "--audit",
                                audit,
                                "--out",
                                "/dev/null",
                                "--no-progress"};
  if (window != 0) { // 0: the run's own window
    args.push_back("--window");
    args.push_back(std::to_string(window));
  }
  invjudge_process p(args, dir.file(tag + ".out"), dir.file(tag + ".err"));
  memory_sampler sampler(p.pid(),
                         [fake] { return fake && batch_in_flight(*fake); });
  struct rusage usage {};
  auto code = p.wait(usage);
  f.seconds = since(t);
  sampler.stop();
  if (code != 0)
    throw std::runtime_error(tag + ": invjudge run exited "
                             + std::to_string(code) + ": "
                             + read_file(dir.file(tag + ".err")));
  f.maxrss_kib = usage.ru_maxrss;
  f.in_flight_rss_kib = sampler.in_flight_rss_kib();
  f.cost = read_spend(audit);
  std::remove(
    audit.c_str()); // 100,000 pairs' audit: not kept longer than needed
  return f;
}

struct pair_text {
  std::string a, b;
};

std::vector<pair_text> parse_pairs(const std::string& text, std::size_t n) {
  std::vector<pair_text> out;
  std::istringstream in(text);
  std::string line;
  while (out.size() < n && std::getline(in, line)) {
    rapidjson::Document d;
    d.Parse(line.c_str());
    if (d.HasParseError() || !d.IsObject())
      continue;
    out.push_back({d["a"].GetString(), d["b"].GetString()});
  }
  return out;
}

struct upload_figures {
  double build_s = 0, upload_s = 0;
  std::size_t requests = 0, bytes = 0;
};

/// One batch of `pairs.size()` requests built as the batch judge builds it
/// (the judge prompt, the call's options) and submitted to the fake: the
/// file's upload and the batch's create, to the provider's answer.
upload_figures build_and_upload(const std::vector<pair_text>& pairs,
                                fake_batches& fake, int round) {
  upload_figures f;
  call_options opts;
  opts.model = "judge-model";
  opts.temperature = 0;
  auto t = clock_type::now();
  batch_document doc(batch_api::openai);
  for (std::size_t i = 0; i < pairs.size(); ++i) {
    vote_key key{"bench" + std::to_string(round), i + 1, 0};
    if (auto err = doc.add(make_custom_id(key),
                           build_judge_prompt(pairs[i].a, pairs[i].b), opts))
      throw std::runtime_error("batch document: " + render_error(err));
  }
  f.requests = doc.size();
  auto text = doc.finish();
  if (!text)
    throw std::runtime_error("batch document: " + render_error(text.error()));
  f.build_s = since(t);
  f.bytes = text->size();
  batch_client_config cfg;
  cfg.api = batch_api::openai;
  cfg.base = *parse_url(fake.base_url());
  auto client = batch_client::create(cfg);
  if (!client)
    throw std::runtime_error("batch client: " + render_error(client.error()));
  std::promise<caf::expected<batch_status>> answered;
  t = clock_type::now();
  (*client)->submit(std::move(*text), [&](caf::expected<batch_status> st) {
    answered.set_value(std::move(st));
  });
  auto st = answered.get_future().get();
  f.upload_s = since(t);
  if (!st)
    throw std::runtime_error("submit: " + render_error(st.error()));
  return f;
}

// --- the daemon
// -----------------------------------------------------------------

struct daemon_figures {
  bool refused = false;
  std::string why;
  double seconds = 0;
  long hwm_kib = 0, in_flight_rss_kib = 0;
};

/// One run of the pairs through `invjudge serve`: create, upload in 4 MiB
/// pieces (as invjudge submit sends them), close, wait for its end.
daemon_figures daemon_run(const temp_dir& dir, const std::string& tag,
                          const std::string& config, const std::string& pairs,
                          const fake_batches* fake) {
  daemon_figures f;
  auto err = dir.file(tag + ".err");
  invjudge_process proc(
    {"serve", "--listen", "127.0.0.1:0", "--state", dir.file(tag + "-state")},
    dir.file(tag + ".out"), err);
  if (!wait_for_text(err, "listening on 127.0.0.1:"))
    throw std::runtime_error("the daemon did not start: " + read_file(err));
  auto text = read_file(err);
  auto at = text.find("listening on 127.0.0.1:") + 23;
  api_client api{
    "http://127.0.0.1:" + text.substr(at, text.find('\n', at) - at), ""};
  memory_sampler sampler(proc.pid(),
                         [fake] { return fake && batch_in_flight(*fake); });
  auto t = clock_type::now();
  auto r = api.request("POST", "/v1/runs", "{\"config\":" + config + "}",
                       "application/json");
  auto stop = [&] {
    sampler.stop();
    proc.signal(SIGTERM);
    proc.wait();
  };
  if (r.status != 201) {
    f.refused = true;
    f.why = "create answered " + std::to_string(r.status) + ": " + r.body
            + ij::context_of(r.error);
    stop();
    return f;
  }
  auto id = json_field(r.body, "id");
  for (std::size_t start = 0; start < pairs.size();) {
    auto end = std::min(pairs.size(), start + (4u << 20));
    end = pairs.rfind('\n', end - 1) + 1;
    api.request("POST", "/v1/runs/" + id + "/pairs",
                pairs.substr(start, end - start), "application/x-ndjson");
    start = end;
  }
  api.request("POST", "/v1/runs/" + id + "/close");
  std::string state, body;
  for (;;) {
    auto g = api.request("GET", "/v1/runs/" + id);
    if (g.status == 0)
      throw std::runtime_error("the daemon does not answer: "
                               + ij::context_of(g.error));
    state = json_field(g.body, "state");
    body = g.body;
    if (state == "done" || state == "failed" || state == "cancelled")
      break;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  f.seconds = since(t);
  f.hwm_kib = proc_kib(proc.pid(), "VmHWM");
  stop();
  f.hwm_kib = std::max(f.hwm_kib, sampler.hwm_kib());
  f.in_flight_rss_kib = sampler.in_flight_rss_kib();
  if (state != "done") {
    f.refused = true;
    f.why = "the run ended " + state + ": " + body;
  }
  return f;
}

std::string sizes_text(const std::vector<std::size_t>& sizes) {
  std::string out;
  for (auto s : sizes)
    out += (out.empty() ? "" : ", ") + std::to_string(s);
  return out;
}

} // namespace

int main(int argc, char** argv) {
  std::setvbuf(stdout, nullptr, _IOLBF,
               0); // figures appear as they are measured
  CLI::App app{"batch_bench: batched votes against synchronous ones"};
  std::size_t pairs = 100000, max_requests = 10000;
  long poll_ms = 50, max_wait_ms = 5000;
  int rounds = 3;
  bool with_daemon = false, no_driver = false;
  app.add_option("--pairs", pairs, "pairs, votes = 1");
  app.add_option("--max-requests", max_requests,
                 "requests per batch (the judge's max_requests)");
  app.add_option("--poll-ms", poll_ms, "the batched judge's poll_ms");
  app.add_option("--max-wait-ms", max_wait_ms,
                 "the batched judge's max_wait_ms");
  app.add_option("--rounds", rounds,
                 "the build-and-upload figure is the best of this many");
  // The run's default window holds a batched judge's two batches
  // (core/voting/input_window); --window measures another.
  std::size_t window = 0;
  app.add_option("--window", window,
                 "invjudge run --window (default: the run's own)");
  app.add_flag("--daemon", with_daemon,
               "also run the pairs through `invjudge serve`");
  app.add_flag("--no-driver", no_driver,
               "skip the driver's runs (with --daemon)");
  CLI11_PARSE(app, argc, argv);

  temp_dir dir;
  std::printf("load average: %s", read_file("/proc/loadavg").c_str());
  auto pairs_text = invjudge(dir, "gen-pairs " + std::to_string(pairs)).out;
  write_file(dir.file("pairs.jsonl"), pairs_text);
  std::printf("%zu pairs (%.1f MB), votes = 1, max_requests %zu, max_wait_ms "
              "%ld, poll_ms %ld, "
              "driver --window %s\n",
              pairs, pairs_text.size() / 1e6, max_requests, max_wait_ms,
              poll_ms,
              window == 0 ? "(the run's own)" : std::to_string(window).c_str());

  fake_api_options so;
  so.kind = api_kind::openai;
  so.reply_text =
    "DECISION: EQUIVALENT\nREASON: same\nNUMERIC_A: 1\nNUMERIC_B: 1";
  so.threads = 2;
  so.record_requests = false;
  fake_batch_options bo;
  bo.kind = api_kind::openai;
  bo.keep_documents = false;
  int code = 0;

  if (!no_driver) {
    // The baseline: the same pairs, the same tokens, synchronously (C = 32).
    run_figures sync;
    {
      fake_api fake(so);
      sync = driver_run(dir, "sync", judge_json(fake.base_url(), ""), nullptr,
                        window);
    }
    std::printf("synchronous run         %.2f s (%.0f calls/s), peak RSS %.1f "
                "MB, cost %.4f "
                "(%llu calls, %llu + %llu tokens)\n",
                sync.seconds, pairs / sync.seconds, mb(sync.maxrss_kib),
                sync.cost.cost,
                static_cast<unsigned long long>(sync.cost.calls),
                static_cast<unsigned long long>(sync.cost.input_tokens),
                static_cast<unsigned long long>(sync.cost.output_tokens));

    fake_batches fake(bo);
    auto batched =
      driver_run(dir, "batched",
                 judge_json(fake.base_url(),
                            batch_json(max_requests, max_wait_ms, poll_ms)),
                 &fake, window);
    auto sizes = fake.batch_sizes();
    std::size_t sent = 0;
    for (auto s : sizes)
      sent += s;
    std::printf("batched run             %.2f s (%.2fx the synchronous run's "
                "time; poll_ms "
                "%ld, %zu polls)\n",
                batched.seconds, batched.seconds / sync.seconds, poll_ms,
                fake.polls());
    std::printf("requests per batch      %zu batches, %zu requests: %s (mean "
                "%.0f); %llu of "
                "%llu calls batched; protocol violations %zu\n",
                sizes.size(), sent, sizes_text(sizes).c_str(),
                sizes.empty() ? 0.0 : double(sent) / sizes.size(),
                static_cast<unsigned long long>(batched.cost.batched),
                static_cast<unsigned long long>(batched.cost.calls),
                fake.violations().size());
    std::printf(
      "driver peak memory      %.1f MB (ru_maxrss; %.2fx the synchronous run's "
      "%.1f MB); largest RSS sampled with a batch in flight %.1f MB; target <= "
      "%.0f MB: %s\n",
      mb(batched.maxrss_kib), double(batched.maxrss_kib) / sync.maxrss_kib,
      mb(sync.maxrss_kib), mb(batched.in_flight_rss_kib), target_mb,
      mb(batched.maxrss_kib) <= target_mb ? "met" : "NOT met");
    std::printf(
      "cost                    batched %.4f against synchronous %.4f: %.3fx "
      "(target 0.50; tokens %llu + %llu against %llu + %llu)\n",
      batched.cost.cost, sync.cost.cost, batched.cost.cost / sync.cost.cost,
      static_cast<unsigned long long>(batched.cost.input_tokens),
      static_cast<unsigned long long>(batched.cost.output_tokens),
      static_cast<unsigned long long>(sync.cost.input_tokens),
      static_cast<unsigned long long>(sync.cost.output_tokens));

    // One batch of max_requests built and uploaded, directly; best of
    // `rounds` (one sample moves with the machine's other work).
    auto first = parse_pairs(pairs_text, max_requests);
    upload_figures best;
    for (int r = 0; r < rounds; ++r) {
      fake_batches up(bo);
      auto f = build_and_upload(first, up, r);
      if (r == 0 || f.build_s + f.upload_s < best.build_s + best.upload_s)
        best = f;
    }
    auto sync_share = sync.seconds * best.requests / pairs;
    std::printf("build and upload        %zu requests (%.1f MB): build %.0f "
                "ms, upload and "
                "create %.0f ms, together %.0f ms; the synchronous run's time "
                "for as many "
                "calls %.0f ms (%.2fx)\n",
                best.requests, best.bytes / 1e6, best.build_s * 1e3,
                best.upload_s * 1e3, (best.build_s + best.upload_s) * 1e3,
                sync_share * 1e3, (best.build_s + best.upload_s) / sync_share);
  }

  if (with_daemon) {
    daemon_figures sync;
    {
      fake_api fake(so);
      sync = daemon_run(dir, "daemon-sync", judge_json(fake.base_url(), ""),
                        pairs_text, nullptr);
    }
    if (sync.refused) {
      std::printf("daemon, synchronous     failed: %s\n", sync.why.c_str());
      code = 3;
    } else {
      fake_batches fake(bo);
      auto batched =
        daemon_run(dir, "daemon-batched",
                   judge_json(fake.base_url(),
                              batch_json(max_requests, max_wait_ms, poll_ms)),
                   pairs_text, &fake);
      if (batched.refused) {
        std::printf(
          "daemon, batched         REFUSED (this daemon does not take batched "
          "judges): %s\n",
          batched.why.c_str());
        code = 3;
      } else {
        auto sizes = fake.batch_sizes();
        std::printf(
          "daemon                  batched run %.2f s, %zu batches (%s); peak "
          "memory "
          "(VmHWM) %.1f MB against %.1f MB for the synchronous run (%.2fx, "
          "%.2f s); "
          "largest RSS with a batch in flight %.1f MB; target <= %.0f MB: %s\n",
          batched.seconds, sizes.size(), sizes_text(sizes).c_str(),
          mb(batched.hwm_kib), mb(sync.hwm_kib),
          double(batched.hwm_kib) / sync.hwm_kib, sync.seconds,
          mb(batched.in_flight_rss_kib), target_mb,
          mb(batched.hwm_kib) <= target_mb ? "met" : "NOT met");
      }
    }
  }
  std::printf("load average: %s", read_file("/proc/loadavg").c_str());
  return code;
}
