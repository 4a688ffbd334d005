#include "core/budgets/judge_budget.hpp"

#include <cstdio>

namespace ij {

double cost_of(std::uint64_t input_tokens, std::uint64_t output_tokens,
               const token_prices& prices) {
  return static_cast<double>(input_tokens) * prices.input / 1e6
         + static_cast<double>(output_tokens) * prices.output / 1e6;
}

double cost_of(std::uint64_t input_tokens, std::uint64_t output_tokens,
               std::uint64_t batched_input, std::uint64_t batched_output,
               const token_prices& prices) {
  // Batched tokens are part of the totals: they save (1 - discount) of
  // their price.
  return cost_of(input_tokens, output_tokens, prices)
         - (1.0 - prices.batch_discount)
             * cost_of(batched_input, batched_output, prices);
}

budget_meter::budget_meter(judge_budget budget, token_prices prices)
    : budget_(budget), prices_(prices) {}

bool budget_meter::reached() const {
  return !why().empty();
}

std::string budget_meter::why() const {
  auto n = [](std::uint64_t x) { return std::to_string(x); };
  if (budget_.max_calls && spent_.calls >= *budget_.max_calls)
    return "max_calls " + n(*budget_.max_calls) + " reached (" + n(spent_.calls)
           + " calls made)";
  if (budget_.max_input_tokens
      && spent_.input_tokens >= *budget_.max_input_tokens)
    return "max_input_tokens " + n(*budget_.max_input_tokens) + " reached ("
           + n(spent_.input_tokens) + " input tokens)";
  if (budget_.max_output_tokens
      && spent_.output_tokens >= *budget_.max_output_tokens)
    return "max_output_tokens " + n(*budget_.max_output_tokens) + " reached ("
           + n(spent_.output_tokens) + " output tokens)";
  if (budget_.max_cost && cost() >= *budget_.max_cost) {
    char buf[96];
    std::snprintf(buf, sizeof buf, "max_cost %g reached (cost %.6g)",
                  *budget_.max_cost, cost());
    return buf;
  }
  return {};
}

} // namespace ij
