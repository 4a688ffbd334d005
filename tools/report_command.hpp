#pragma once
// `invjudge report AUDIT.jsonl --html REPORT.html [--allow-unverified]
// [--expect-hash HEX]`: the run's report as one self-contained HTML page
// (tools/html_report), made from the audit trail alone.
#include <string>

namespace ij {

/// Verifies the audit first (core/audit/audit_chain): an edited one is refused
/// (exit 1, nothing written) unless `allow_unverified`, which marks the
/// page loudly instead; an interrupted or unfinished run is reported with a
/// notice. With `expect_hash` (the final hash `run` printed), a file that
/// no longer ends there is an edit like any other; without it the page says
/// that the last line is only as safe as the final hash the reader kept.
/// Exit 2 when the audit cannot be read, the page cannot be written, is the
/// audit (by any name) or an existing file with content without `force`
/// (tools/output_file), or `expect_hash` is not a SHA-256; 0 when the page
/// is written.
int report_command(const std::string& audit_path, const std::string& html_path,
                   bool allow_unverified, const std::string& expect_hash = {},
                   bool force = false);

} // namespace ij
