#include "core/agreement/panel_rule.hpp"

#include <algorithm>
#include <array>
#include <string>

namespace ij {

std::string_view to_string(panel_rule r) {
  return r == panel_rule::unanimous ? "unanimous" : "majority";
}

std::optional<panel_rule> panel_rule_from_string(std::string_view s) {
  for (auto r : {panel_rule::unanimous, panel_rule::majority})
    if (to_string(r) == s)
      return r;
  return std::nullopt;
}

std::string_view to_string(agreement_tier t) {
  switch (t) {
    case agreement_tier::all: return "all";
    case agreement_tier::majority: return "majority";
    case agreement_tier::split: return "split";
  }
  return "split";
}

std::optional<std::size_t> rating_of(const equivalence_outcome& o) {
  if (o.fault)
    return std::nullopt;
  if (!o.equivalent)
    return 2;
  return *o.equivalent ? 0 : 1;
}

panel_decision decide_panel(panel_rule rule,
                            const std::vector<equivalence_outcome>& members) {
  // Classes: 0 EQUIVALENT, 1 DIFFERENT, 2 NEITHER, 3 FAULT.
  std::array<std::size_t, 4> n{};
  for (auto& o : members)
    ++n[rating_of(o).value_or(3)];
  const auto m = members.size();
  panel_decision out;
  auto top = *std::max_element(n.begin(), n.end());
  out.tier = top == m      ? agreement_tier::all
             : 2 * top > m ? agreement_tier::majority
                           : agreement_tier::split;
  const std::size_t need = rule == panel_rule::unanimous ? m : m / 2 + 1;
  const auto of = "/" + std::to_string(m) + " judges";
  const auto name = std::string{to_string(rule)};
  if (m > 0 && n[0] >= need) {
    out.outcome = {true, double(n[0]) / double(m),
                   "panel " + name + ": " + std::to_string(n[0]) + of
                     + " EQUIVALENT",
                   false};
  } else if (m > 0 && n[1] >= need) {
    out.outcome = {
      false, double(n[1]) / double(m),
      "panel " + name + ": " + std::to_string(n[1]) + of + " DIFFERENT", false};
  } else if (n[3] > 0 && (n[0] + n[3] >= need || n[1] + n[3] >= need)) {
    out.outcome = {std::nullopt, 0.0,
                   "panel " + name + ": " + std::to_string(n[3]) + of
                     + " faulted (" + std::to_string(n[0]) + " EQUIVALENT, "
                     + std::to_string(n[1]) + " DIFFERENT, need "
                     + std::to_string(need) + ")",
                   true};
  } else {
    out.outcome = {std::nullopt, 0.0,
                   "panel " + name + ": no agreement (" + std::to_string(n[0])
                     + " EQUIVALENT, " + std::to_string(n[1]) + " DIFFERENT, "
                     + std::to_string(n[2]) + " NEITHER" + of + ")",
                   false};
  }
  return out;
}

} // namespace ij
