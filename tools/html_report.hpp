#pragma once
// The run report as one self-contained HTML page (issue 10): no script, no
// network, every plot an inline SVG (tools/svg_chart). Sections: the run and
// whether its audit verified, verdicts by rule, the confusion matrix against
// labels, agreement between judges, canaries and bias alarms over the run,
// position bias, latency histogram, tokens per judge.
#include <string>

#include "tools/audit_digest.hpp"

namespace ij {

struct report_status {
  /// "ok", "interrupted", "unfinished" or "edited" (core/audit_chain).
  std::string chain;
  /// The verifier's words when not ok.
  std::string reason;
  std::string final_hash;
  /// The page is made although the chain did not verify
  /// (--allow-unverified): it says so loudly at the top.
  bool unverified = false;
  std::string audit_path;
};

std::string render_html_report(const audit_digest& d, const report_status& s);

} // namespace ij
