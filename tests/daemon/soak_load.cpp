#include "tests/daemon/soak_load.hpp"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <fstream>
#include <mutex>
#include <thread>

#include <dirent.h>

#include <rapidjson/document.h>

#include "tools/api_client.hpp"

namespace ij::test {

namespace {

using clock_type = std::chrono::steady_clock;

std::string id_of(const std::string& body) {
  rapidjson::Document d;
  d.Parse(body);
  return d.IsObject() && d.HasMember("id") && d["id"].IsString()
           ? d["id"].GetString()
           : "";
}

// The clients start runs up to the next sample's count and wait there:
// a sample is taken when that many runs have finished and none is under
// way, so that it shows what finished runs left behind, not the runs in
// flight at that moment.
struct soak_state {
  explicit soak_state(const soak_options& o) : opts(o) {}
  const soak_options& opts;
  clock_type::time_point start = clock_type::now();
  std::mutex mtx;
  std::condition_variable next_window;
  int started = 0;
  int finished = 0;
  soak_result result;

  void fail(const std::string& what) {
    std::lock_guard<std::mutex> guard{mtx};
    if (result.failures.size() < 20)
      result.failures.push_back(what);
  }
  void sample(int runs) { // under mtx
    result.samples.push_back(soak_sample{
      runs, rss_mib(opts.pid), open_files(opts.pid),
      std::chrono::duration<double>(clock_type::now() - start).count()});
  }
  void no_live_run() {
    api_client api{opts.url, ""};
    for (int i = 0; i < 500; ++i) {
      auto m = api.request("GET", "/metrics").body;
      if (m.find("invjudge_runs{state=\"open\"} 0\n") != std::string::npos
          && m.find("invjudge_runs{state=\"running\"} 0\n")
               != std::string::npos)
        return;
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
  }
  int window_end() const { // the sample the runs started now count toward
    return std::min(opts.runs,
                    (finished / opts.sample_every + 1) * opts.sample_every);
  }
  /// A run may start (false: all have been started).
  bool take() {
    std::unique_lock<std::mutex> lock{mtx};
    next_window.wait(
      lock, [&] { return started < window_end() || started >= opts.runs; });
    if (started >= opts.runs)
      return false;
    ++started;
    return true;
  }
  void finish(bool ok) {
    std::lock_guard<std::mutex> guard{mtx};
    result.done += ok;
    ++finished;
    if (finished == started
        && (finished % opts.sample_every == 0 || finished == opts.runs)) {
      // The daemon gives its free memory back once its last run has ended
      // (on its own threads, just after it answered this one's end): its
      // run registry, which does it, has once /metrics shows no live run
      // (on a loaded machine that can take longer than the settle).
      no_live_run();
      std::this_thread::sleep_for(opts.settle);
      sample(finished);
      next_window.notify_all();
    }
  }
};

// One run from creation to its end: its verdict lines followed with
// wait_ms (no polling) until its state is final.
bool one_run(soak_state& st, api_client& api) {
  auto created =
    api.request("POST", "/v1/runs", "{\"config\":" + st.opts.config + "}",
                "application/json");
  auto id = id_of(created.body);
  if (created.status != 201 || id.empty()) {
    st.fail("create: HTTP " + std::to_string(created.status) + " "
            + created.body);
    return false;
  }
  auto up = api.request("POST", "/v1/runs/" + id + "/pairs", st.opts.pairs,
                        "application/x-ndjson");
  auto closed = api.request("POST", "/v1/runs/" + id + "/close");
  if (up.status != 200 || closed.status != 200) {
    st.fail(id + ": upload " + std::to_string(up.status) + ", close "
            + std::to_string(closed.status));
    return false;
  }
  std::uint64_t after = 0;
  for (int round = 0; round < 10000; ++round) {
    auto r = api.request("GET", "/v1/runs/" + id + "/verdicts?after="
                                  + std::to_string(after) + "&wait_ms=10000");
    if (r.status != 200) {
      st.fail(id + ": verdicts HTTP " + std::to_string(r.status) + " "
              + r.body);
      return false;
    }
    for (std::size_t at = 0;
         (at = r.body.find("{\"seq\":", at)) != std::string::npos; ++at)
      ++after;
    auto state = r.header("X-Run-State");
    if (state == "done")
      return true;
    if (state == "cancelled" || state == "failed") {
      st.fail(id + " ended " + state);
      return false;
    }
  }
  st.fail(id + " did not end");
  return false;
}

void client(soak_state& st) {
  api_client api{st.opts.url, ""};
  while (st.take())
    st.finish(one_run(st, api));
}

} // namespace

double rss_mib(int pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/status");
  std::string line;
  while (std::getline(in, line))
    if (line.rfind("VmRSS:", 0) == 0)
      return std::stod(line.substr(6)) / 1024.0; // kB
  return 0;
}

int open_files(int pid) {
  auto dir = "/proc/" + std::to_string(pid) + "/fd";
  auto* d = ::opendir(dir.c_str());
  if (!d)
    return -1;
  int n = 0;
  while (auto* e = ::readdir(d))
    n += e->d_name[0] != '.';
  ::closedir(d);
  return n;
}

soak_result run_soak(const soak_options& opts) {
  soak_state st{opts};
  {
    std::lock_guard<std::mutex> guard{st.mtx};
    st.sample(0);
  }
  std::vector<std::thread> clients;
  for (int k = 0; k < opts.clients; ++k)
    clients.emplace_back([&st] { client(st); });
  for (auto& c : clients)
    c.join();
  return std::move(st.result);
}

const soak_sample* sample_at(const soak_result& r, int runs) {
  for (auto& s : r.samples)
    if (s.runs == runs)
      return &s;
  return nullptr;
}

} // namespace ij::test
