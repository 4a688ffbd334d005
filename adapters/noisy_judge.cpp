#include "adapters/noisy_judge.hpp"

#include <cstdint>
#include <cstdio>
#include <string>

#include "adapters/stub_judges.hpp"
#include "answers/numeric_rule_judge.hpp"
#include "core/seeded_hash.hpp"
#include "core/verdicts/judge_response.hpp"

namespace ij {

namespace {

class noisy_adapter : public judge_adapter {
public:
  explicit noisy_adapter(double err) : err_(err) {
    char buf[48];
    std::snprintf(buf, sizeof buf, "stub:noisy:%g", err);
    id_ = buf;
  }

  std::string id() const override { return id_; }

  bool answers_inline() const override { return true; }

  void call(const std::string& prompt, const call_options& opts,
            reply_handler done) override {
    adapter_reply r;
    r.ok = true;
    auto answers = extract_answers(prompt);
    auto truth =
      answers ? parse_judge_response(numeric_rule_reply(answers->a, answers->b))
                  .decision
              : judge_decision::abstain;
    if (truth != judge_decision::equivalent
        && truth != judge_decision::different) {
      r.text =
        canonical_reply(judge_decision::abstain, "The answers cannot be read.");
      r.decision_probs = {0.05, 0.05, 0.9};
      done(std::move(r));
      return;
    }
    auto [sure, e, right] =
      draw_noise(err_, prompt, opts.seed.value_or(0), opts.vote_index);
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

noise_draw draw_noise(double err, std::string_view prompt, std::int64_t seed,
                      std::uint32_t vote_index) {
  std::uint64_t state =
    fnv1a64(prompt) ^ (static_cast<std::uint64_t>(seed) * 0xd6e8feb86659fd93ull)
    ^ (std::uint64_t{vote_index} << 32);
  noise_draw d;
  d.sure = unit_draw(state) < 0.75;
  const double m = 3.925 * err;
  d.error =
    d.sure ? err / 20.0 * unit_draw(state) : m * (0.5 + unit_draw(state));
  d.right = unit_draw(state) >= d.error;
  return d;
}

judge_adapter_ptr noisy_judge(double err) {
  return std::make_shared<noisy_adapter>(err);
}

} // namespace ij
