#pragma once
// What one judge spent in a run against its budget (issue 10): calls made,
// tokens, cost at the declared prices, and the votes that were not made
// because the budget was reached (faults of kind "budget"). Part of the run
// summary and of the run-end record.
#include <cstdint>
#include <string>

#include <caf/meta/type_name.hpp>

namespace ij {

struct judge_spend {
  std::string judge;
  /// Calls made (budget faults are not calls).
  std::uint64_t calls = 0;
  std::uint64_t input_tokens = 0;
  std::uint64_t output_tokens = 0;
  /// Whether prices were declared; cost is 0 otherwise.
  bool priced = false;
  double cost = 0.0;
  /// Votes refused at the budget (fault kind "budget").
  std::uint64_t budget_faults = 0;
  /// The limits; has_* false: no such limit.
  bool has_max_calls = false;
  std::uint64_t max_calls = 0;
  bool has_max_input_tokens = false;
  std::uint64_t max_input_tokens = 0;
  bool has_max_output_tokens = false;
  std::uint64_t max_output_tokens = 0;
  bool has_max_cost = false;
  double max_cost = 0.0;
};

inline bool operator==(const judge_spend& x, const judge_spend& y) {
  return x.judge == y.judge && x.calls == y.calls
         && x.input_tokens == y.input_tokens
         && x.output_tokens == y.output_tokens && x.priced == y.priced
         && x.cost == y.cost && x.budget_faults == y.budget_faults
         && x.has_max_calls == y.has_max_calls && x.max_calls == y.max_calls
         && x.has_max_input_tokens == y.has_max_input_tokens
         && x.max_input_tokens == y.max_input_tokens
         && x.has_max_output_tokens == y.has_max_output_tokens
         && x.max_output_tokens == y.max_output_tokens
         && x.has_max_cost == y.has_max_cost && x.max_cost == y.max_cost;
}

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, judge_spend& x) {
  return f(caf::meta::type_name("ij.judge_spend"), x.judge, x.calls,
           x.input_tokens, x.output_tokens, x.priced, x.cost, x.budget_faults,
           x.has_max_calls, x.max_calls, x.has_max_input_tokens,
           x.max_input_tokens, x.has_max_output_tokens, x.max_output_tokens,
           x.has_max_cost, x.max_cost);
}

} // namespace ij
