#include "tools/batch_section.hpp"

#include <algorithm>
#include <optional>

#include "core/budgets/judge_budget.hpp"
#include "tools/html_markup.hpp"

namespace ij {

namespace {

using namespace html;

// At most this many batches are listed one by one (the totals cover all).
constexpr std::size_t listed_batches = 200;

// A batch's cost at its judge's declared prices, all its tokens batched.
std::optional<double> cost_of_batch(const audit_digest& d, const batch_row& b) {
  auto j = std::find_if(d.judges.begin(), d.judges.end(),
                        [&](auto& x) { return x.name == b.judge; });
  if (j == d.judges.end() || (!j->price_input && !j->price_output))
    return std::nullopt;
  token_prices prices{j->price_input.value_or(0), j->price_output.value_or(0),
                      j->batch_discount};
  return cost_of(b.input_tokens, b.output_tokens, b.input_tokens,
                 b.output_tokens, prices);
}

std::string seconds(std::optional<double> s) {
  return s ? fmt("%.1f s", *s) : std::string{"not ended"};
}

// Batches by the state they reached: a plot and its table.
std::string by_state(const std::vector<batch_row>& batches) {
  std::vector<std::pair<std::string, std::uint64_t>> states;
  for (auto& b : batches) {
    auto it = std::find_if(states.begin(), states.end(),
                           [&](auto& s) { return s.first == b.state; });
    if (it == states.end())
      states.emplace_back(b.state, 1);
    else
      ++it->second;
  }
  std::vector<std::string> labels;
  std::vector<double> values;
  std::vector<std::vector<std::string>> rows;
  for (auto& [state, n] : states) {
    labels.push_back(state);
    values.push_back(static_cast<double>(n));
    rows.push_back({state, fmt("%llu", ull(n))});
  }
  return figure(svg::bar_chart("plot-batches",
                               "batches by state (numbers in the "
                               "table below)",
                               labels, values),
                table("data-batches", "Batches by the state they reached",
                      {"state", "batches"}, rows));
}

// The figures over all batches: requests, time to end, cost.
std::string totals(const audit_digest& d) {
  std::uint64_t requests = 0, most = 0, answered = 0;
  std::vector<double> times;
  double cost = 0;
  bool priced = false;
  for (auto& b : d.batches) {
    requests += b.requests;
    most = std::max(most, b.requests);
    answered += b.answered;
    if (auto s = b.seconds_to_end())
      times.push_back(*s);
    if (auto c = cost_of_batch(d, b)) {
      cost += *c;
      priced = true;
    }
  }
  std::sort(times.begin(), times.end());
  auto n = static_cast<double>(d.batches.size());
  std::vector<std::vector<std::string>> rows{
    {"batches", fmt("%llu", ull(d.batches.size()))},
    {"requests per batch",
     fmt("%.1f on average, at most %llu (%llu in all)",
         static_cast<double>(requests) / n, ull(most), ull(requests))},
    {"batched calls recorded", fmt("%llu", ull(answered))},
    {"time from submission to end",
     times.empty()
       ? std::string{"no batch ended"}
       : fmt("median %.1f s, longest %.1f s (%llu ended)",
             times[times.size() / 2], times.back(), ull(times.size()))},
    {"cost per batch", priced
                         ? fmt("%.4f on average, %.4f in all", cost / n, cost)
                         : std::string{"no declared prices"}}};
  return table("batch-totals", "All batches", {"figure", "value"}, rows,
               "left");
}

std::string listing(const audit_digest& d) {
  std::vector<std::vector<std::string>> rows;
  for (std::size_t i = 0; i < d.batches.size() && i < listed_batches; ++i) {
    auto& b = d.batches[i];
    auto c = cost_of_batch(d, b);
    rows.push_back(
      {b.batch_id.empty() ? b.key + " (not submitted)" : b.batch_id, b.judge,
       b.state, fmt("%llu", ull(b.requests)), fmt("%llu", ull(b.answered)),
       seconds(b.seconds_to_end()), fmt("%llu", ull(b.input_tokens)),
       fmt("%llu", ull(b.output_tokens)),
       c ? fmt("%.4f", *c) : std::string{"-"}});
  }
  auto caption = d.batches.size() > listed_batches
                   ? fmt("The first %llu of %llu batches", ull(listed_batches),
                         ull(d.batches.size()))
                   : std::string{"Each batch"};
  return table("data-batch-list", caption,
               {"batch", "judge", "state", "requests", "calls answered",
                "submission to end", "input tokens", "output tokens", "cost"},
               rows);
}

} // namespace

std::string batch_section_html(const audit_digest& d) {
  std::string body;
  if (d.batches.empty())
    body =
      none("No batches: no judge of this run voted through a provider's batch "
           "API (a judge's \"batch\": {\"enabled\": true}).");
  else
    body = by_state(d.batches) + totals(d) + listing(d);
  return section(
    "batches", "Batches",
    "Votes sent through a provider's batch API: the batches by the "
    "state they reached (pending: recorded, never submitted; "
    "submitted: not ended when the audit ends), each batch's "
    "requests, the time from its submission to its end, and the "
    "batched calls that answered it with their tokens and cost at "
    "the judge's declared prices and batch discount.",
    body);
}

} // namespace ij
