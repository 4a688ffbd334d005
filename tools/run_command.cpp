#include "tools/run_command.hpp"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <unistd.h>

#include <caf/actor_system.hpp>
#include <caf/actor_system_config.hpp>
#include <caf/scoped_actor.hpp>

#include "actors/audit_file.hpp"
#include "actors/host_connector.hpp"
#include "actors/judge_directory.hpp"
#include "actors/judge_host.hpp"
#include "actors/local_workers.hpp"
#include "actors/remoting.hpp"
#include "actors/run_client.hpp"
#include "actors/run_session.hpp"
#include "actors/system_config.hpp"
#include "adapters/adapter_factory.hpp"
#include "adapters/redaction.hpp"
#include "adapters/response_cache.hpp"
#include "core/budgets/fault_budget.hpp"
#include "core/hosts/host_address.hpp"
#include "core/hosts/judge_match.hpp"
#include "core/session/fault_reason_tally.hpp"
#include "core/session/run_id.hpp"
#include "core/session/run_tag.hpp"
#include "messages/error.hpp"
#include "messages/registration.hpp"
#include "runio/calibration_file.hpp"
#include "runio/prompt_file.hpp"
#include "runio/verdict_output.hpp"
#include "tools/config_file.hpp"
#include "tools/exit_codes.hpp"
#include "tools/input_source.hpp"
#include "tools/interrupt.hpp"
#include "tools/output_file.hpp"
#include "tools/output_sink.hpp"
#include "tools/pair_source.hpp"
#include "tools/progress_bar.hpp"
#include "tools/run_batches.hpp"
#include "tools/run_report.hpp"
#include "tools/strict_check.hpp"

namespace ij {

namespace {

void say(const std::string& text) {
  std::fprintf(stderr, "invjudge: %s\n", text.c_str());
}

/// Everything a run needs that was checked before any actor is spawned.
struct prepared_run {
  run_config config;
  std::vector<judge_binding> judges;
  input_source input;
  std::optional<std::uint64_t> total; // pairs, when known (progress)
  output_file out_file;               // --out, when given
  std::FILE* out = stdout;
  std::string audit_path;
  /// --resume: the audit opened (locked, cut) and what it holds.
  std::shared_ptr<const resume_point> resume;
  int audit_fd = -1;
  /// Batched judges and the journal their batches go to (issue 17).
  run_batches batches;

