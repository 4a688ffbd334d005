#include "tools/run_command.hpp"

#include <chrono>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include <sys/stat.h>
#include <unistd.h>

#include <caf/actor_system.hpp>
#include <caf/actor_system_config.hpp>
#include <caf/scoped_actor.hpp>

#include "actors/audit_file.hpp"
#include "actors/pipeline_settings.hpp"
#include "messages/error.hpp"
#include "messages/registration.hpp"
#include "tools/config_file.hpp"
#include "adapters/adapter_factory.hpp"
#include "core/fault_budget.hpp"
#include "tools/exit_codes.hpp"
#include "tools/input_source.hpp"
#include "tools/interrupt.hpp"
#include "tools/output_file.hpp"
#include "tools/pair_reader.hpp"
#include "tools/progress_bar.hpp"
#include "tools/run_report.hpp"
#include "tools/strict_check.hpp"
#include "tools/verdict_output.hpp"

namespace ij {

namespace {

using clock_type = std::chrono::steady_clock;

/// Rejections echoed on stderr; beyond this they are only in the audit.
constexpr std::uint64_t max_rejections_shown = 100;

struct file_closer {
  void operator()(std::FILE* f) const {
    if (f)
      std::fclose(f);
  }
};
using file_ptr = std::unique_ptr<std::FILE, file_closer>;

std::uint32_t automatic_window(const run_config& cfg) {
  std::uint64_t cap = 0;
  for (auto& j : cfg.judges)
    cap += j.max_in_flight;
  // Enough pairs to keep every judge slot busy while replies are written,
  // few enough to keep memory small.
  auto w = std::max<std::uint64_t>(64, 2 * cap);
  return static_cast<std::uint32_t>(std::min<std::uint64_t>(w, 4096));
}

/// The output of verdict lines: standard output or a file, flushed at most
/// every 200 ms (and at the end), so that a follower sees progress.
class line_sink {
public:
  explicit line_sink(std::FILE* out) : out_(out) {
  }

  void write(const std::string& line) {
    if (failed_)
      return;
    if (std::fwrite(line.data(), 1, line.size(), out_) != line.size()
        || std::fputc('\n', out_) == EOF)
      failed_ = true;
  }

  void maybe_flush(clock_type::time_point now) {
    if (now - last_flush_ >= std::chrono::milliseconds(200)) {
      flush();
      last_flush_ = now;
    }
  }

  void flush() {
    if (!failed_ && std::fflush(out_) != 0)
      failed_ = true;
  }

