// Pipeline throughput (docs/BENCHMARKS.md, "Pipeline"): pairs per second
// through the whole actor pipeline (judge actors, vote coordinator, verdict
// actor, audit logger) with the zero-latency numeric stub judge and the audit
// on, for votes = 1 and votes = 5 (min_agreement 3), against a baseline
// measured in the same run: one plain thread doing the same work per pair
// (the pair guard of issue 29, prompt, judge call, parse, record, tally,
// verdict, the audit lines with their SHA-256 chain, one write per pair).
//
// Usage: pipeline_bench [--pairs N] [--window W] [--million]
//   --million also runs `invjudge run` on one million generated pairs and
//   reports the child's peak resident memory (wait4's ru_maxrss).
#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

#include <fcntl.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <caf/actor_system.hpp>
#include <caf/actor_system_config.hpp>
#include <caf/scoped_actor.hpp>

#include "actors/judge_directory.hpp"
#include "actors/local_workers.hpp"
#include "actors/run_client.hpp"
#include "actors/run_session.hpp"
#include "actors/system_config.hpp"
#include "adapters/adapter_factory.hpp"
#include "adapters/llm_judge_comparator.hpp"
#include "core/audit/audit_record.hpp"
#include "core/guard/pair_guard.hpp"
#include "core/numbers/answer.hpp"
#include "core/sha256.hpp"
#include "core/verdicts/outcome_mapping.hpp"
#include "core/verdicts/verdict_table.hpp"
#include "core/voting/vote_tally.hpp"
#include "core/wall_clock.hpp"
#include "messages/error.hpp"
#include "messages/registration.hpp"
#include "runio/pair_reader.hpp"
#include "tools/gen_pairs.hpp"

extern char** environ;

namespace {

using namespace ij;
using clock_type = std::chrono::steady_clock;

std::vector<answer_pair> make_pairs(std::uint64_t n) {
  std::vector<answer_pair> out;
  out.reserve(n);
  for (std::uint64_t i = 0; i < n; ++i) {
    auto p = parse_pair_line(synthetic_pair_line(i, 10));
    if (!p) {
      std::fprintf(stderr, "generator bug: %s\n",
                   render_error(p.error()).c_str());
      std::exit(1);
    }
    out.push_back(std::move(*p));
  }
  return out;
}

judge_binding numeric_stub() {
  auto spec = parse_judge_name("stub:numeric");
  if (!spec) {
    std::fprintf(stderr, "cannot build stub:numeric: %s\n",
                 render_error(spec.error()).c_str());
    std::exit(1);
  }
  auto adapter = make_adapter(*spec);
  if (!adapter) {
    std::fprintf(stderr, "cannot build stub:numeric: %s\n",
                 render_error(adapter.error()).c_str());
    std::exit(1);
  }
  return {*spec, *adapter};
}

std::string temp_audit(const char* tag) {
  char buf[128];
  std::snprintf(buf, sizeof buf, "/tmp/ij-pipeline-bench-%d-%s.jsonl",
                static_cast<int>(::getpid()), tag);
  std::remove(buf);
  return buf;
}

/// CPU time of the whole process (every thread), user + system.
double process_cpu_seconds() {
  rusage ru{};
  ::getrusage(RUSAGE_SELF, &ru);
  auto secs = [](const timeval& t) {
    return double(t.tv_sec) + double(t.tv_usec) / 1e6;
  };
  return secs(ru.ru_utime) + secs(ru.ru_stime);
}

struct result {
  double seconds = 0;
  /// CPU time of all threads over the run: what the work costs, whatever
  /// the machine's load.
  double cpu_seconds = 0;
  std::uint64_t pairs = 0;
  std::uint64_t judge_calls = 0;
  std::uint64_t calls_skipped = 0;
  double rate() const { return seconds > 0 ? double(pairs) / seconds : 0.0; }
};

// ---------------------------------------------------------------------------
// Baseline: the same work on one thread, no actors.

class chained_file {
public:
  explicit chained_file(const std::string& path)
      : fd_(
        ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644)),
        prev_(audit_genesis_hash) {
    if (fd_ < 0) {
      std::perror(path.c_str());
      std::exit(1);
    }
  }
  ~chained_file() { ::close(fd_); }
  void add(audit_type type, const std::string& body, const std::string& ts) {
    auto start = buf_.size();
    append_audit_line(buf_, ++seq_, type, ts, prev_, body);
    prev_ =
      sha256_hex(std::string_view{buf_.data() + start, buf_.size() - start});
    buf_ += '\n';
  }
  /// One write per pair, like the logger's one write per batch.
  void write(bool fsync_after) {
    std::size_t off = 0;
    while (off < buf_.size()) {
      auto n = ::write(fd_, buf_.data() + off, buf_.size() - off);
      if (n < 0) {
        std::perror("write");
        std::exit(1);
      }
      off += static_cast<std::size_t>(n);
    }
    buf_.clear();
    if (fsync_after)
      ::fsync(fd_);
  }

private:
  int fd_;
  std::string prev_;
  std::string buf_;
  std::uint64_t seq_ = 0;
};

