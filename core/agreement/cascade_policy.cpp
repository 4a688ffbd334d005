#include "core/agreement/cascade_policy.hpp"

#include <string>

#include "core/numbers/exact_number.hpp"
#include "core/sha256.hpp"

namespace ij {

std::string_view to_string(cascade_path p) {
  switch (p) {
    case cascade_path::rules: return "rules";
    case cascade_path::fallback: return "fallback";
    case cascade_path::audited: return "audited";
  }
  return "rules";
}

bool cascade_audits(std::uint64_t seed, std::string_view pair_id, double rate) {
  if (rate <= 0.0)
    return false;
  if (rate >= 1.0)
    return true;
  auto hex = sha256_hex(std::to_string(seed) + ":" + std::string{pair_id});
  // The first 16 hex digits: 64 bits, spread uniformly.
  auto x = std::stoull(hex.substr(0, 16), nullptr, 16);
  return static_cast<double>(x) / 18446744073709551616.0 < rate;
}

bool rules_decided(const equivalence_outcome& rules) {
  return rules.equivalent.has_value() && !rules.fault;
}

bool cascade_disagrees(const equivalence_outcome& rules,
                       const equivalence_outcome& llm) {
  return rules_decided(rules) && rules_decided(llm)
         && *rules.equivalent != *llm.equivalent;
}

bool cascade_non_numeric(const std::vector<judge_record>& rules_records) {
  for (auto& rec : rules_records) {
    if (rec.transport_failed || rec.decision == judge_decision::parse_error)
      continue;
    return !(parse_exact_number(rec.numeric_a)
             && parse_exact_number(rec.numeric_b));
  }
  return true;
}

} // namespace ij
