// The bias alarm's figures (issue 10): for each stub judge, how many
// canaries — and how many real pairs, at a given rate — a run needs before
// the alarm fires, over many seeds, with the default parameters. Each judge
// answers every canary of the set once (the stubs are deterministic); the
// run is then simulated over core/canaries/canary_plan and
// core/canaries/bias_alarm, exactly as the run session feeds them. Not a timing
// benchmark: no baseline.
//
// Usage: canary_alarm [seeds (10000)] [rate (0.05)] [pairs per run (100000)]
#include <cstdio>
#include <cstdlib>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "adapters/llm_judge_comparator.hpp"
#include "adapters/stub_judges.hpp"
#include "core/canaries/bias_alarm.hpp"
#include "core/canaries/canary_plan.hpp"
#include "core/canaries/canary_set.hpp"

using namespace ij;

namespace {

std::vector<judge_decision> decisions_of(judge_adapter& judge) {
  std::vector<judge_decision> out;
  for (auto& c : canary_set()) {
    judge_request req;
    req.pair_id = "canary";
    req.a = c.a;
    req.b = c.b;
    judge_decision d = judge_decision::parse_error;
    judge_once(
      judge, judge_options{}, req,
      [&](judge_record rec, equivalence_outcome) { d = rec.decision; });
    out.push_back(d);
  }
  return out;
}

struct fired {
  std::uint64_t canaries = 0;
  std::uint64_t pairs = 0;
};

std::optional<fired> run(const std::vector<judge_decision>& d, double rate,
                         std::uint64_t seed, std::uint64_t pairs) {
  canary_plan plan{rate, seed};
  bias_alarm alarm{alarm_params{}};
  std::uint64_t k = 0;
  for (std::uint64_t i = 0; i < pairs; ++i) {
    if (!plan.canary_before(i))
      continue;
    auto index = plan.index(k++);
    auto kind = canary_set()[index].kind;
    if (auto failed = canary_failed(kind, {d[index]}))
      if (alarm.observe("judge", kind, *failed))
        return fired{k, i};
  }
  return std::nullopt;
}

} // namespace

int main(int argc, char** argv) {
  std::uint64_t seeds = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 10000;
  double rate = argc > 2 ? std::strtod(argv[2], nullptr) : 0.05;
  std::uint64_t pairs = argc > 3 ? std::strtoull(argv[3], nullptr, 10) : 100000;
  std::printf("bias alarm, default parameters (p0 0.05, p1 0.5, alpha = beta = "
              "0.01); %llu seeds, canary rate %g, runs of %llu pairs\n",
              static_cast<unsigned long long>(seeds), rate,
              static_cast<unsigned long long>(pairs));
  std::printf("%-16s %8s %8s %8s %8s %14s\n", "judge", "fired", "min", "mean",
              "max", "mean pairs");
  std::vector<std::pair<std::string, judge_adapter_ptr>> judges{
    {"stub:equivalent", always_equivalent_judge()},
    {"stub:different", always_different_judge()},
    {"stub:abstain", always_abstain_judge()},
    {"stub:numeric", numeric_judge()},
    {"rules:math", math_judge()}};
  for (auto& [name, judge] : judges) {
    auto d = decisions_of(*judge);
    std::uint64_t n = 0, lo = ~0ull, hi = 0;
    double sum = 0, sum_pairs = 0;
    for (std::uint64_t seed = 0; seed < seeds; ++seed)
      if (auto f = run(d, rate, seed, pairs)) {
        ++n;
        lo = std::min(lo, f->canaries);
        hi = std::max(hi, f->canaries);
        sum += static_cast<double>(f->canaries);
        sum_pairs += static_cast<double>(f->pairs);
      }
    if (n == 0)
      std::printf("%-16s %8s %8s %8s %8s %14s\n", name.c_str(), "never", "-",
                  "-", "-", "-");
    else
      std::printf("%-16s %7.1f%% %8llu %8.2f %8llu %14.1f\n", name.c_str(),
                  100.0 * static_cast<double>(n) / static_cast<double>(seeds),
                  static_cast<unsigned long long>(lo),
                  sum / static_cast<double>(n),
                  static_cast<unsigned long long>(hi),
                  sum_pairs / static_cast<double>(n));
  }
  return 0;
}
