#pragma once
// A judge's budget for one run (issue 10): limits on calls, tokens and cost,
// with the judge's declared prices per million tokens. Pure.
//
// A judge at its budget makes no more calls: the vote coordinator asks the
// meter before every call, and a vote that no judge within budget can take
// is a fault of kind "budget" (rule I2), never a wait and never a decision.
// Calls are counted when they are made, so max_calls is never exceeded;
// tokens (and so cost) are known only when a reply comes back, so the calls
// already in flight when a token or cost limit is reached may pass it (by at
// most the judge's in-flight capacity in calls for HTTP judges).
#include <cstdint>
#include <optional>
#include <string>

namespace ij {

/// Prices per million tokens, in the user's currency.
struct token_prices {
  double input = 0.0;
  double output = 0.0;
  /// The share of the price a call answered through a batch API costs
  /// ("batch_discount", in [0, 1]).
  double batch_discount = 0.5;
};

struct judge_budget {
  std::optional<std::uint64_t> max_calls;
  std::optional<std::uint64_t> max_input_tokens;
  std::optional<std::uint64_t> max_output_tokens;
  /// In the prices' currency; needs declared prices.
  std::optional<double> max_cost;

  bool any() const {
    return max_calls || max_input_tokens || max_output_tokens || max_cost;
  }
};

/// What a judge spent.
struct judge_spending {
  std::uint64_t calls = 0;
  std::uint64_t input_tokens = 0;
  std::uint64_t output_tokens = 0;
  /// Of those, the tokens of batched calls (core/budgets/judge_budget's
  /// cost_of).
  std::uint64_t batched_input_tokens = 0;
  std::uint64_t batched_output_tokens = 0;
};

/// Tokens priced: input * price.input / 1e6 + output * price.output / 1e6.
double cost_of(std::uint64_t input_tokens, std::uint64_t output_tokens,
               const token_prices& prices);

/// All tokens priced, the batched ones (part of the totals) at the batch
/// discount.
double cost_of(std::uint64_t input_tokens, std::uint64_t output_tokens,
               std::uint64_t batched_input, std::uint64_t batched_output,
               const token_prices& prices);

/// Counts one judge's spending against its budget.
class budget_meter {
public:
  budget_meter() = default;
  budget_meter(judge_budget budget, token_prices prices);

  /// A call is being made.
  void count_call() { ++spent_.calls; }

  /// A reply came with this usage.
  void count_tokens(std::uint64_t input, std::uint64_t output,
                    bool batched = false) {
    spent_.input_tokens += input;
    spent_.output_tokens += output;
    if (batched) {
      spent_.batched_input_tokens += input;
      spent_.batched_output_tokens += output;
    }
  }

  /// What was spent before (a resumed run's earlier part).
  void carry(const judge_spending& before) {
    spent_.calls += before.calls;
    spent_.input_tokens += before.input_tokens;
    spent_.output_tokens += before.output_tokens;
    spent_.batched_input_tokens += before.batched_input_tokens;
    spent_.batched_output_tokens += before.batched_output_tokens;
  }

  /// True once any limit is reached: no further call may be made.
  bool reached() const;

  /// Which limit, in plain words ("max_calls 10 reached (10 calls made)");
  /// empty while none is.
  std::string why() const;

  const judge_spending& spent() const { return spent_; }
  double cost() const {
    return cost_of(spent_.input_tokens, spent_.output_tokens,
                   spent_.batched_input_tokens, spent_.batched_output_tokens,
                   prices_);
  }

private:
  judge_budget budget_;
  token_prices prices_;
  judge_spending spent_;
};

} // namespace ij
