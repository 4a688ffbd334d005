#pragma once
// Accumulates a cascade run pair by pair (issue 10) and sums it up as a
// cascade_summary, and estimates what an LLM-only run would have cost. Pure.
#include <cstdint>

#include "core/agreement/agreement.hpp"
#include "core/config/run_config.hpp"
#include "messages/cascade_summary.hpp"
#include "messages/vote_result.hpp"

namespace ij {

class cascade_tally {
public:
  explicit cascade_tally(const cascade_config& cascade);

  /// One pair out of the cascade: parts [rules] or [rules, llm], records in
  /// part order (each part's calls are its counts' votes cast).
  void add(const vote_result& vr);

  const cascade_summary& summary() const { return s_; }

private:
  cascade_summary s_;
};

/// An LLM-only run's estimated cost: every cascade pair at the LLM judge's
/// own average calls and tokens per pair in this run (zero when the LLM
/// judge was never asked: nothing to average).
struct llm_only_estimate {
  bool known = false;
  double calls = 0.0;
  double input_tokens = 0.0;
  double output_tokens = 0.0;
  double saved_calls = 0.0;
  double saved_input_tokens = 0.0;
  double saved_output_tokens = 0.0;
};

llm_only_estimate estimate_llm_only(const cascade_summary& s);

/// The rules' live precision: of the audited pairs the LLM judge decided,
/// the share on which it confirmed the rule judge's decision, with its
/// Wilson interval at confidence 1 - alpha (n 0 when none was decided).
/// The run summary and the report both state it from here.
rate_estimate rules_precision(const cascade_summary& s, double alpha);

} // namespace ij