result baseline(const std::vector<answer_pair>& pairs, vote_config votes,
                bool fsync_each_pair) {
  auto judge = numeric_stub();
  auto path = temp_audit("baseline");
  result r;
  auto t0 = clock_type::now();
  auto cpu0 = process_cpu_seconds();
  {
    chained_file audit{path};
    audit.add(audit_type::manifest, R"({"tool":"pipeline_bench baseline"})",
              iso8601_utc(wall_clock_ms()));
    audit.write(fsync_each_pair);
    judge_options opts;
    opts.call = call_options_for(judge.spec, 0);
    std::unordered_map<std::string, std::array<std::uint32_t, 5>> items;
    for (auto& pair : pairs) {
      vote_result vr;
      vr.pair_id = pair.id;
      auto ts = iso8601_utc(wall_clock_ms());
      if (is_absent(pair.a) || is_absent(pair.b)) {
        vr.absent = true;
        vr.outcome = absent_outcome();
        vr.counts.votes = votes.votes;
        vr.counts.min_agreement = votes.min_agreement;
      } else if (auto g = guard_pair(pair.a, pair.b);
                 unjudged(g, planted_action::abstain)) {
        vr = unjudged_result(pair.id, g, votes, true);
      } else {
        vote_tally tally{votes};
        for (std::uint32_t i = 0; i < votes.votes && !tally.fixed(); ++i) {
          judge_request req{pair.id, pair.a, pair.b, i, false, false, 0, 0, ""};
          judge_once(*judge.adapter, opts, req,
                     [&](judge_record rec, equivalence_outcome out) {
                       if (out.fault)
                         tally.add_fault();
                       else
                         tally.add(rec.decision);
                       vr.records.push_back(std::move(rec));
                     });
          ++r.judge_calls;
        }
        vr.outcome = tally.outcome();
        vr.counts = tally.counts();
        r.calls_skipped += vr.counts.not_cast;
      }
      for (auto& rec : vr.records)
        audit.add(audit_type::judge_call, judge_call_body(rec), ts);
      audit.add(audit_type::vote, vote_body(pair, vr), ts);
      auto d = single_invariance_verdict(vr.absent, vr.outcome);
      single_verdict sv{pair.id,    pair.item, d.verdict, d.rule,
                        vr.outcome, vr.counts, pair.label};
      audit.add(audit_type::verdict, verdict_body(pair, sv), ts);
      audit.write(fsync_each_pair);
      ++items[pair.item][static_cast<std::size_t>(d.rule) - 1];
      ++r.pairs;
    }
    auto ts = iso8601_utc(wall_clock_ms());
    for (auto& [item, counts] : items)
      audit.add(audit_type::item_verdict,
                item_verdict_body(statistical_invariance_verdict(
                  item, counts, statistical_params{})),
                ts);
    run_summary s;
    s.pairs = r.pairs;
    audit.add(audit_type::run_end, run_end_body(s, {}, 0), ts);
    audit.write(true);
  }
  r.seconds = std::chrono::duration<double>(clock_type::now() - t0).count();
  r.cpu_seconds = process_cpu_seconds() - cpu0;
  std::remove(path.c_str());
  return r;
}

// ---------------------------------------------------------------------------
// The pipeline, driven the way invjudge drives it: a judge directory and one
// worker, a run session, and the driver's own run client feeding batches
// from memory under the session's backpressure.

