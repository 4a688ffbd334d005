#include "adapters/noisy_judge.hpp"

#include <cstdint>
#include <cstdio>
#include <string>

#include "adapters/stub_judges.hpp"
#include "answers/numeric_rule_judge.hpp"
#include "core/judge_response.hpp"

namespace ij {

namespace {

std::uint64_t splitmix(std::uint64_t& x) {
  std::uint64_t z = (x += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

double uniform(std::uint64_t& x) {
  return static_cast<double>(splitmix(x) >> 11) * 0x1.0p-53;
}

std::uint64_t fnv1a(std::string_view s) {
  std::uint64_t h = 0xcbf29ce484222325ull;
  for (unsigned char c : s)
    h = (h ^ c) * 0x100000001b3ull;
  return h;
}

class noisy_adapter : public judge_adapter {
public:
  explicit noisy_adapter(double err) : err_(err) {
    char buf[48];
    std::snprintf(buf, sizeof buf, "stub:noisy:%g", err);
    id_ = buf;
  }

  std::string id() const override {
    return id_;
  }

  bool answers_inline() const override {
    return true;
  }

  void call(const std::string& prompt, const call_options& opts,
            reply_handler done) override {
    adapter_reply r;
    r.ok = true;
    auto answers = extract_answers(prompt);
    auto truth = answers ? parse_judge_response(
                             numeric_rule_reply(answers->a, answers->b))
                             .decision
                         : judge_decision::abstain;
    if (truth != judge_decision::equivalent
        && truth != judge_decision::different) {
      r.text = canonical_reply(judge_decision::abstain,
                               "The answers cannot be read.");
      r.decision_probs = {0.05, 0.05, 0.9};
      done(std::move(r));
      return;
    }
    std::uint64_t state = fnv1a(prompt)
                          ^ (static_cast<std::uint64_t>(opts.seed.value_or(0))
                             * 0xd6e8feb86659fd93ull)
                          ^ (std::uint64_t{opts.vote_index} << 32);
    const bool sure = uniform(state) < 0.75;
    const double m = 3.925 * err_;
    const double e = sure ? err_ / 20.0 * uniform(state)
                          : m * (0.5 + uniform(state));
    const bool right = uniform(state) >= e;
    const auto flip = truth == judge_decision::equivalent
                        ? judge_decision::different
                        : judge_decision::equivalent;
    const auto decision = right ? truth : flip;
    const double p = 1.0 - e * e;
    const double other = 0.8 * (1.0 - p), abstain = 0.2 * (1.0 - p);
    r.decision_probs = decision == judge_decision::equivalent
                         ? std::vector<double>{p, other, abstain}
                         : std::vector<double>{other, p, abstain};
    r.text = canonical_reply(decision, sure ? "The answers were clear."
                                            : "The answers were hard to read.");
    done(std::move(r));
  }

private:
  double err_;
  std::string id_;
};

} // namespace

judge_adapter_ptr noisy_judge(double err) {
  return std::make_shared<noisy_adapter>(err);
}

} // namespace ij
