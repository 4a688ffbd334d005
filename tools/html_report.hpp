#pragma once
// The run report as one self-contained HTML page (issues 10, 20): no script,
// no network, every plot an inline SVG (tools/svg_chart) followed by a table
// of its numbers. Sections: the run and what its verification showed (the
// chain, and the final hash when the reader kept one), verdicts by rule, the
// confusion matrix against labels, agreement between judges and a panel's
// statistics, a cascade's account (tools/report_agreement), canaries and
// bias alarms over the run, position bias, latency per judge, tokens per
// judge.
#include <cstdint>
#include <string>

#include "tools/audit_digest.hpp"

namespace ij {

struct report_status {
  /// "ok", "interrupted", "unfinished" or "edited" (core/audit/audit_chain).
  std::string chain;
  /// The verifier's words when not ok.
  std::string reason;
  std::string final_hash;
  /// Complete lines the chain covers.
  std::uint64_t lines = 0;
  /// The final hash is the one the reader kept (--expect-hash): the last
  /// line is covered too.
  bool hash_checked = false;
  /// The page is made although the chain did not verify
  /// (--allow-unverified): it says so loudly at the top.
  bool unverified = false;
  std::string audit_path;
};

std::string render_html_report(const audit_digest& d, const report_status& s);

} // namespace ij
