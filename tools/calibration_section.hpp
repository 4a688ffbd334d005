#pragma once
// The report's calibration section (issue 16): per judge with labelled
// votes, a reliability diagram (raw and calibrated, the count in each bin),
// ECE and Brier with bootstrap intervals, and the distribution of its
// decision probabilities. The audit is read again here (the labelled votes,
// tools/labelled_votes); the calibrated curve uses a map fitted on the
// audit itself, cross-validated (core/calibration). Empty when no judge has
// labelled votes.
#include <string>

namespace ij {

/// The section's HTML for the audit at `audit_path` ("" when none).
std::string calibration_section_html(const std::string& audit_path);

} // namespace ij