  prepared_run() = default;
  prepared_run(const prepared_run&) = delete;
  prepared_run& operator=(const prepared_run&) = delete;
  ~prepared_run() {
    if (audit_fd >= 0) // not handed to a run session
      ::close(audit_fd);
  }
};

// --resume: the audit is opened (locked, verified, its uncommitted tail
// cut) and the run's configuration is its manifest's.
caf::expected<run_config> resume_config(const run_options& opts,
                                        prepared_run& run) {
  auto audit = open_audit_for_resume(opts.resume_path);
  if (!audit)
    return std::move(audit.error());
  run.audit_fd = audit->fd;
  run.audit_path = opts.resume_path;
  auto cfg = parse_config(audit->point.config_json,
                          opts.resume_path + " (manifest config)");
  run.resume = std::make_shared<const resume_point>(std::move(audit->point));
  if (!cfg)
    return std::move(cfg.error());
  // The manifest names each template by its absolute path and SHA-256: a
  // file edited since is refused.
  if (auto err = attach_prompts(*cfg))
    return err;
  return std::move(*cfg);
}

// What the run reads: its outputs must be none of them (tools/output_file).
std::vector<kept_file> run_inputs(const run_options& opts,
                                  const run_config& cfg, std::FILE* pairs) {
  std::vector<kept_file> in{{"the pairs file",
                             opts.pairs_path == "-" ? "" : opts.pairs_path,
                             pairs ? ::fileno(pairs) : -1}};
  if (!opts.config_path.empty())
    in.push_back({"the configuration", opts.config_path});
  if (!cfg.calibration.empty())
    in.push_back({"the calibration map", cfg.calibration});
  return in;
}

// --host and --tls-* over the configuration's hosts, each address and TLS
// file checked.
int add_hosts(const run_options& opts, run_config& cfg) {
  for (auto& h : opts.hosts)
    if (std::find(cfg.hosts.begin(), cfg.hosts.end(), h) == cfg.hosts.end())
      cfg.hosts.push_back(h);
  for (auto& h : cfg.hosts)
    if (auto a = parse_host_address(h, false); !a) {
      say("--host: " + context_of(a.error()));
      return exit_code::bad_input;
    }
  auto& c = cfg.connection;
  if (!opts.tls_cert.empty() || !opts.tls_key.empty() || !opts.tls_ca.empty()) {
    c.tls_cert = opts.tls_cert;
    c.tls_key = opts.tls_key;
    c.tls_ca = opts.tls_ca;
  }
  if (auto err = check_tls_files(c)) {
    say(context_of(err));
    return exit_code::bad_config;
  }
  return exit_code::ok;
}

// The configuration: --config (or the embedded default, or the resumed
// run's), --judge over it, --host, and every local judge's adapter built.
int prepare_config(const run_options& opts, prepared_run& run) {
  auto cfg = opts.resume_path.empty()
               ? command_config(opts.config_path, opts.judge)
               : resume_config(opts, run);
  if (cfg && !opts.resume_path.empty() && opts.judge)
    if (auto err = override_judge(*cfg, *opts.judge))
      cfg = std::move(err);
  if (!cfg) {
    say(context_of(cfg.error()));
    return exit_code::bad_config;
  }
  if (!opts.cache_path.empty())
    cfg->cache.path = opts.cache_path;
  if (auto code = add_hosts(opts, *cfg); code != exit_code::ok)
    return code;
  if (auto err = attach_calibration(*cfg)) {
    say(context_of(err));
    return exit_code::bad_config;
  }
  // With judge hosts, the hosts serve the configured judges (their keys stay
  // there) unless local_judges asks for local workers too.
  if (!cfg->hosts.empty() && !cfg->connection.local_judges) {
    run.config = std::move(*cfg);
    return exit_code::ok;
  }
  auto judges = bind_judges(*cfg, run.batches.journal);
  if (!judges) {
    say(context_of(judges.error()));
    return exit_code::bad_config;
  }
  run.batches.take(*judges);
  if (!cfg->cache.path.empty()) {
    if (auto err = refuse_input_as_output(
          opts.cache_path.empty() ? "cache.path" : "--cache", cfg->cache.path,
          run_inputs(opts, *cfg, nullptr))) {
      say(context_of(err));
      return exit_code::bad_input;
    }
    auto cache = response_cache::open(cfg->cache.path, cfg->cache.ttl,
                                      cfg->cache.max_bytes);
    if (!cache) {
      say(context_of(cache.error()));
      return exit_code::bad_config;
    }
    for (auto& j : *judges)
      j.adapter = with_cache(std::move(j.adapter), *cache);
  }
  run.config = std::move(*cfg);
  run.judges = std::move(*judges);
  return exit_code::ok;
}

// --strict: every line must be good before anything is judged, so the input
// is read twice; one that cannot be (standard input, a pipe) is refused.
int check_strict(const run_options& opts, input_source& input,
                 prepared_run& run) {
  if (opts.pairs_path == "-") {
    say("--strict needs a file (it reads the input twice), not standard "
        "input");
    return exit_code::bad_input;
  }
  if (!input.rereadable()) {
    say("--strict needs a regular file (it reads the input twice): "
        + input.name()
        + " is a pipe, FIFO, terminal or device, which cannot be read twice");
    return exit_code::bad_input;
  }
  auto checked = check_every_line(input.stream(), input.name(), stderr);
  if (checked.interrupted) {
    say("interrupted while validating; nothing was judged");
    return exit_code::incomplete;
  }
  if (checked.bad > 0) {
    say(input.name() + ": " + std::to_string(checked.bad)
        + " bad line(s); nothing was judged (--strict), no audit was written");
    return exit_code::bad_input;
  }
  run.total = checked.pairs;
  if (auto err = input.rewind()) {
    say(context_of(err));
    return exit_code::bad_input;
  }
  return exit_code::ok;
}

// --out (never an input, the audit or the cache; an existing file only with
// --force), then the audit (never an input): --audit, else the
// configuration's, else a fresh name created exclusively here.
int prepare_destinations(const run_options& opts, prepared_run& run) {
  if (run.audit_path.empty()) // --resume sets it
    run.audit_path =
      !opts.audit_path.empty() ? opts.audit_path : run.config.audit_path;
  auto inputs = run_inputs(opts, run.config, run.input.stream());
  if (!run.resume)
    if (auto err = refuse_input_as_output(opts.audit_path.empty() ? "audit.path"
                                                                  : "--audit",
                                          run.audit_path, inputs)) {
      say(context_of(err));
      return exit_code::bad_input;
    }
  inputs.push_back({"the audit file", run.audit_path});
  if (!run.config.cache.path.empty())
    inputs.push_back({"the response cache", run.config.cache.path});
  if (opts.out_path.empty()) {
    if (auto err = refuse_input_as_stdout(inputs)) {
      say(context_of(err));
      return exit_code::bad_input;
    }
  } else {
    auto out = claim_output("--out", opts.out_path, opts.force, inputs);
    std::FILE* stream = out ? out->stream() : nullptr;
    if (!out || !stream) {
      say(out ? out->name() + ": cannot write: " + std::strerror(errno)
              : context_of(out.error()));
      return exit_code::bad_input;
    }
    run.out_file = std::move(*out);
    run.out = stream;
  }
  if (run.audit_path.empty()) {
    auto name = create_fresh_audit_file(default_audit_stem(std::time(nullptr)));
    if (!name) {
      say(context_of(name.error()));
      return exit_code::bad_config;
    }
    run.audit_path = *name;
  }
  return exit_code::ok;
}

// The hosts on the progress line: "  hosts 2/3 up: 127.0.0.1:7001 812
// votes 0 faults, ..." (nothing when every worker is local).
std::string hosts_status(const std::vector<worker_load>& workers) {
  struct line {
    bool up = false;
    std::uint64_t served = 0, faults = 0;
  };
  std::vector<std::pair<std::string, line>> hosts;
  for (auto& w : workers) {
    if (w.host == "local" || w.host.empty())
      continue;
    auto i = std::find_if(hosts.begin(), hosts.end(),
                          [&](auto& h) { return h.first == w.host; });
    if (i == hosts.end())
      i = hosts.insert(hosts.end(), {w.host, line{}});
    i->second.up = i->second.up || w.connected;
    i->second.served += w.served;
    i->second.faults += w.faults;
  }
  if (hosts.empty())
    return {};
  auto up = std::count_if(hosts.begin(), hosts.end(),
                          [](auto& h) { return h.second.up; });
  std::string out = "  hosts " + std::to_string(up) + "/"
                    + std::to_string(hosts.size()) + " up:";
  for (auto& [name, h] : hosts)
    out += " " + name + (h.up ? "" : " (down)") + " " + std::to_string(h.served)
           + " votes " + std::to_string(h.faults) + " faults;";
  out.pop_back();
  return out;
}

/// What the driver shows while a run goes: verdict lines, the progress line,
/// warnings, and the counts for the summary; it also keeps the fault budget.
struct run_view {
  output_sink sink;
  run_report report;
  fault_budget faults;
  pair_source& source;
  std::optional<progress_bar> bar;
  std::string caps; // the workers' current capacities, for the progress line
  bool stopped_for_faults = false;

