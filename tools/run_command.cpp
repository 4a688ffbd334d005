#include "tools/run_command.hpp"

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <sys/stat.h>
#include <unistd.h>

#include <caf/actor_system.hpp>
#include <caf/actor_system_config.hpp>
#include <caf/scoped_actor.hpp>

#include "actors/judge_directory.hpp"
#include "actors/local_workers.hpp"
#include "actors/run_session.hpp"
#include "actors/system_config.hpp"
#include "adapters/adapter_factory.hpp"
#include "messages/error.hpp"
#include "tools/config_file.hpp"
#include "tools/exit_codes.hpp"
#include "tools/interrupt.hpp"
#include "tools/output_sink.hpp"
#include "tools/pair_source.hpp"
#include "tools/progress_bar.hpp"
#include "actors/run_client.hpp"
#include "tools/run_report.hpp"
#include "tools/verdict_output.hpp"

namespace ij {

namespace {

bool file_exists(const std::string& path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0;
}

void say(const std::string& text) {
  std::fprintf(stderr, "invjudge: %s\n", text.c_str());
}

// The configuration: --config (or the embedded default), --judge over it.
std::optional<run_config> resolve_config(const run_options& opts) {
  std::string error;
  std::optional<run_config> cfg;
  if (opts.config_path.empty())
    cfg = default_config();
  else
    cfg = load_config(opts.config_path, error);
  if (cfg && !opts.judge.empty() && !override_judge(*cfg, opts.judge, error))
    cfg.reset();
  if (!cfg)
    say(error);
  return cfg;
}

// --strict: every line must be good before anything is judged.
int check_strict(pair_source& source) {
  std::uint64_t bad = 0, pairs = 0;
  std::string error;
  if (source.check_all(bad, pairs, error))
    return exit_code::ok;
  if (interrupt_requested()) {
    say("interrupted while validating; nothing was judged");
    return exit_code::incomplete;
  }
  if (!error.empty())
    say(error);
  else
    say(source.name() + ": " + std::to_string(bad)
        + " bad line(s); nothing was judged (--strict), no audit was written");
  return exit_code::bad_input;
}

struct file_closer {
  void operator()(std::FILE* f) const {
    if (f)
      std::fclose(f);
  }
};

/// What the driver shows while a run goes: verdict lines, the progress line,
/// warnings, and the counts for the summary.
struct run_view {
  output_sink sink;
  run_report report;
  std::optional<progress_bar> bar;
  std::string caps; // the workers' current capacities, for the progress line

  explicit run_view(std::FILE* out) : sink(out) {
  }

