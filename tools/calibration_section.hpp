#pragma once
// The report's calibration section (issues 16, 27). Two measurements, each
// labelled, side by side:
// - the declared map on this run's pairs: per labelled pair, the
//   probability the run computed with the map it declared (recorded in
//   each verdict), scored as the run summary scores it — the same ECE and
//   Brier score the summary printed;
// - per judge, a per-vote refit on this audit: a map fitted on the audit's
//   own labelled votes, cross-validated (core/calibration/calibration), with
//   its reliability diagram (raw and calibrated, ticks on both axes) and the
//   distribution of the judge's decision probabilities.
// The section says why the two differ (unit and map). The audit is read
// again for the votes (tools/labelled_votes). Empty when the run has
// neither labelled votes nor calibrated pairs.
#include <string>

#include "tools/audit_digest.hpp"

namespace ij {

/// The section's HTML for the audit at `audit_path`, whose digest is `d`
/// ("" when there is nothing to show).
std::string calibration_section_html(const audit_digest& d,
                                     const std::string& audit_path);

} // namespace ij
