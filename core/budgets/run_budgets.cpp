#include "core/budgets/run_budgets.hpp"

namespace ij {

std::unordered_map<std::string, budget_meter>
run_budgets(const run_config& cfg, const resume_point* resume) {
  std::unordered_map<std::string, budget_meter> out;
  for (auto& spec : cfg.judges)
    if (spec.budget.any())
      out.emplace(
        judge_id_of(spec),
        budget_meter{spec.budget, spec.prices.value_or(token_prices{})});
  if (resume)
    for (auto& spec : cfg.judges) {
      auto meter = out.find(judge_id_of(spec));
      auto spent = resume->spent.find(spec.name);
      if (meter != out.end() && spent != resume->spent.end())
        meter->second.carry(spent->second);
    }
  return out;
}

} // namespace ij