  run_event_handlers handlers() {
    run_event_handlers on;
    on.verdicts = [this](std::vector<single_verdict>& vs) {
      for (auto& v : vs) {
        report.add(v);
        sink.write(pair_verdict_line(v));
      }
    };
    on.items = [this](std::vector<statistical_verdict>& vs) {
      for (auto& v : vs) {
        report.add(v);
        sink.write(item_verdict_line(v));
      }
    };
    on.progress = [this](const run_progress& p) {
      caps.clear();
      for (auto& w : p.workers)
        if (w.capacity < w.configured)
          caps += "  " + w.name + " cap " + std::to_string(w.capacity) + "/"
                  + std::to_string(w.configured);
    };
    on.warning = [this](const std::string& w) {
      if (bar)
        bar->clear();
      say("warning: " + w);
    };
    on.tick = [this] {
      sink.maybe_flush();
      if (bar)
        bar->update(report.pairs(), report.faults());
    };
    on.stop_reason = [this]() -> std::string {
      if (interrupt_requested())
        return "interrupted (SIGINT or SIGTERM)";
      if (sink.failed())
        return "the verdict output could not be written (closed)";
      return {};
    };
    return on;
  }
};

// The end of a run in words and an exit code.
int conclude(const run_outcome& out, run_view& view,
             const run_options& opts, const std::string& audit_path) {
  view.sink.flush();
  if (view.bar)
    view.bar->clear();
  for (auto& f : out.failures)
    say(f);
  if (!out.ended) {
    say("the run stopped before it ended; the audit " + audit_path
        + " has no run-end record");
    return exit_code::incomplete;
  }
  const auto& s = out.summary;
  if (!s.error.empty()) {
    say("the run failed: " + s.error);
    return exit_code::incomplete;
  }
  std::fputs(view.report.render(s, audit_path, s.interrupted).c_str(), stderr);
  if (view.sink.failed())
    say("writing the verdicts failed: "
        + (opts.out_path.empty() ? std::string{"standard output"}
                                 : opts.out_path));
  if (!out.input_error.empty()) {
    say(out.input_error + "; the run was ended there (its audit says so)");
    return exit_code::bad_input;
  }
  if (s.interrupted || view.sink.failed() || !out.failures.empty())
    return exit_code::incomplete;
  return exit_code::ok;
}

// The actors: a directory, a worker per judge, the run session; then the
// input is fed until the run ends.
int run_pairs(const run_options& opts, run_config cfg,
                std::vector<judge_binding> judges, pair_source& source,
                std::FILE* out, const std::string& audit_path,
                std::optional<std::uint64_t> total) {
  caf::actor_system_config sys_cfg;
  configure_actor_system(sys_cfg);
  caf::actor_system sys{sys_cfg};
  auto directory = sys.spawn(judge_directory);
  // The directory holds the workers: ending it on every way out ends them,
  // so the actor system shuts down at once.
  struct end_on_return {
    caf::actor actor;
    ~end_on_return() {
      caf::anon_send_exit(actor, caf::exit_reason::user_shutdown);
    }
  } directory_guard{caf::actor_cast<caf::actor>(directory)};
  auto workers = start_local_workers(sys, directory, std::move(judges));
  if (!workers) {
    say("cannot start the judges: " + render_error(workers.error()));
    return exit_code::bad_config;
  }
  caf::scoped_actor self{sys};
  run_view view{out};
  run_setup setup;
  setup.config = std::move(cfg);
  setup.audit_path = audit_path;
  setup.directory = directory;
  setup.listener = caf::actor_cast<run_listener_actor>(self);
  setup.window = opts.window;
  bool show_progress = opts.progress && ::isatty(STDERR_FILENO) == 1;
  if (show_progress)
    setup.progress_interval = std::chrono::milliseconds(250);
  auto session = spawn_run(sys, std::move(setup));
  if (!session) {
    say("cannot start the run (audit " + audit_path
        + "): " + render_error(session.error()));
    return exit_code::bad_config;
  }
  say("audit: " + audit_path);
  if (show_progress) {
    view.bar.emplace(stderr, total);
    view.bar->set_status([&view] { return view.caps; });
    source.on_echo([&view] { view.bar->clear(); });
  }
  auto on = view.handlers();
  auto outcome = drive_run(
    self, *session,
    [&source](input_batch& b, std::string& why) { return source.next(b, why); },
    on);
  return conclude(outcome, view, opts, audit_path);
}

} // namespace

std::string fresh_audit_name() {
  auto now = std::chrono::system_clock::now();
  auto t = std::chrono::system_clock::to_time_t(now);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char stamp[32];
  std::strftime(stamp, sizeof stamp, "%Y%m%dT%H%M%SZ", &tm);
  std::string base = std::string{"invjudge-audit-"} + stamp;
  std::string name = base + ".jsonl";
  for (int i = 2; file_exists(name); ++i)
    name = base + "-" + std::to_string(i) + ".jsonl";
  return name;
}

int run_command(const run_options& opts) {
  // 1. Configuration: everything is checked before any file is written.
  auto cfg = resolve_config(opts);
  if (!cfg)
    return exit_code::bad_config;
  std::string error;
  auto judges = bind_judges(*cfg, error);
  if (!judges) {
    say(error);
    return exit_code::bad_config;
  }
  // 2. Input: must be readable; under --strict every line must be good.
  auto source = pair_source::open(opts.pairs_path, error);
  if (!source) {
    say(error);
    return exit_code::bad_input;
  }
  std::optional<std::uint64_t> total;
  if (opts.strict) {
    if (opts.pairs_path == "-") {
      say("--strict needs a file (it reads the input twice), not standard "
          "input");
      return exit_code::bad_input;
    }
    if (auto code = check_strict(*source); code != exit_code::ok)
      return code;
  }
  // 3. Output and audit destinations.
  std::unique_ptr<std::FILE, file_closer> out_owner;
  std::FILE* out = stdout;
  if (!opts.out_path.empty()) {
    out_owner.reset(std::fopen(opts.out_path.c_str(), "wb"));
    if (!out_owner) {
      say(opts.out_path + ": cannot write: " + std::strerror(errno));
      return exit_code::bad_input;
    }
    out = out_owner.get();
  }
  std::string audit_path = !opts.audit_path.empty() ? opts.audit_path
                           : !cfg->audit_path.empty() ? cfg->audit_path
                                                      : fresh_audit_name();
  if (opts.progress && ::isatty(STDERR_FILENO) == 1)
    total = source->count_lines();
  return run_pairs(opts, std::move(*cfg), std::move(*judges), *source, out,
                     audit_path, total);
}

} // namespace ij
