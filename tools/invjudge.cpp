// invjudge: judges answer pairs for invariance (run), checks a judge against
// negative controls (selftest), and verifies audit trails (audit verify).
#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>

#include <CLI/CLI.hpp>

#include "tools/audit_command.hpp"
#include "tools/cache_command.hpp"
#include "tools/calibrate_command.hpp"
#include "tools/exit_codes.hpp"
#include "tools/gen_pairs.hpp"
#include "tools/heap_arenas.hpp"
#include "tools/host_command.hpp"
#include "tools/interrupt.hpp"
#include "tools/report_command.hpp"
#include "tools/run_command.hpp"
#include "tools/selftest_command.hpp"
#include "tools/serve_command.hpp"
#include "tools/submit_command.hpp"
#include "tools/unknown_subcommand.hpp"

#ifndef IJ_VERSION
#error "IJ_VERSION (the CMake project version) must be defined"
#endif

namespace {

constexpr const char* exit_codes_text = R"(Exit codes:
  0  completed (run); chain intact and run complete (audit verify); all
     controls as predicted (selftest)
  1  audit verify: a line was edited (named), the run end disagrees with
     the records, or the final hash is not --expect-hash; selftest: a
     control missed; report: the audit does not verify, or does not end
     at --expect-hash (without --allow-unverified); calibrate: an audit
     does not verify
  2  bad input: pairs file missing or unreadable, a read error in it, a bad
     line with --strict, --strict on an input that cannot be read twice,
     an output (--out, --html, --audit) naming an input of the command by
     any name, or an existing file with content (without --force), or a
     bad command line; audit verify, report: the file
     cannot be read (report: or the page cannot be written); calibrate:
     too few labelled pairs for a judge (named, with the count), no map
     written
  3  bad configuration: schema or semantic error (file and JSON pointer
     named), a judge that cannot be built, an audit file that cannot be
     created, holds records or is in use by another run; a calibration map
     that is empty, edited, not monotone, lacks a run's judge, was fitted
     on another confidence than its judge gives, or (--resume) is not the
     manifest's; submit: the daemon refused the configuration or the
     token; nothing was judged
  4  incomplete: the run was interrupted (Ctrl-C, SIGTERM, output closed),
     failed, or its fault rate is above max_fault_rate; audit verify:
     intact, but the run did not finish or was interrupted
  5  the bias alarm stopped the run: a judge failed its live canaries and
     the configuration says "on_alarm": "stop-run" (the audit has the
     evidence))";

/// Every option the subcommands read, filled in by CLI11.
struct command_line {
  CLI::App* run_cmd = nullptr;
  ij::run_options run;
  std::string run_judge;
  CLI::Option* run_judge_opt = nullptr;
  bool no_progress = false;

  CLI::App* selftest_cmd = nullptr;
  std::string selftest_config, selftest_judge;
  CLI::Option* selftest_judge_opt = nullptr;

  CLI::App* verify_cmd = nullptr;
  std::string audit_path, expect_hash;

  CLI::App* serve_cmd = nullptr;
  ij::serve_options serve;
  CLI::App* submit_cmd = nullptr;
  ij::submit_options submit;

  CLI::App* cache_cmd = nullptr;
  std::string cache_action, cache_path;

  CLI::App* host_cmd = nullptr;
  ij::host_options host;
  std::string host_judge;
  CLI::Option* host_judge_opt = nullptr;
  CLI::App* calibrate_cmd = nullptr;
  ij::calibrate_options calibrate;
  CLI::App* report_cmd = nullptr;
  std::string report_audit, report_html, report_expect_hash;
  bool allow_unverified = false;
  bool report_force = false;

  CLI::App* gen_cmd = nullptr;
  std::uint64_t gen_n = 0;
  std::uint32_t gen_per_item = 10;
  std::string gen_out;
  bool gen_force = false;
};