  bool failed() const {
    return failed_;
  }

private:
  std::FILE* out_;
  bool failed_ = false;
  clock_type::time_point last_flush_ = clock_type::now();
};

} // namespace

int run_command(const run_options& opts) {
  // 1. Configuration: everything is checked before any file is written.
  std::string error;
  std::optional<run_config> cfg;
  if (opts.config_path.empty())
    cfg = default_config();
  else
    cfg = load_config(opts.config_path, error);
  if (cfg && opts.judge && !override_judge(*cfg, *opts.judge, error))
    cfg.reset();
  if (!cfg) {
    std::fprintf(stderr, "invjudge: %s\n", error.c_str());
    return exit_code::bad_config;
  }
  auto judges = bind_judges(*cfg, error);
  if (!judges) {
    std::fprintf(stderr, "invjudge: %s\n", error.c_str());
    return exit_code::bad_config;
  }
  // Wasteful but valid settings (votes at temperature 0 without seed
  // support) are warned about by spawn_pipeline, which also records them.

  // 2. Input: must be readable; under --strict every line must be good.
  input_source source;
  if (!source.open(opts.pairs_path, error)) {
    std::fprintf(stderr, "invjudge: %s\n", error.c_str());
    return exit_code::bad_input;
  }
  std::FILE* in = source.stream();
  const std::string& input_name = source.name();
  std::optional<std::uint64_t> total;
  if (opts.strict) {
    if (opts.pairs_path == "-") {
      std::fprintf(stderr, "invjudge: --strict needs a file (it reads the "
                           "input twice), not standard input\n");
      return exit_code::bad_input;
    }
    if (!source.rereadable()) {
      std::fprintf(stderr, "invjudge: --strict needs a regular file (it reads "
                           "the input twice): %s is a pipe, FIFO, terminal "
                           "or device, which cannot be read twice\n",
                   input_name.c_str());
      return exit_code::bad_input;
    }
    auto checked = check_every_line(in, input_name, stderr);
    if (checked.interrupted) {
      std::fprintf(stderr, "invjudge: interrupted while validating; "
                           "nothing was judged\n");
      return exit_code::incomplete;
    }
    if (checked.bad > 0) {
      std::fprintf(stderr,
                   "invjudge: %s: %llu bad line(s); nothing was judged "
                   "(--strict), no audit was written\n",
                   input_name.c_str(),
                   static_cast<unsigned long long>(checked.bad));
      return exit_code::bad_input;
    }
    total = checked.pairs;
    if (!source.rewind(error)) {
      std::fprintf(stderr, "invjudge: %s\n", error.c_str());
      return exit_code::bad_input;
    }
  }

  // 3. Output and audit destinations.
  std::string audit_path = !opts.audit_path.empty() ? opts.audit_path
                                                    : cfg->audit_path;
  file_ptr out_owner;
  std::FILE* out = stdout;
  if (!opts.out_path.empty()) {
    out_owner.reset(open_output_file(
      opts.out_path, opts.force,
      {{"the pairs file", {}, ::fileno(in)}, {"the audit file", audit_path, -1}},
      error));
    if (!out_owner) {
      std::fprintf(stderr, "invjudge: %s\n", error.c_str());
      return exit_code::bad_input;
    }
    out = out_owner.get();
  }
  // The default name is created here, exclusively: runs started in the same
  // second get their own files. spawn_pipeline takes and locks it.
  if (audit_path.empty()) {
    auto name = create_fresh_audit_file(default_audit_stem(std::time(nullptr)),
                                        error);
    if (!name) {
      std::fprintf(stderr, "invjudge: %s\n", error.c_str());
      return exit_code::bad_config;
    }
    audit_path = *name;
  }
  bool show_progress = opts.progress && ::isatty(STDERR_FILENO) == 1;
  if (show_progress && !total)
    total = source.count_pairs();

  // 4. The pipeline, with this thread's scoped actor as the listener of
  // statistical verdicts.
  caf::actor_system_config sys_cfg;
  add_message_types(sys_cfg);
  caf::actor_system sys{sys_cfg};
  caf::scoped_actor self{sys};
  pipeline_settings settings;
  // The adaptive in-flight caps, shown on the progress line (HTTP judges
  // lower theirs under 429/529); the adapters outlive the bar.
  struct capped_judge {
    std::string name;
    judge_adapter_ptr adapter;
    std::uint32_t configured;
  };
  std::vector<capped_judge> capped;
  for (auto& j : *judges)
    capped.push_back({j.spec.name.empty() ? j.spec.model : j.spec.name,
                      j.adapter, j.spec.max_in_flight});
  settings.judges = std::move(*judges);
  settings.votes = cfg->votes;
  settings.order_balancing = cfg->order_balancing;
  settings.abstain_as_neither = cfg->abstain_as_neither;
  settings.vote_deadline = cfg->vote_deadline;
  settings.stats = cfg->stats;
  settings.audit_path = audit_path;
  settings.flush = cfg->flush;
  settings.config_source = cfg->source;
  settings.config_json = to_json(*cfg);
  settings.listener = caf::actor_cast<caf::actor>(self);
  auto spawned = spawn_pipeline(sys, std::move(settings));
  if (!spawned) {
    std::fprintf(stderr, "invjudge: cannot start the pipeline (audit %s): %s\n",
                 audit_path.c_str(), render_error(spawned.error()).c_str());
    return exit_code::bad_config;
  }
  auto pipeline = *spawned;
  self->monitor(pipeline);
  std::fprintf(stderr, "invjudge: audit: %s\n", audit_path.c_str());
  bool started = false;
  self->request(pipeline, caf::infinite, start_atom::value)
    .receive([&](std::uint64_t) { started = true; },
             [&](caf::error& e) { error = render_error(e); });
  if (!started) {
    std::fprintf(stderr, "invjudge: the run manifest could not be written: %s\n",
                 error.c_str());
    self->send_exit(pipeline, caf::exit_reason::user_shutdown);
    return exit_code::incomplete;
  }

  // 5. The streaming loop: keep up to `window` requests in flight, write each
  // verdict line as it arrives. Replies to plain sends come back as plain
  // messages, so one receive serves pairs, rejections and item verdicts.
  pair_reader reader{in, input_name};
  line_sink sink{out};
  run_report report;
  std::optional<progress_bar> bar;
  if (show_progress) {
    bar.emplace(stderr, total);
    bar->set_status([&capped] {
      std::string text;
      for (auto& j : capped)
        if (auto cap = j.adapter->current_concurrency(); cap > 0)
          text += "  " + j.name + " cap " + std::to_string(cap) + "/"
                  + std::to_string(j.configured);
      return text;
    });
  }
  const std::uint32_t window = opts.window ? opts.window : automatic_window(*cfg);
  std::unordered_map<std::string, std::optional<bool>> labels; // in flight
  std::unordered_map<std::string, std::uint32_t> item_pairs;
  std::uint64_t in_flight = 0;  // pairs and rejections awaiting a reply
  std::uint64_t rejected = 0;
  std::uint64_t reply_errors = 0;
  bool eof = false;
  bool pipeline_down = false;
  std::string down_reason;
  bool interrupted = false;

  fault_budget faults{cfg->max_fault_rate};
  bool stopped_for_faults = false;
  auto on_verdict = [&](single_verdict& v) {
    faults.add(v.rule);
    --in_flight;
    std::optional<bool> label;
    if (auto it = labels.find(v.pair_id); it != labels.end()) {
      label = it->second;
      labels.erase(it);
    }
    report.add(v, label);
    sink.write(pair_verdict_line(v, label));
  };
  auto on_item = [&](statistical_verdict& v) {
    report.add(v);
    sink.write(item_verdict_line(v));
  };
  auto on_down = [&](caf::down_msg& dm) {
    if (dm.source == pipeline.address()) {
      pipeline_down = true;
      down_reason = render_error(dm.reason);
    }
  };
  auto tick = [&] {
    auto now = clock_type::now();
    sink.maybe_flush(now);
    if (bar)
      bar->update(report.pairs(), report.faults());
    if (sink.failed())
      request_interrupt(); // e.g. `invjudge run ... | head`: stop cleanly
  };

  while (!pipeline_down) {
    if (interrupt_requested()) {
      interrupted = true;
      break;
    }
    // Input remains and the judge mostly faults: stop as on Ctrl-C.
    if (!eof && faults.stop_now()) {
      stopped_for_faults = true;
      interrupted = true;
      break;
    }
    while (!eof && in_flight < window && !interrupt_requested()) {
      pair_line line;
      if (!reader.next(line)) {
        eof = true;
        break;
      }
      ++in_flight;
      if (line.what == pair_line::kind::rejected) {
        if (++rejected <= max_rejections_shown) {
          if (bar)
            bar->clear();
          std::fprintf(stderr, "%s:%llu: rejected: %s\n", input_name.c_str(),
                       static_cast<unsigned long long>(line.line),
                       line.reason.c_str());
          if (rejected == max_rejections_shown)
            std::fprintf(stderr, "invjudge: further rejections are only "
                                 "recorded in the audit\n");
        }
        self->send(pipeline, rejected_atom::value, input_name, line.line,
                   std::move(line.reason));
        continue;
      }
      ++item_pairs[line.pair.item];
      labels.emplace(line.pair.id, line.pair.label);
      self->send(pipeline, std::move(line.pair));
    }
    if (eof && in_flight == 0)
      break;
    if (in_flight == 0)
      continue;
    self->receive(
      on_verdict, on_item, [&](std::uint64_t) { --in_flight; },
      [&](caf::error& e) {
        // A pair or rejection the pipeline could not take: the run goes on
        // but does not count as complete.
        --in_flight;
        if (++reply_errors <= max_rejections_shown)
          std::fprintf(stderr, "invjudge: the pipeline refused a request: %s\n",
                       render_error(e).c_str());
      },
      on_down, caf::after(std::chrono::milliseconds(100)) >> [] {});
    tick();
  }
  // A read error was audited as a rejected line; the pairs read before it
  // are judged and their items closed, and the run ends as bad input.
  bool read_failed = reader.failed();

  // 6. End of input (or interruption): item totals, then finish. The reply
  // comes after every record is written; item verdicts may still be on
  // their way, so wait for as many as the summary announces.
  run_summary summary;
  bool finished = false;
  if (!pipeline_down) {
    if (!interrupted)
      for (auto& [item, count] : item_pairs)
        self->send(pipeline, item_total_atom::value, item, count);
    item_pairs.clear();
    self->send(pipeline, finish_atom::value, interrupted);
    auto deadline = clock_type::now() + std::chrono::seconds(5);
    while (!pipeline_down) {
      if (finished
          && ((report.pairs() >= summary.pairs && report.items() >= summary.items)
              || clock_type::now() > deadline))
        break;
      self->receive(
        on_verdict, on_item, [&](std::uint64_t) { --in_flight; },
        [&](run_summary& s) {
          summary = std::move(s);
          finished = true;
          deadline = clock_type::now() + std::chrono::seconds(5);
        },
        [&](caf::error& e) {
          // After finish(true) the pairs still being judged are answered
          // with an error: the run-end record lists them as unfinished.
          --in_flight;
          if (!interrupted) {
            ++reply_errors;
            std::fprintf(stderr, "invjudge: %s\n", render_error(e).c_str());
          }
        },
        on_down, caf::after(std::chrono::milliseconds(100)) >> [] {});
      tick();
    }
  }
  sink.flush();
  if (bar)
    bar->clear();
  self->demonitor(pipeline.address());
  self->send_exit(pipeline, caf::exit_reason::user_shutdown);

  if (!finished) {
    std::fprintf(stderr,
                 "invjudge: the pipeline stopped before the run ended (%s); "
                 "the audit %s has no run-end record\n",
                 pipeline_down ? down_reason.c_str() : "no reply to finish",
                 audit_path.c_str());
    return exit_code::incomplete;
  }
  interrupted = interrupted || summary.interrupted;
  std::fputs(report.render(summary, audit_path, interrupted).c_str(), stderr);
  if (sink.failed())
    std::fprintf(stderr, "invjudge: writing the verdicts failed: %s\n",
                 opts.out_path.empty() ? "standard output" : opts.out_path.c_str());
  if (reply_errors > 0)
    std::fprintf(stderr, "invjudge: %llu request(s) failed in the pipeline\n",
                 static_cast<unsigned long long>(reply_errors));
  if (read_failed)
    std::fprintf(stderr, "invjudge: %s: read error after line %llu: %s; the "
                         "pairs before it were judged, the rest was not read\n",
                 input_name.c_str(),
                 static_cast<unsigned long long>(reader.lines()),
                 reader.error().c_str());
  if (faults.exceeded())
    std::fprintf(stderr, "invjudge: %s: %s\n", faults.explanation().c_str(),
                 stopped_for_faults
                   ? "the run was stopped before the end of its input (a "
                     "judge down or misconfigured?)"
                   : "the run failed");
  if (interrupted || sink.failed() || reply_errors > 0 || faults.exceeded())
    return exit_code::incomplete;
  if (read_failed)
    return exit_code::bad_input;
  return exit_code::ok;
}

} // namespace ij
