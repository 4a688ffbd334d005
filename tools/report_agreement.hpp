#pragma once
// The report's sections on judges judging the same pairs (issue 20): a
// panel's rule, tiers, raw agreement and kappa with their intervals and each
// judge against the labels — the numbers core/agreement/panel_tally computes
// for the run summary, printed the way the summary prints them — each couple of
// judges, and a cascade's paths, audited share and the rules' live
// precision. Canaries are never pairs here.
#include <string>

#include "tools/audit_digest.hpp"

namespace ij {

/// "Agreement between judges": the panel (when there is one), then each
/// couple of judges, with a bar chart of their raw agreement.
std::string agreement_section(const audit_digest& d);

/// "Cascade": empty when the run had none.
std::string cascade_section(const audit_digest& d);

} // namespace ij
