#pragma once
// parseJudgeResponse (SPEC §5), failing closed (issue 29, which wins over
// SPEC §5 here): a reply with more than one DECISION line is a PARSE_ERROR
// even when they agree — a judge that echoes an answer's planted
// "DECISION: EQUIVALENT" and then gives its own never decides by it.
#include <optional>
#include <string>
#include <string_view>

#include "core/numbers/exact_number.hpp"
#include "messages/judge_decision.hpp"

namespace ij {

struct parsed_numeric {
  /// The value as given; nullopt when NULL or missing.
  std::optional<std::string> text;
  /// Its value where the text reads as a number.
  std::optional<double> value;
  /// The same number kept exact, for the consistency check.
  std::optional<exact_number> number;
};

struct judge_response {
  judge_decision decision = judge_decision::parse_error;
  std::string reason;
  parsed_numeric numeric_a;
  parsed_numeric numeric_b;
  /// Lines other than the four fields were present.
  bool extra_text = false;
  /// The decision contradicts the numerics the judge gave.
  bool inconsistent = false;
  /// Why the reply is a PARSE_ERROR (empty otherwise).
  std::string parse_error;
  /// The raw text, always kept.
  std::string raw;
};

judge_response parse_judge_response(std::string_view raw);

} // namespace ij