result pipeline(const std::vector<answer_pair>& pairs, vote_config votes,
                flush_policy flush, std::uint32_t window) {
  caf::actor_system_config cfg;
  configure_actor_system(cfg);
  caf::actor_system sys{cfg};
  auto directory = spawn_judge_directory(sys);
  auto judge = numeric_stub();
  run_config rc = default_config();
  rc.source = "pipeline_bench";
  rc.judges = {judge.spec};
  rc.votes = votes;
  rc.flush = flush;
  if (auto w = start_local_workers(sys, directory, {judge}); !w) {
    std::fprintf(stderr, "workers: %s\n", render_error(w.error()).c_str());
    std::exit(1);
  }
  caf::scoped_actor self{sys};
  run_setup setup;
  setup.config = rc;
  setup.audit_path = temp_audit("pipeline");
  setup.directory = directory;
  setup.listener = as_listener(self);
  setup.window = window;
  auto path = setup.audit_path;
  auto t0 = clock_type::now();
  auto cpu0 = process_cpu_seconds();
  auto session = spawn_run(sys, std::move(setup));
  if (!session) {
    std::fprintf(stderr, "spawn_run: %s\n",
                 render_error(session.error()).c_str());
    std::exit(1);
  }
  std::size_t next = 0;
  batch_source source = [&](input_batch& b) -> caf::expected<input_state> {
    auto end = std::min(pairs.size(), next + 128);
    b.pairs.assign(pairs.begin() + static_cast<std::ptrdiff_t>(next),
                   pairs.begin() + static_cast<std::ptrdiff_t>(end));
    next = end;
    return next == pairs.size() ? input_state::end : input_state::more;
  };
  result r;
  run_event_handlers on;
  on.verdicts = [&](std::vector<single_verdict>& v) { r.pairs += v.size(); };
  auto out = drive_run(self, *session, source, on);
  if (!out.ended || !out.summary.error.empty()) {
    std::fprintf(stderr, "the run failed: %s\n", out.summary.error.c_str());
    std::exit(1);
  }
  r.judge_calls = out.summary.judge_calls;
  r.calls_skipped = out.summary.calls_skipped;
  r.seconds = std::chrono::duration<double>(clock_type::now() - t0).count();
  r.cpu_seconds = process_cpu_seconds() - cpu0;
  self->send_exit(directory, caf::exit_reason::user_shutdown);
  std::remove(path.c_str());
  return r;
}

// ---------------------------------------------------------------------------
// One million pairs through the real binary, for its peak memory.

void million(const char* invjudge) {
  std::string dir = "/tmp/ij-pipeline-bench-" + std::to_string(::getpid());
  std::string pairs_path = dir + "-1m.jsonl";
  std::string audit_path = dir + "-1m.audit.jsonl";
  std::remove(audit_path.c_str());
  {
    std::FILE* f = std::fopen(pairs_path.c_str(), "wb");
    if (!f || !write_synthetic_pairs(f, 1000000, 10)) {
      std::perror(pairs_path.c_str());
      std::exit(1);
    }
    std::fclose(f);
  }
  std::vector<std::string> args{invjudge,   "run",       "--pairs",
                                pairs_path, "--audit",   audit_path,
                                "--out",    "/dev/null", "--no-progress"};
  std::vector<char*> argv;
  for (auto& a : args)
    argv.push_back(a.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
  pid_t pid;
  auto t0 = clock_type::now();
  if (posix_spawn(&pid, invjudge, &fa, nullptr, argv.data(), environ) != 0) {
    std::perror("posix_spawn");
    std::exit(1);
  }
  posix_spawn_file_actions_destroy(&fa);
  int status = 0;
  rusage ru{};
  ::wait4(pid, &status, 0, &ru);
  double secs = std::chrono::duration<double>(clock_type::now() - t0).count();
  std::printf(
    "\none million pairs through `invjudge run` (embedded default: rules:math, "
    "1 vote, fsync-verdicts):\n"
    "  exit %d, %.1f s (%.0f pairs/s), peak RSS %.1f MB (target < 200 MB)\n",
    WIFEXITED(status) ? WEXITSTATUS(status) : -1, secs, 1e6 / secs,
    double(ru.ru_maxrss) / 1024.0);
  std::remove(pairs_path.c_str());
  std::remove(audit_path.c_str());
}

} // namespace

