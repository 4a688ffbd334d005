#include "core/canaries/canary_set.hpp"

#include "core/numbers/answer.hpp"

namespace ij {

std::string_view to_string(canary_failure_mode m) {
  switch (m) {
    case canary_failure_mode::false_equivalent: return "false_equivalent";
    case canary_failure_mode::decided_abstain: return "decided_abstain";
    case canary_failure_mode::failed_identity: return "failed_identity";
  }
  return "false_equivalent";
}

canary_failure_mode failure_mode_of(control_kind kind) {
  switch (kind) {
    case control_kind::identity: return canary_failure_mode::failed_identity;
    case control_kind::abstain: return canary_failure_mode::decided_abstain;
    case control_kind::mismatch:
    case control_kind::master_key:
    case control_kind::planted: break;
  }
  return canary_failure_mode::false_equivalent;
}

std::string_view expected_text(control_kind kind) {
  switch (kind) {
    case control_kind::identity: return "EQUIVALENT";
    case control_kind::abstain: return "ABSTAIN";
    case control_kind::mismatch:
    case control_kind::master_key:
    case control_kind::planted: break;
  }
  return "not EQUIVALENT";
}

std::optional<bool> decision_fails(control_kind kind, judge_decision d) {
  if (d == judge_decision::parse_error)
    return std::nullopt;
  switch (failure_mode_of(kind)) {
    case canary_failure_mode::failed_identity:
      return d != judge_decision::equivalent;
    case canary_failure_mode::decided_abstain:
      return d != judge_decision::abstain;
    case canary_failure_mode::false_equivalent:
      return d == judge_decision::equivalent;
  }
  return std::nullopt;
}

std::optional<bool>
canary_failed(control_kind kind, const std::vector<judge_decision>& decisions) {
  std::size_t read = 0, failed = 0;
  for (auto d : decisions)
    if (auto f = decision_fails(kind, d)) {
      ++read;
      failed += *f ? 1 : 0;
    }
  if (read == 0)
    return std::nullopt;
  return 2 * failed > read;
}

const std::vector<control_pair>& canary_set() {
  static const std::vector<control_pair> set = [] {
    std::vector<control_pair> out;
    for (const auto& c : negative_controls())
      if (!is_absent(c.a) && !is_absent(c.b))
        out.push_back(c);
    return out;
  }();
  return set;
}

} // namespace ij
