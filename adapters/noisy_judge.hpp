#pragma once
// "stub:noisy:ERR": a judge with a declared error rate whose decision
// probabilities carry signal (issue 16), for calibration tests and the
// calibration benchmark; no network, replies inline.
//
// The truth is the numeric rule judge's decision on the prompt's answers.
// Each call draws, from the prompt and the call's seed and vote index
// (deterministic, different per vote), its own error probability e: with
// probability 3/4 a "sure" vote, e uniform in [0, ERR/20]; otherwise an
// "unsure" one, e uniform in [m/2, 3m/2] with m = 3.925 ERR, so that the
// mean of e is ERR. The decision is wrong with probability e. The reported
// probability of the decision taken is 1 - e^2 (overconfident, monotone in
// e: calibration has something to fix); the other decision gets 80 % of the
// rest, ABSTAIN 20 %. Answers the rule judge cannot read: ABSTAIN.
#include <cstdint>
#include <optional>
#include <string_view>

#include "adapters/judge_adapter.hpp"

namespace ij {

/// The largest error rate the noise model can honour (e stays below 1).
inline constexpr double noisy_judge_max_error = 0.15;

/// One vote's draw of the noise model above: whether it is a sure vote, its
/// error probability e and whether it takes the true decision. Public so
/// that a fake server can err exactly like the stub (bench/calibration_bench).
struct noise_draw {
  bool sure = false;
  double error = 0.0;
  bool right = true;
};
noise_draw draw_noise(double err, std::string_view prompt, std::int64_t seed,
                      std::uint32_t vote_index);

/// The noisy judge at error rate `err`, 0 <= err <= noisy_judge_max_error.
judge_adapter_ptr noisy_judge(double err);

} // namespace ij
