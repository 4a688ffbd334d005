#pragma once
// The budget meters of a run (core/budgets/judge_budget.hpp), one per budgeted
// judge, keyed by judge id (the vote coordinators' key).
#include <string>
#include <unordered_map>

#include "core/audit/audit_resume.hpp"
#include "core/budgets/judge_budget.hpp"
#include "core/config/run_config.hpp"

namespace ij {

/// A meter per judge of `cfg` with a budget; a resumed run's meters start
/// from what its audit says was spent (`resume` null: a new run).
std::unordered_map<std::string, budget_meter>
run_budgets(const run_config& cfg, const resume_point* resume);

} // namespace ij