void add_tls_options(CLI::App* cmd, std::string& cert, std::string& key,
                     std::string& ca) {
  cmd->add_option("--tls-cert", cert,
                  "Mutual TLS with judge hosts: this side's certificate (PEM, "
                  "signed by --tls-ca; scripts/make-certs makes them)");
  cmd->add_option("--tls-key", key, "This side's private key (PEM)");
  cmd->add_option("--tls-ca", ca,
                  "The CA certificate every peer's certificate must be "
                  "signed by");
}

// `--config PATH` or `--judge NAME`, not both (host, selftest): the judge
// option is returned, to tell a given name from the default.
CLI::Option* add_config_or_judge(CLI::App* cmd, std::string& config_path,
                                 std::string& judge, const char* config_help) {
  auto config = cmd->add_option("--config", config_path, config_help);
  return cmd
    ->add_option("--judge", judge,
                 "Judge by short name (default: the embedded default)")
    ->excludes(config);
}

void add_run(CLI::App& app, command_line& c) {
  auto cmd = c.run_cmd = app.add_subcommand(
    "run", "Judge the pairs of a JSON Lines file; verdicts go to stdout (or "
           "--out), one JSON object per line");
  auto& run = c.run;
  cmd
    ->add_option("--pairs", run.pairs_path,
                 "Pairs, one JSON object per line: {\"id\", \"item\"?, "
                 "\"a\", \"b\", \"label\"?, \"transform\"?}; - for stdin")
    ->required();
  cmd->add_option("--config", run.config_path,
                  "Configuration (JSON, see configs/README.md); default: the "
                  "embedded configs/default.json (rules:math, 1 vote)");
  c.run_judge_opt = cmd->add_option(
    "--judge", c.run_judge,
    "Judge by short name, replacing the configured ones: rules:math, "
    "stub:numeric, ollama:MODEL, anthropic:MODEL, openai:MODEL@URL");
  cmd->add_option("--out", run.out_path,
                  "Write verdict lines here instead of stdout; never the pairs "
                  "or audit file, and an existing file with content only with "
                  "--force");
  cmd->add_flag("--force", run.force,
                "Replace an existing --out file that has content");
  cmd->add_option("--audit", run.audit_path,
                  "Audit trail file, created (or taken empty) and locked for "
                  "the run; default: audit.path of the configuration, else a "
                  "new invjudge-audit-<UTC time>[-N].jsonl here");
  auto resume = cmd->add_option(
    "--resume", run.resume_path,
    "Continue the run of this audit file (interrupted or killed): its "
    "configuration, the same pairs file; pairs it decided are not judged "
    "again, records are appended to its chain");
  resume->excludes(c.run_judge_opt);
  resume->excludes(cmd->get_option("--config"));
  resume->excludes(cmd->get_option("--audit"));
  cmd->add_option("--cache", run.cache_path,
                  "Response cache (SQLite file, created if absent): a judge "
                  "call whose whole key matches a stored reply is not made "
                  "again; overrides the configuration's cache.path");
  cmd->add_flag("--strict", run.strict,
                "Check every line first (a regular file: it is read twice); "
                "every bad line is listed and any stops the run before any "
                "judge call (exit 2)");
  cmd->add_flag("--no-progress", c.no_progress,
                "No progress line (it is only ever shown on a terminal)");
  cmd->add_option("--host", run.hosts,
                  "A judge host (invjudge host) to vote with, ADDR:PORT; "
                  "repeat for several. The hosts serve the configured judges "
                  "(host_connection.local_judges: local workers too)");
  add_tls_options(cmd, run.tls_cert, run.tls_key, run.tls_ca);
  cmd
    ->add_option("--window", run.window,
                 "Pairs taken in and not yet written at most (default: from "
                 "the judges' in-flight caps, 256..8192, or two batches of "
                 "a batched judge)")
    ->check(CLI::Range(1u, 1u << 20));
  cmd->footer(exit_codes_text);
}

