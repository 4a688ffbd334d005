#pragma once
// `invjudge report AUDIT.jsonl --html REPORT.html [--allow-unverified]`: the
// run's report as one self-contained HTML page (tools/html_report), made
// from the audit trail alone.
#include <string>

namespace ij {

/// Verifies the audit first (core/audit_chain): an edited one is refused
/// (exit 1, nothing written) unless `allow_unverified`, which marks the
/// page loudly instead; an interrupted or unfinished run is reported with a
/// notice. Exit 2 when the audit cannot be read or the page cannot be
/// written; 0 when the page is written.
int report_command(const std::string& audit_path, const std::string& html_path,
                   bool allow_unverified);

} // namespace ij
