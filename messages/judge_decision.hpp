#pragma once
// The four decisions a judge reply can be read as (SPEC §2, §5).
#include <cstdint>
#include <optional>
#include <string_view>

namespace ij {

enum class judge_decision : std::uint8_t {
  equivalent,
  different,
  abstain,
  parse_error,
};

/// "EQUIVALENT", "DIFFERENT", "ABSTAIN" or "PARSE_ERROR".
constexpr std::string_view to_string(judge_decision d) {
  switch (d) {
    case judge_decision::equivalent: return "EQUIVALENT";
    case judge_decision::different: return "DIFFERENT";
    case judge_decision::abstain: return "ABSTAIN";
    case judge_decision::parse_error: return "PARSE_ERROR";
  }
  return "PARSE_ERROR";
}

/// Reads the upper-case wire name back; nullopt for anything else.
inline std::optional<judge_decision> decision_from_string(std::string_view s) {
  for (auto d : {judge_decision::equivalent, judge_decision::different,
                 judge_decision::abstain, judge_decision::parse_error})
    if (to_string(d) == s)
      return d;
  return std::nullopt;
}

} // namespace ij