// `invjudge host`: serve this machine's judges to coordinators.
void add_host(CLI::App& app, command_line& c) {
  auto cmd = c.host_cmd = app.add_subcommand(
    "host", "Serve judges to coordinators on other machines (invjudge run "
            "--host ADDR:PORT); prints 'listening on ADDR:PORT' when ready, "
            "serves until SIGTERM or SIGINT");
  auto& h = c.host;
  cmd
    ->add_option("--listen", h.listen,
                 "ADDR:PORT to listen on (:0 picks a free port); an address "
                 "other than loopback needs TLS or --insecure")
    ->required();
  c.host_judge_opt = add_config_or_judge(
    cmd, h.config_path, c.host_judge,
    "Configuration whose judges to serve (its host_connection too)");
  add_tls_options(cmd, h.tls_cert, h.tls_key, h.tls_ca);
  cmd->add_flag("--insecure", h.insecure,
                "Allow a non-loopback address without TLS (warned about)");
  // Hidden test hook: behave like a host built with another prompt.
  cmd->add_option("--announce-prompt-id", h.announce_prompt_id)->group("");
  cmd->footer(exit_codes_text);
}

void add_selftest(CLI::App& app, command_line& c) {
  auto cmd = c.selftest_cmd = app.add_subcommand(
    "selftest", "Send the negative controls (identity, mismatch, abstain, "
                "master keys) to the judge and report counts per kind; exit 1 "
                "on any miss");
  c.selftest_judge_opt =
    add_config_or_judge(cmd, c.selftest_config, c.selftest_judge,
                        "Configuration whose judges to test");
}

void add_audit(CLI::App& app, command_line& c) {
  auto audit = app.add_subcommand("audit", "Audit trail tools");
  audit->require_subcommand(1);
  auto cmd = c.verify_cmd = audit->add_subcommand(
    "verify", "Check the hash chain and that the run-end record agrees with "
              "the records; print the final hash: ok (0), edited line named "
              "(1), did not finish or interrupted (4), unreadable (2)");
  cmd->add_option("AUDIT", c.audit_path, "The audit file (JSON Lines)")
    ->required();
  cmd->add_option("--expect-hash", c.expect_hash,
                  "The final hash printed when the run ended (kept "
                  "elsewhere): exit 1 unless the file still ends there");
}

void add_serve(CLI::App& app, command_line& c) {
  auto cmd = c.serve_cmd = app.add_subcommand(
    "serve", "The evaluation daemon: an HTTP API for runs sharing the judges, "
             "state in SQLite, resume after a crash, /metrics");
  cmd
    ->add_option("--listen", c.serve.listen,
                 "ADDR:PORT to listen on (port 0 picks a free one; printed)")
    ->capture_default_str();
  cmd
    ->add_option("--state", c.serve.state_dir,
                 "The state directory (SQLite database, runs' pairs and "
                 "audits); created if absent")
    ->required();
  cmd->add_option("--config", c.serve.config_path,
                  "SERVE.json: cache, max_body_bytes, io_timeout_ms, "
                  "idle_timeout_ms, grace_ms, threads");
  cmd->add_option("--token-file", c.serve.token_file,
                  "File holding the bearer token every request but /healthz "
                  "must carry (else $INVJUDGE_TOKEN; none: loopback only)");
  cmd->add_option("--tls-cert", c.serve.tls_cert,
                  "Serve HTTPS: the server's certificate chain (PEM; "
                  "scripts/make-certs makes test ones)");
  cmd->add_option("--tls-key", c.serve.tls_key,
                  "Serve HTTPS: the certificate's private key (PEM)");
  cmd->add_option("--tls-ca", c.serve.tls_ca,
                  "With --tls-cert: clients must present a certificate this "
                  "CA signed");
}

