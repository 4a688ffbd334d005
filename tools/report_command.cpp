#include "tools/report_command.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>

#include <sys/stat.h>

#include "core/audit/audit_chain.hpp"
#include "messages/error.hpp"
#include "tools/audit_digest.hpp"
#include "tools/exit_codes.hpp"
#include "tools/final_hash_check.hpp"
#include "tools/html_report.hpp"
#include "tools/output_file.hpp"

namespace ij {

namespace {

void say(const std::string& text) {
  std::fprintf(stderr, "invjudge: %s\n", text.c_str());
}

// What the verifier and the kept hash say, for the banner.
report_status status_of(const audit_verification& v, const std::string& path,
                        const std::optional<std::string>& expected) {
  report_status status;
  status.chain = std::string{to_string(v.status)};
  status.reason = v.bad_line > 0
                    ? "line " + std::to_string(v.bad_line) + ": " + v.reason
                    : v.reason;
  status.final_hash = v.final_hash;
  status.lines = v.lines;
  status.audit_path = path;
  if (expected && v.status != audit_status::edited) {
    if (*expected == v.final_hash) {
      status.hash_checked = true;
    } else {
      // A rewrite with every hash recomputed, or a cut: an edit.
      status.chain = std::string{to_string(audit_status::edited)};
      status.reason = final_hash_mismatch_text(*expected, v.final_hash);
    }
  }
  return status;
}

} // namespace

int report_command(const std::string& audit_path, const std::string& html_path,
                   bool allow_unverified, const std::string& expect_hash,
                   bool force) {
  auto expected = parse_expected_hash(expect_hash);
  if (!expected) {
    say(context_of(expected.error()));
    return exit_code::bad_input;
  }
  struct stat st;
  if (::stat(audit_path.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) {
    say(audit_path + ": is a directory, not an audit file");
    return exit_code::bad_input;
  }
  // The page never lands on the audit, nor replaces a file unasked.
  auto out =
    claim_output("--html", html_path, force, {{"the audit", audit_path}});
  if (!out) {
    say(context_of(out.error()));
    return exit_code::bad_input;
  }
  auto v = verify_audit_file(audit_path);
  if (v.status == audit_status::unreadable) {
    say(audit_path + ": " + v.reason);
    return exit_code::bad_input;
  }
  auto status = status_of(v, audit_path, *expected);
  if (status.chain == to_string(audit_status::edited)) {
    if (!allow_unverified) {
      say(audit_path + " does not verify (" + status.reason
          + "); no report written (--allow-unverified makes one, marked as "
            "such)");
      return exit_code::failed_check;
    }
    status.unverified = true;
    say("warning: " + audit_path + " does not verify (" + status.reason
        + "); the report says so at the top");
  }
  std::ifstream in(audit_path, std::ios::binary);
  if (!in) {
    say(audit_path + ": cannot open: " + std::strerror(errno));
    return exit_code::bad_input;
  }
  auto page = render_html_report(digest_audit(in), status);
  if (auto err = out->write_whole(page)) {
    say(context_of(err) + " (the report)");
    return exit_code::bad_input;
  }
  say("report: " + html_path);
  return exit_code::ok;
}

} // namespace ij
