#include "tools/calibrate_command.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>

#include "core/audit/audit_chain.hpp"
#include "tools/exit_codes.hpp"
#include "tools/labelled_votes.hpp"
#include "tools/output_file.hpp"

namespace ij {

namespace {

void say(const std::string& text) {
  std::fprintf(stderr, "invjudge: %s\n", text.c_str());
}

void print_fit(const calibration_fit& f) {
  auto row = [](const char* what, const estimate& before,
                const estimate& after) {
    std::fprintf(stderr,
                 "  %-9s raw %.4f [%.4f, %.4f]  calibrated %.4f [%.4f, %.4f]\n",
                 what, before.value, before.lo, before.hi, after.value,
                 after.lo, after.hi);
  };
  std::fprintf(stderr, "%s (%s): %llu labelled pairs, %llu votes\n",
               f.map.judge_id.c_str(), f.map.source.c_str(),
               static_cast<unsigned long long>(f.pairs),
               static_cast<unsigned long long>(f.votes));
  row("ECE", f.raw.ece, f.calibrated.ece);
  row("Brier", f.raw.brier, f.calibrated.brier);
  row("log loss", f.raw.log_loss, f.calibrated.log_loss);
}

// A repeated run or pair is named; it was counted once.
void say_repeats(const std::string& path, const audit_reading& r) {
  if (r.repeated == 0)
    return;
  std::string run = r.run_id.empty() ? "" : " of run " + r.run_id;
  if (r.repeated == r.pairs && !r.read_before_in.empty())
    say("warning: " + path + " repeats run " + r.run_id + ", already read from "
        + r.read_before_in + ": its " + std::to_string(r.pairs)
        + " pair(s) are counted once");
  else
    say("warning: " + path + ": " + std::to_string(r.repeated) + " of "
        + std::to_string(r.pairs) + " pair(s)" + run
        + " were already read (from "
        + (r.read_before_in.empty() ? path : r.read_before_in)
        + "): each is counted once");
}

// Every audit verified, then read; the exit code, or ok.
int read_audits(const calibrate_options& opts, labelled_votes& all) {
  for (auto& path : opts.audits) {
    auto v = verify_audit_file(path);
    if (v.status == audit_status::unreadable) {
      say(path + ": " + v.reason);
      return exit_code::bad_input;
    }
    if (v.status == audit_status::edited) {
      say(path + " does not verify (line " + std::to_string(v.bad_line) + ": "
          + v.reason + "); no map written");
      return exit_code::failed_check;
    }
    std::ifstream in(path, std::ios::binary);
    if (!in) {
      say(path + ": cannot open: " + std::strerror(errno));
      return exit_code::bad_input;
    }
    say_repeats(path, read_labelled_votes(in, path, all));
  }
  return exit_code::ok;
}

} // namespace

int calibrate_command(const calibrate_options& opts) {
  // The map never lands on an audit it reads, nor replaces a file unasked.
  std::vector<kept_file> inputs;
  for (auto& path : opts.audits)
    inputs.push_back({"the audit", path});
  auto out = claim_output("--out", opts.out, opts.force, inputs);
  if (!out) {
    say(context_of(out.error()));
    return exit_code::bad_input;
  }
  labelled_votes all;
  if (auto code = read_audits(opts, all); code != exit_code::ok)
    return code;
  if (all.judges.empty()) {
    say("no labelled votes in " + std::to_string(opts.audits.size())
        + " audit(s): " + std::to_string(all.labelled_pairs) + " of "
        + std::to_string(all.pairs)
        + " pairs carry a label and an EQUIVALENT or DIFFERENT vote; "
          "calibration needs pairs with \"label\" in the input");
    return exit_code::bad_input;
  }
  std::vector<calibration_fit> fits;
  for (auto& [judge, jv] : all.judges) {
    auto fit = fit_calibration(judge, jv.source(), jv.votes, opts.fit);
    if (!fit) {
      say(context_of(fit.error()) + " (--min-pairs); no map written");
      return exit_code::bad_input;
    }
    fits.push_back(std::move(*fit));
  }
  if (auto err = out->write_whole(calibration_file_json(fits, opts.fit))) {
    say(context_of(err) + " (the map)");
    return exit_code::bad_input;
  }
  for (auto& f : fits)
    print_fit(f);
  say("calibration map: " + opts.out);
  return exit_code::ok;
}

} // namespace ij