void add_submit(CLI::App& app, command_line& c) {
  auto cmd = c.submit_cmd = app.add_subcommand(
    "submit", "Create a run on a daemon, upload the pairs, close it; with "
              "--follow print its verdicts as they come (token: "
              "$INVJUDGE_TOKEN)");
  cmd
    ->add_option("--server", c.submit.server,
                 "http://HOST:PORT or https://HOST:PORT")
    ->required();
  cmd->add_option("--pairs", c.submit.pairs_path, "Pairs, JSON Lines")
    ->required();
  cmd->add_option("--config", c.submit.config_path,
                  "Run configuration (default: the daemon's embedded default)");
  cmd->add_flag("--follow", c.submit.follow,
                "Print verdict lines as they come, and the counts at the end");
  cmd->add_option("--out", c.submit.out_path,
                  "With --follow (refused without it): verdict lines go here "
                  "instead of stdout; never the pairs, configuration or a TLS "
                  "file, and an existing file with content only with --force");
  cmd->add_flag("--force", c.submit.force,
                "Replace an existing --out file that has content");
  cmd->add_option("--tls-ca", c.submit.tls_ca,
                  "https:// servers: verify the server's certificate with "
                  "this CA (default: the system's CAs)");
  cmd->add_option("--tls-cert", c.submit.tls_cert,
                  "https:// servers that ask for one: this client's "
                  "certificate (PEM)");
  cmd->add_option("--tls-key", c.submit.tls_key,
                  "The client certificate's private key (PEM)");
}

void add_cache(CLI::App& app, command_line& c) {
  auto cmd = c.cache_cmd = app.add_subcommand(
    "cache", "The response cache: stats (entries, bytes, ages) or clear");
  cmd->add_option("ACTION", c.cache_action, "stats or clear")
    ->required()
    ->check(CLI::IsMember({"stats", "clear"}));
  cmd->add_option("FILE", c.cache_path, "The cache file (SQLite)")->required();
}

void add_report(CLI::App& app, command_line& c) {
  auto cmd = c.report_cmd = app.add_subcommand(
    "report", "Write the run's report as one self-contained HTML page (inline "
              "SVG plots, no network) from its audit trail alone");
  cmd->add_option("AUDIT", c.report_audit, "The audit file (JSON Lines)")
    ->required();
  cmd
    ->add_option("--html", c.report_html,
                 "Where to write the page; never the audit, and an existing "
                 "file with content only with --force")
    ->required();
  cmd->add_flag("--force", c.report_force,
                "Replace an existing --html file that has content");
  cmd->add_flag("--allow-unverified", c.allow_unverified,
                "Report an audit whose chain does not verify (refused "
                "otherwise, exit 1), marked UNVERIFIED at the top");
  cmd->add_option("--expect-hash", c.report_expect_hash,
                  "The final hash printed when the run ended (kept "
                  "elsewhere): the audit must still end there (exit 1 "
                  "otherwise), which covers its last line too");
}

void add_calibrate(CLI::App& app, command_line& c) {
  auto cmd = c.calibrate_cmd = app.add_subcommand(
    "calibrate", "Fit a calibration map per judge on the labelled pairs of "
                 "audits (isotonic, cross-validated; ECE, Brier, log loss "
                 "before and after with bootstrap intervals)");
  auto& o = c.calibrate;
  cmd
    ->add_option("AUDIT", o.audits, "Audit files (JSON Lines) of labelled runs")
    ->required();
  cmd
    ->add_option("--out", o.out,
                 "Where to write the map (JSON); never an audit given, and an "
                 "existing file with content only with --force")
    ->required();
  cmd->add_flag("--force", o.force,
                "Replace an existing --out file that has content");
  cmd->add_option("--folds", o.fit.folds, "Cross-validation folds (default 5)")
    ->check(CLI::Range(2u, 100u));
  cmd
    ->add_option("--bootstrap", o.fit.bootstrap,
                 "Bootstrap resamples for the intervals (default 1000)")
    ->check(CLI::Range(0u, 100000u));
  cmd->add_option("--seed", o.fit.seed,
                  "Seed of folds and bootstrap (default 1)");
  cmd
    ->add_option("--min-pairs", o.fit.min_pairs,
                 "Fewest labelled pairs a judge's map may rest on (default 50)")
    ->check(CLI::Range(std::uint64_t{2}, std::uint64_t{1} << 40));
}

