#include "core/agreement/cascade_tally.hpp"

#include "core/agreement/cascade_policy.hpp"
#include "core/verdicts/verdict_table.hpp"

namespace ij {

namespace {

std::uint64_t cast_of(const vote_counts& c) {
  return c.equivalent + c.different + c.abstain + c.parse_error + c.faults;
}

} // namespace

cascade_tally::cascade_tally(const cascade_config& cascade) {
  s_.enabled = true;
  s_.rules = cascade.rules;
  s_.llm = cascade.llm;
  s_.audit_rate = cascade.audit_rate;
}

void cascade_tally::add(const vote_result& vr) {
  if (vr.absent || vr.parts.empty())
    return;
  ++s_.pairs;
  auto& rules = vr.parts[0];
  auto rules_calls = cast_of(rules.counts);
  s_.rules_calls += rules_calls;
  if (vr.route == to_string(cascade_path::fallback))
    ++s_.fallback;
  else
    ++s_.rules_decided;
  if (vr.parts.size() < 2)
    return;
  auto& llm = vr.parts[1];
  ++s_.llm_pairs;
  s_.llm_calls += cast_of(llm.counts);
  for (std::size_t i = rules_calls; i < vr.records.size(); ++i) {
    s_.llm_input_tokens += vr.records[i].input_tokens;
    s_.llm_output_tokens += vr.records[i].output_tokens;
  }
  if (vr.route != to_string(cascade_path::audited))
    return;
  ++s_.audited;
  if (!rules_decided(llm.outcome)) {
    ++s_.audit_undecided;
    return;
  }
  bool agree = !cascade_disagrees(rules.outcome, llm.outcome);
  ++(agree ? s_.audit_agree : s_.audit_disagree);
  if (*rules.outcome.equivalent) {
    ++s_.equivalent_checked;
    s_.equivalent_confirmed += agree;
  } else {
    ++s_.different_checked;
    s_.different_confirmed += agree;
  }
}

llm_only_estimate estimate_llm_only(const cascade_summary& s) {
  llm_only_estimate e;
  if (s.llm_pairs == 0)
    return e;
  e.known = true;
  auto per = static_cast<double>(s.pairs) / static_cast<double>(s.llm_pairs);
  e.calls = static_cast<double>(s.llm_calls) * per;
  e.input_tokens = static_cast<double>(s.llm_input_tokens) * per;
  e.output_tokens = static_cast<double>(s.llm_output_tokens) * per;
  e.saved_calls = e.calls - static_cast<double>(s.llm_calls);
  e.saved_input_tokens =
    e.input_tokens - static_cast<double>(s.llm_input_tokens);
  e.saved_output_tokens =
    e.output_tokens - static_cast<double>(s.llm_output_tokens);
  return e;
}

rate_estimate rules_precision(const cascade_summary& s, double alpha) {
  rate_estimate r;
  r.successes = s.audit_agree;
  r.n = s.audit_agree + s.audit_disagree;
  if (r.n == 0)
    return r;
  r.value = static_cast<double>(r.successes) / static_cast<double>(r.n);
  auto [lo, hi] = wilson_interval(static_cast<std::uint32_t>(r.successes),
                                  static_cast<std::uint32_t>(r.n), alpha);
  r.lo = lo;
  r.hi = hi;
  return r;
}

} // namespace ij
