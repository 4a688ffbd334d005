#include "test_support.hpp"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <system_error>
#include <vector>

#include <unistd.h>

#include <catch2/catch.hpp>

#include "actors/judge_directory.hpp"
#include "actors/judge_worker.hpp"
#include "messages/registration.hpp"

namespace ij::test {

test_config::test_config() {
  ij::add_message_types(*this);
  set("scheduler.policy", caf::atom("testing"));
}

test_system::test_system()
    : sys(cfg),
      sched(dynamic_cast<caf::scheduler::test_coordinator&>(sys.scheduler())) {}

test_system::~test_system() {
  sched.run();
}

void test_system::run() {
  sched.run();
}

void test_system::advance(caf::timespan d) {
  sched.advance_time(d);
  sched.run();
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

judge_binding test_binding(judge_adapter_ptr adapter, std::uint32_t cap,
                           std::optional<std::int64_t> seed, std::string name) {
  judge_binding b;
  b.spec.name = std::move(name);
  b.spec.type = "test";
  b.spec.model = "m";
  b.spec.seed = seed;
  b.spec.max_in_flight = cap;
  b.adapter = std::move(adapter);
  return b;
}

vote_collector::vote_collector(caf::actor_system& sys) {
  auto out = got;
  auto count = messages;
  auto seen = notes;
  // The unused int: CAF 0.17 dereferences a null tuple for argument-less
  // function spawns (UBSan).
  actor = sys.spawn(
    [out, count, seen](vote_sink_actor::pointer,
                       int) -> vote_sink_actor::behavior_type {
      return {
        [out, count](std::vector<voted_pair>& v) {
          ++*count;
          for (auto& x : v)
            (*out)[x.seq] = std::move(x);
        },
        [seen](std::vector<run_note>& v) {
          seen->insert(seen->end(), v.begin(), v.end());
        },
      };
    },
    0);
}

event_collector::event_collector(caf::actor_system& sys) {
  auto out = got;
  actor = sys.spawn(
    [out](run_listener_actor::pointer,
          int) -> run_listener_actor::behavior_type {
      return {
        [out](run_started& s) {
          out->started.push_back(std::move(s));
          out->order += 's';
        },
        [out](std::vector<single_verdict>& v) {
          if (!out->snapshot_path.empty())
            out->snapshots.push_back(read_file(out->snapshot_path));
          for (auto& x : v)
            out->verdicts.push_back(std::move(x));
          out->order += 'v';
        },
        [out](std::vector<statistical_verdict>& v) {
          for (auto& x : v)
            out->items.push_back(std::move(x));
          out->order += 'i';
        },
        [out](std::vector<canary_result>& v) {
          for (auto& x : v)
            out->canaries.push_back(std::move(x));
          out->order += 'c';
        },
        [out](run_progress& p) {
          out->progress.push_back(std::move(p));
          out->order += 'p';
        },
        [out](warning_atom, std::string& w) {
          out->warnings.push_back(std::move(w));
          out->order += 'w';
        },
        [out](run_summary& s) {
          out->summary = std::move(s);
          out->order += 'e';
        },
      };
    },
    0);
}

void manual_adapter::call(const std::string& prompt, const call_options& opts,
                          reply_handler done) {
  std::lock_guard<std::mutex> guard{mtx_};
  ++calls_;
  prompts_.push_back(prompt);
  options_.push_back(opts);
  open_.emplace_back(opts.call_id, std::move(done));
  peak_ = std::max(peak_, open_.size());
}

bool manual_adapter::complete_next(adapter_reply reply) {
  reply_handler done;
  {
    std::lock_guard<std::mutex> guard{mtx_};
    if (open_.empty())
      return false;
    done = std::move(open_.front().second);
    open_.erase(open_.begin());
  }
  done(std::move(reply));
  return true;
}

void manual_adapter::abort(std::uint64_t call_id) {
  reply_handler done;
  {
    std::lock_guard<std::mutex> guard{mtx_};
    aborted_.push_back(call_id);
    if (!answer_aborts)
      return;
    auto i = std::find_if(open_.begin(), open_.end(),
                          [&](auto& c) { return c.first == call_id; });
    if (i == open_.end())
      return;
    done = std::move(i->second);
    open_.erase(i);
  }
  adapter_reply r;
  r.fault = fault_kind::aborted;
  r.attempts = aborts_sent ? 1 : 0;
  r.error = "aborted: its run was cancelled";
  done(std::move(r));
}

std::vector<std::uint64_t> manual_adapter::aborted() const {
  std::lock_guard<std::mutex> guard{mtx_};
  return aborted_;
}

std::size_t manual_adapter::calls() const {
  std::lock_guard<std::mutex> guard{mtx_};
  return calls_;
}

std::size_t manual_adapter::open() const {
  std::lock_guard<std::mutex> guard{mtx_};
  return open_.size();
}

std::size_t manual_adapter::peak_open() const {
  std::lock_guard<std::mutex> guard{mtx_};
  return peak_;
}

std::vector<std::string> manual_adapter::prompts() const {
  std::lock_guard<std::mutex> guard{mtx_};
  return prompts_;
}

std::vector<call_options> manual_adapter::options() const {
  std::lock_guard<std::mutex> guard{mtx_};
  return options_;
}

adapter_reply canonical(const std::string& decision,
                        const std::string& numeric_a,
                        const std::string& numeric_b) {
  adapter_reply r;
  r.ok = true;
  r.text = "DECISION: " + decision + "\nREASON: scripted.\nNUMERIC_A: "
           + numeric_a + "\nNUMERIC_B: " + numeric_b;
  r.input_tokens = 10;
  r.output_tokens = 3;
  return r;
}

namespace {

// The audit files this test process made: removed when it exits (ctest runs
// one test case per process), so that no run leaves files in /tmp.
struct made_files {
  std::vector<std::filesystem::path> paths;
  ~made_files() {
    for (auto& p : paths) {
      std::error_code ignored;
      std::filesystem::remove(p, ignored);
    }
  }
};

made_files& made() {
  static made_files files;
  return files;
}

} // namespace

std::string temp_audit_path(const std::string& tag) {
  auto dir = std::filesystem::temp_directory_path();
  auto path =
    dir / ("ij-actors-" + std::to_string(::getpid()) + "-" + tag + ".jsonl");
  std::filesystem::remove(path);
  made().paths.push_back(path);
  return path.string();
}

std::vector<record> records_of(const std::string& text) {
  std::vector<record> out;
  for (auto& line : lines_of(text)) {
    record r;
    r.doc.Parse(line.c_str());
    REQUIRE_FALSE(r.doc.HasParseError());
    r.type = r.doc["type"].GetString();
    out.push_back(std::move(r));
  }
  return out;
}

run_rig::run_rig(std::vector<judge_binding> judges, const std::string& tag,
                 std::string run_id)
    : path(temp_audit_path(tag)) {
  directory = spawn_judge_directory(t.sys);
  for (auto& b : judges) {
    setup.config.judges.push_back(b.spec);
    auto w = spawn_judge_worker(t.sys, b, b.spec.name + "@local");
    workers.push_back(w);
    caf::anon_send(directory, join_atom::value, w);
  }
  t.run();
  setup.config.source = "test";
  setup.config.vote_deadline = std::chrono::seconds(10);
  setup.audit_path = path;
  setup.directory = directory;
  setup.listener = events.actor;
  setup.detached_logger = false;
  setup.run_id = std::move(run_id);
}

run_rig::~run_rig() {
  for (auto& w : workers)
    caf::anon_send_exit(w, caf::exit_reason::user_shutdown);
  caf::anon_send_exit(directory, caf::exit_reason::user_shutdown);
  caf::anon_send_exit(events.actor, caf::exit_reason::user_shutdown);
  if (run)
    caf::anon_send_exit(run, caf::exit_reason::user_shutdown);
  std::remove(path.c_str());
}

void run_rig::start() {
  auto r = spawn_run(t.sys, setup);
  REQUIRE(r);
  run = *r;
}

void run_rig::send(std::vector<answer_pair> pairs) {
  input_batch b;
  b.pairs = std::move(pairs);
  caf::anon_send(run, std::move(b));
}

void run_rig::end_input() {
  caf::anon_send(run, end_of_input_atom::value);
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line))
    out.push_back(line);
  return out;
}

} // namespace ij::test
