#pragma once
// The report's batch section (issue 27): a run's batches by state, each
// batch's requests, time from submission to its end, the batched calls
// that answered it with their tokens and cost (at the judge's declared
// prices and batch discount), from the audit's `batch` records
// (tools/batch_digest). Says so when the run had no batched judge.
#include <string>

#include "tools/audit_digest.hpp"

namespace ij {

/// The section's HTML (always a section: "no batches" is stated).
std::string batch_section_html(const audit_digest& d);

} // namespace ij
