#pragma once
// The negative-control pattern sets (SPEC §9), built in.
#include <string>
#include <string_view>
#include <vector>

#include "messages/judge_decision.hpp"

namespace ij {

enum class control_kind { identity, mismatch, abstain };

std::string_view to_string(control_kind k);

struct control_pair {
  control_kind kind;
  std::string a;
  std::string b;
  judge_decision expected;
};

/// identity -> EQUIVALENT, mismatch -> DIFFERENT, abstain -> ABSTAIN.
const std::vector<control_pair>& negative_controls();

} // namespace ij