int main(int argc, char** argv) {
  std::uint64_t n = 100000;
  std::uint32_t window = 0;
  bool run_million = false;
  // --only b1,p1,b5,p5,fsync: run just those rows (for profiling one).
  std::string only;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--pairs" && i + 1 < argc)
      n = std::strtoull(argv[++i], nullptr, 10);
    else if (a == "--window" && i + 1 < argc)
      window = static_cast<std::uint32_t>(std::strtoul(argv[++i], nullptr, 10));
    else if (a == "--million")
      run_million = true;
    else if (a == "--only" && i + 1 < argc)
      only = argv[++i];
    else {
      std::fprintf(stderr, "usage: pipeline_bench [--pairs N] [--window W] "
                           "[--only b1,p1,b5,p5,fsync] [--million]\n");
      return 2;
    }
  }
  auto pairs = make_pairs(n);
  std::printf(
    "pipeline_bench: %llu synthetic pairs (10 per item, ~10%% absent or "
    "different), stub:numeric (zero latency), audit on, %u hardware "
    "threads, window %u\n\n",
    static_cast<unsigned long long>(n), std::thread::hardware_concurrency(),
    window);
  std::printf("%-44s %10s %12s %12s %9s %12s %9s\n", "configuration", "pairs/s",
              "judge calls", "skipped", "seconds", "CPU us/pair", "ratio");
  auto row = [](const char* name, const result& r, const result* base) {
    std::printf("%-44s %10.0f %12llu %12llu %9.2f %12.2f", name, r.rate(),
                static_cast<unsigned long long>(r.judge_calls),
                static_cast<unsigned long long>(r.calls_skipped), r.seconds,
                r.pairs ? 1e6 * r.cpu_seconds / double(r.pairs) : 0.0);
    if (base)
      std::printf(" %8.2fx\n", r.rate() / base->rate());
    else
      std::printf(" %9s\n", "1.00x");
  };
  auto wanted = [&](const char* name) {
    return only.empty()
           || ("," + only + ",").find(std::string{","} + name + ",")
                != std::string::npos;
  };
  vote_config one{1, 1}, five{5, 3};
  result b1, p1, b5, p5, bf, pf;
  if (wanted("b1")) {
    b1 = baseline(pairs, one, false);
    row("baseline, 1 thread, votes=1", b1, nullptr);
  }
  if (wanted("p1")) {
    p1 = pipeline(pairs, one, flush_policy::flush_each, window);
    row("pipeline, votes=1, flush-each", p1, wanted("b1") ? &b1 : nullptr);
  }
  if (wanted("b5")) {
    b5 = baseline(pairs, five, false);
    row("baseline, 1 thread, votes=5 k=3", b5, nullptr);
  }
  if (wanted("p5")) {
    p5 = pipeline(pairs, five, flush_policy::flush_each, window);
    row("pipeline, votes=5 k=3, flush-each", p5, wanted("b5") ? &b5 : nullptr);
  }
  if (wanted("fsync")) {
    // Durability: fsync before each verdict. The baseline must fsync per
    // pair; the pipeline's logger commits verdicts in groups.
    std::vector<answer_pair> few(
      pairs.begin(), pairs.begin() + std::min<std::size_t>(pairs.size(), 5000));
    bf = baseline(few, one, true);
    row("baseline, fsync per pair, votes=1 (5000)", bf, nullptr);
    pf = pipeline(pairs, one, flush_policy::fsync_verdicts, window);
    row("pipeline, votes=1, fsync-verdicts", pf, &bf);
  }
  auto asked = p5.judge_calls + p5.calls_skipped;
  std::printf(
    "\nearly stopping at votes=5, k=3: %llu of %llu judge calls not made "
    "(%.1f%%)\n",
    static_cast<unsigned long long>(p5.calls_skipped),
    static_cast<unsigned long long>(asked),
    asked ? 100.0 * double(p5.calls_skipped) / double(asked) : 0.0);
  rusage self_ru{};
  ::getrusage(RUSAGE_SELF, &self_ru);
  std::printf(
    "bench process peak RSS: %.1f MB (holds all %llu pairs in memory)\n",
    double(self_ru.ru_maxrss) / 1024.0, static_cast<unsigned long long>(n));
  if (run_million)
    million(IJ_INVJUDGE);
  return 0;
}
