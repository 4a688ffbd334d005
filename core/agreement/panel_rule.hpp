#pragma once
// How a panel of judges decides a pair (issue 10, cross-judge agreement):
// every judge of the panel judges the pair with its own votes; the pair's
// outcome follows the declared rule over the judges' outcomes, and the
// judges' agreement is one of three tiers. Pure.
//
// Rules: "unanimous" decides only when every judge of the panel gives the
// same decided outcome; "majority" when more than half of the panel does
// (of all its judges, not of those that answered). Otherwise the pair is
// undecided (rule I3), unless judges that faulted could have made the
// required agreement: then it is a fault (rule I2), as in the vote tally —
// a failing judge never turns into a decision nor hides as an undecided.
//
// Tiers, over the judges' outcome classes (EQUIVALENT, DIFFERENT, NEITHER,
// FAULT): "all" when every judge is in one class, "majority" when one class
// holds more than half of the judges, "split" otherwise.
#include <cstddef>
#include <optional>
#include <string_view>
#include <vector>

#include "messages/equivalence_outcome.hpp"

namespace ij {

enum class panel_rule { unanimous, majority };

/// "unanimous", "majority": the spelling in configuration and audit.
std::string_view to_string(panel_rule r);
std::optional<panel_rule> panel_rule_from_string(std::string_view s);

enum class agreement_tier { all, majority, split };

/// "all", "majority", "split".
std::string_view to_string(agreement_tier t);

/// A judge outcome's rating category, for agreement statistics:
/// 0 EQUIVALENT, 1 DIFFERENT, 2 NEITHER; nullopt for a fault (no rating).
inline constexpr std::size_t rating_categories = 3;
std::optional<std::size_t> rating_of(const equivalence_outcome& o);

struct panel_decision {
  equivalence_outcome outcome;
  agreement_tier tier = agreement_tier::split;
};

/// The pair's outcome from the panel judges' outcomes (at least one).
panel_decision decide_panel(panel_rule rule,
                            const std::vector<equivalence_outcome>& members);

} // namespace ij