// Hidden: synthetic pairs for load and memory tests.
void add_gen_pairs(CLI::App& app, command_line& c) {
  auto cmd = c.gen_cmd =
    app.add_subcommand("gen-pairs", "Write N synthetic pairs to stdout");
  cmd->group("");
  cmd->add_option("N", c.gen_n, "How many")->required();
  cmd->add_option("--per-item", c.gen_per_item, "Pairs per item")
    ->check(CLI::Range(1u, 1u << 20));
  cmd->add_option("--out", c.gen_out,
                  "Write the pairs here instead of stdout (an existing file "
                  "with content only with --force)");
  cmd->add_flag("--force", c.gen_force,
                "Replace an existing --out file that has content");
}

// Given but empty (--judge '') is a bad judge name, not "not given".
std::optional<std::string> given(CLI::Option* opt, const std::string& value) {
  if (opt->count() > 0)
    return value;
  return std::nullopt;
}

int dispatch(command_line& c) {
  if (*c.run_cmd) {
    c.run.judge = given(c.run_judge_opt, c.run_judge);
    c.run.progress = !c.no_progress;
    ij::install_interrupt_handler();
    return ij::run_command(c.run);
  }
  if (*c.host_cmd) {
    c.host.judge = given(c.host_judge_opt, c.host_judge);
    ij::install_interrupt_handler();
    return ij::host_command(c.host);
  }
  if (*c.selftest_cmd)
    return ij::selftest_command(c.selftest_config,
                                given(c.selftest_judge_opt, c.selftest_judge));
  if (*c.verify_cmd)
    return ij::audit_verify_command(c.audit_path, c.expect_hash);
  if (*c.serve_cmd)
    return ij::serve_command(c.serve);
  if (*c.submit_cmd) {
    ij::install_interrupt_handler();
    return ij::submit_command(c.submit);
  }
  if (*c.cache_cmd)
    return ij::cache_command(c.cache_action, c.cache_path);
  if (*c.calibrate_cmd)
    return ij::calibrate_command(c.calibrate);
  if (*c.report_cmd)
    return ij::report_command(c.report_audit, c.report_html, c.allow_unverified,
                              c.report_expect_hash, c.report_force);
  if (*c.gen_cmd)
    return ij::gen_pairs_command(c.gen_n, c.gen_per_item, c.gen_out,
                                 c.gen_force);
  return ij::exit_code::bad_input;
}

} // namespace

int main(int argc, char** argv) {
  ij::limit_heap_arenas(); // before any thread starts
  CLI::App app{"invjudge: are two answers to the same math problem "
               "equivalent? LLM judges with voting, I1-I5 verdicts, negative "
               "controls and a tamper-evident audit trail."};
  app.footer(exit_codes_text);
  app.require_subcommand(1);
  app.set_version_flag("--version", std::string{"invjudge "} + IJ_VERSION,
                       "Print the version and exit");
  command_line c;
  add_run(app, c);
  add_selftest(app, c);
  add_host(app, c);
  add_audit(app, c);
  add_report(app, c);
  add_calibrate(app, c);
  add_cache(app, c);
  add_serve(app, c);
  add_submit(app, c);
  add_gen_pairs(app, c);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // A mistyped subcommand is named (CLI11 says only that one is required).
    if (auto what = ij::unknown_subcommand(app, argc, argv);
        !what.empty() && e.get_exit_code() != 0) {
      std::fprintf(stderr, "invjudge: %s; see invjudge --help\n", what.c_str());
      return ij::exit_code::bad_input;
    }
    int code = app.exit(e);
    return code == 0 ? ij::exit_code::ok : ij::exit_code::bad_input;
  }
  return dispatch(c);
}