  run_view(std::FILE* out, double max_fault_rate, pair_source& src)
      : sink(out), faults(max_fault_rate), source(src) {}

  std::optional<std::string> stop_reason() {
    if (interrupt_requested())
      return "interrupted (SIGINT or SIGTERM)";
    if (sink.failed())
      return "the verdict output could not be written (closed)";
    // Input remains and the judges mostly fault: stop as on Ctrl-C.
    if (!source.ended() && faults.stop_now()) {
      stopped_for_faults = true;
      return faults.explanation();
    }
    return std::nullopt;
  }

  run_event_handlers handlers() {
    run_event_handlers on;
    on.verdicts = [this](std::vector<single_verdict>& vs) {
      for (auto& v : vs) {
        faults.add(v.rule);
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
    on.canaries = [this](std::vector<canary_result>& cs) {
      for (auto& c : cs)
        sink.write(canary_line(c));
    };
    on.progress = [this](const run_progress& p) {
      caps.clear();
      for (auto& w : p.workers)
        if (w.capacity < w.configured)
          caps += "  " + w.name + " cap " + std::to_string(w.capacity) + "/"
                  + std::to_string(w.configured);
      caps += hosts_status(p.workers);
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
    on.stop_reason = [this] { return stop_reason(); };
    return on;
  }
};

// The keys of the configured judges, as the environment holds them: the
// adapters keep them out of every record already; a line on the terminal
// is redacted once more, whatever a backend echoed.
std::vector<std::string> judge_keys(const run_config& cfg) {
  std::vector<std::string> keys;
  for (auto& j : cfg.judges)
    if (!j.api_key_env.empty())
      if (auto* v = std::getenv(j.api_key_env.c_str()); v && *v)
        keys.emplace_back(v);
  return keys;
}

std::string redact_keys(std::string text,
                        const std::vector<std::string>& keys) {
  for (auto& k : keys)
    text = redact(std::move(text), k);
  return text;
}

// The end of a run in words and an exit code: 4 when it did not complete,
// 2 when the input could not be read to its end, else 0.
int conclude(const run_outcome& out, run_view& view, const run_options& opts,
             const std::string& audit_path,
             const std::vector<std::string>& keys) {
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
  // Why the calls failed: the first words per judge and fault kind.
  for (auto& r : s.fault_reasons)
    say(redact_keys(fault_reason_line(r), keys));
  if (view.sink.failed())
    say("writing the verdicts failed: "
        + (opts.out_path.empty() ? std::string{"standard output"}
                                 : opts.out_path));
  if (view.source.read_failed())
    say(context_of(view.source.read_error()));
  if (s.stopped_by_alarm) {
    say("the bias alarm stopped the run (canaries on_alarm stop-run): "
        + s.stop_reason);
    return exit_code::bias_alarm;
  }
  if (view.faults.exceeded())
    say(view.faults.explanation() + ": "
        + (view.stopped_for_faults
             ? "the run was stopped before the end of its input (a judge down "
               "or misconfigured?)"
             : "the run failed"));
  if (s.interrupted || view.sink.failed() || !out.failures.empty()
      || view.faults.exceeded())
    return exit_code::incomplete;
  if (view.source.read_failed())
    return exit_code::bad_input;
  return exit_code::ok;
}

// A connector per judge host; waits until each has made its first attempt
// (bounded by its timeouts) and says which hosts cannot be used: the run
// starts with those that can, the others are retried in the background.
std::vector<host_connector_actor>
connect_hosts(caf::actor_system& sys, caf::scoped_actor& self,
              const judge_directory_actor& directory, const run_config& cfg) {
  std::vector<host_connector_actor> out;
  if (cfg.hosts.empty())
    return out;
  auto own = describe_host("local");
  own.message_types = registered_message_types(sys.config());
  auto mm = connection_manager(sys, cfg.connection.tls());
  for (auto& h : cfg.hosts)
    out.push_back(
      sys.spawn(host_connector, h, cfg.connection, directory, mm, own));
  // Connect, hello, list and join each take connect_timeout at most.
  auto bound = 4 * cfg.connection.connect_timeout + std::chrono::seconds(1);
  for (auto& c : out)
    self->request(c, bound, ready_atom::value)
      .receive(
        [&](host_event& e) {
          if (e.kind == host_event_kind::connected)
            say(e.detail);
          else
            say("warning: " + e.detail + "; retrying in the background");
        },
        [&](caf::error& err) {
          say("warning: a host connector did not answer: " + render_error(err));
        });
  return out;
}

// The first configured judge no worker serves ("" when all are served), so
// that a run whose hosts all failed stops before anything is written; it
// names what each connected host serves and the field that differs. A host
// that serves none of the run's judges while others do is warned about:
// connected, but its workers are not used.
std::string unserved_judge(caf::scoped_actor& self,
                           const judge_directory_actor& directory,
                           const run_config& cfg) {
  std::vector<judge_info> served;
  self->request(directory, std::chrono::seconds(30), list_atom::value)
    .receive(
      [&](std::vector<worker_entry>& xs) {
        for (auto& e : xs)
          served.push_back(std::move(e.info));
      },
      [](caf::error&) {});
  if (auto err = check_served(cfg.judges, served))
    return context_of(err);
  for (auto& w : unused_host_warnings(cfg.judges, served))
    say("warning: " + w);
  return {};
}

// Whether the run shows a progress bar (stderr a terminal).
bool shows_progress(const run_options& opts) {
  return opts.progress && ::isatty(STDERR_FILENO) == 1;
}

// The session's setup: the checked configuration, the audit (and its
// descriptor, opened by prepare_destinations), the run's id, and its
// batched judges' journal with the open batches a resumed audit recorded.
run_setup session_setup(const run_options& opts, prepared_run& run,
                        const judge_directory_actor& directory,
                        caf::scoped_actor& self) {
  run_setup setup;
  setup.config = run.config;
  setup.audit_path = run.audit_path;
  setup.directory = directory;
  setup.listener = as_listener(self);
  setup.window = opts.window;
  setup.resume = run.resume;
  setup.audit_fd = std::exchange(run.audit_fd, -1);
  // Known here: the run's tag names its batches (and cancels them).
  setup.run_id = run.resume ? run.resume->run_id : make_run_id();
  if (run.batches.any()) {
    setup.batch_journal = run.batches.journal;
    // Before the session starts: what the audit recorded is polled, never
    // submitted again.
    if (run.resume)
      if (auto n = run.batches.adopt(*run.resume))
        say("adopting " + std::to_string(n) + " open batch(es) from the audit");
  }
  if (shows_progress(opts))
    setup.progress_interval = std::chrono::milliseconds(250);
  return setup;
}

// What the run starts from, in words: the audit, and what a resume kept.
void say_start(const prepared_run& run) {
  if (run.resume)
    say("resuming " + run.resume->run_id + " from " + run.audit_path + ": "
        + std::to_string(run.resume->pairs.size())
        + " pair(s) already decided are not judged again"
        + (run.resume->cut_bytes > 0
             ? "; " + std::to_string(run.resume->cut_bytes)
                 + " byte(s) after the last committed record were cut"
             : std::string{}));
  say("audit: " + run.audit_path);
}

// Feeds the pairs to the session and shows its events (verdicts out, the
// progress bar, the summary) until it ends; `tag` names the run's batches.
int follow_run(caf::scoped_actor& self, const run_actor& session,
               const run_options& opts, prepared_run& run,
               const std::string& tag) {
  // Batches no larger than half the window, so that a small window bounds
  // what is in flight (two batches may wait for the session's answer).
  std::size_t batch =
    opts.window == 0
      ? pair_source::batch_pairs
      : std::max<std::size_t>(
        1, std::min<std::size_t>(pair_source::batch_pairs, opts.window / 2));
  pair_source source{run.input.stream(), run.input.name(), batch};
  run_view view{run.out, run.config.max_fault_rate, source};
  if (shows_progress(opts)) {
    view.bar.emplace(stderr, run.total ? run.total : run.input.count_pairs());
    view.bar->set_status([&view, &run] {
      auto b = run.batches.progress();
      return b.empty() ? view.caps : view.caps + " " + b;
    });
    source.on_echo([&view] { view.bar->clear(); });
  }
  auto on = view.handlers();
  on.stop_reason = [&view] { return view.stop_reason(); };
  // Whatever stops the run (Ctrl-C, a closed output, too many faults)
  // cancels its batches at the provider, bounded in time, once the session
  // knows: the votes they held end as the cancelled run's, not as verdicts.
  on.cancelled = [&run, tag] {
    run.batches.cancel(tag, std::chrono::seconds(10));
  };
  auto outcome = drive_run(
    self, session, [&source](input_batch& b) { return source.next(b); }, on);
  return conclude(outcome, view, opts, run.audit_path, judge_keys(run.config));
}

// The actors: a directory, a worker per judge, the host connectors, the run
// session; then the input is fed until the run ends.
int run_pairs(const run_options& opts, prepared_run& run) {
  caf::actor_system_config sys_cfg;
  configure_actor_system(sys_cfg);
  if (!run.config.hosts.empty())
    configure_remoting(sys_cfg, run.config.connection);
  caf::actor_system sys{sys_cfg};
  auto directory = spawn_judge_directory(sys);
  // The directory holds the workers, the connectors the hosts: ending them
  // on every way out lets the actor system shut down at once.
  struct end_on_return {
    judge_directory_actor directory;
    std::vector<host_connector_actor> connectors;
    ~end_on_return() {
      caf::anon_send_exit(directory, caf::exit_reason::user_shutdown);
      for (auto& c : connectors)
        caf::anon_send_exit(c, caf::exit_reason::user_shutdown);
    }
  } guard{directory, {}};
  auto workers = start_local_workers(sys, directory, std::move(run.judges));
  if (!workers) {
    say("cannot start the judges: " + render_error(workers.error()));
    return exit_code::bad_config;
  }
  caf::scoped_actor self{sys};
  guard.connectors = connect_hosts(sys, self, directory, run.config);
  if (auto missing = unserved_judge(self, directory, run.config);
      !missing.empty()) {
    say(missing + "; nothing was judged");
    return exit_code::bad_config;
  }
  auto setup = session_setup(opts, run, directory, self);
  auto tag = run_tag_of(setup.run_id);
  auto session = spawn_run(sys, std::move(setup));
  if (!session) {
    say("cannot start the run: " + render_error(session.error()));
    return exit_code::bad_config;
  }
  say_start(run);
  return follow_run(self, *session, opts, run, tag);
}

} // namespace

int run_command(const run_options& opts) {
  // Everything is checked before any file is written or actor spawned.
  prepared_run run;
  if (auto code = prepare_config(opts, run); code != exit_code::ok)
    return code;
  if (auto err = run.input.open(opts.pairs_path)) {
    say(context_of(err));
    return exit_code::bad_input;
  }
  if (opts.strict)
    if (auto code = check_strict(opts, run.input, run); code != exit_code::ok)
      return code;
  if (auto code = prepare_destinations(opts, run); code != exit_code::ok)
    return code;
  return run_pairs(opts, run);
}

} // namespace ij
