#pragma once
// The deterministic stub judges of SPEC §6: no network, every reply in the
// canonical four-line format (or deliberately not), so that the same parsing
// path as a real model's reply is exercised. Every stub invokes `done`
// synchronously, before `call` returns, and reports supports_seed() true.
#include <cstddef>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "adapters/judge_adapter.hpp"
#include "core/config/judge_spec.hpp"
#include "core/prompts/prompt_template.hpp"
#include "messages/judge_decision.hpp"

namespace ij {

/// The canonical reply: "DECISION: d\nREASON: r\nNUMERIC_A: a\nNUMERIC_B: b"
/// (four lines, no trailing newline). Empty numerics are written as NULL.
std::string canonical_reply(judge_decision decision, std::string_view reason,
                            std::string_view numeric_a = {},
                            std::string_view numeric_b = {});

/// "stub:equivalent": always DECISION EQUIVALENT, numerics NULL.
judge_adapter_ptr always_equivalent_judge();

/// "stub:different": always DECISION DIFFERENT, numerics NULL.
judge_adapter_ptr always_different_judge();

/// "stub:abstain": always DECISION ABSTAIN, numerics NULL.
judge_adapter_ptr always_abstain_judge();

/// "stub:malformed": a chatty reply without any DECISION line, which
/// parse_judge_response reads as PARSE_ERROR (transport ok).
judge_adapter_ptr malformed_judge();

/// The error text of failing_judge() when none is given.
inline constexpr std::string_view default_failing_error =
  "stub:failing always fails (simulated transport error)";

/// "stub:failing": every call fails in transport (ok = false, empty text,
/// `error` as given).
judge_adapter_ptr failing_judge(std::string error = std::string{
                                  default_failing_error});

/// Recovers A and B from a prompt rendered from a built-in template (the
/// canonical one, or the non-numeric one: core/prompts/prompt.hpp), using the
/// template's fixed text around the slots (prompt_template::extract): the
/// prompt must start with the text before A, end with the text after B,
/// and the middle must contain the text between the slots
/// ("\n\n--- Answer B ---\n") exactly once. Returns nullopt when the prompt
/// is no built-in's, or when an answer itself contains that separator so
/// that the split is ambiguous (e.g. A = "x\n\n--- Answer B ---\n5"). Answers
/// that merely contain newlines or a "--- Answer B ---" line without the
/// exact surrounding blank line round-trip unchanged.
std::optional<prompt_answers> extract_answers(std::string_view prompt);

/// "stub:numeric": the rule judge. Recovers A and B with extract_answers and
/// replies numeric_rule_reply(A, B). When the answers cannot be recovered it
/// does what the prompt tells a judge to do with answers it cannot read:
/// replies ABSTAIN in the canonical format, with a REASON that says the
/// prompt was no built-in one (never EQUIVALENT or DIFFERENT on a guess).
judge_adapter_ptr numeric_judge(const answer_policy& policy = {});

/// "rules:math": the embedded rule judge, numeric reading first and
/// symbolic where an answer is not one number (math_rule_reply). Like the
/// numeric stub it abstains when the prompt is not canonical. Both rule
/// judges compare under `policy`; their adapter id carries a policy other
/// than the default (" policy=..."), so cached replies never cross policies.
judge_adapter_ptr math_judge(const answer_policy& policy = {});

/// The rule judge of a given kind ("math"); nullptr for any other kind.
judge_adapter_ptr make_rule_judge(std::string_view kind,
                                  const answer_policy& policy = {});

/// The reason the rule judges give when extract_answers fails.
inline constexpr std::string_view numeric_stub_unreadable_reason =
  "The prompt is not the canonical judge prompt, or its answers cannot be "
  "told apart.";

/// What a scripted judge does once its replies are used up.
enum class script_end {
  /// Starts again from the first reply.
  cycle,
  /// Every further call fails in transport with "scripted judge exhausted
  /// after N replies".
  fail,
};

/// "stub:scripted": replies with a fixed sequence, one per call, in order.
/// Thread-safe: concurrent calls each take the next reply. It also counts
/// its calls and keeps the prompts it was sent, for tests that must show
/// whether (and with what) the judge was called.
class scripted_judge_adapter : public judge_adapter {
public:
  scripted_judge_adapter(std::vector<adapter_reply> replies, script_end end);

  std::string id() const override;
  void call(const std::string& prompt, const call_options& opts,
            reply_handler done) override;
  bool answers_inline() const override { return true; }

  /// Calls made so far (exhausted ones included).
  std::size_t calls() const;
  /// The prompts received, in call order.
  std::vector<std::string> prompts() const;
  /// The options received, in call order.
  std::vector<call_options> options() const;

private:
  std::vector<adapter_reply> replies_;
  script_end end_;
  mutable std::mutex mtx_;
  std::size_t calls_ = 0;
  std::vector<std::string> prompts_;
  std::vector<call_options> options_;
};

/// A scripted judge; an empty script with script_end::cycle fails every call
/// like an exhausted one.
std::shared_ptr<scripted_judge_adapter>
scripted_judge(std::vector<adapter_reply> replies,
               script_end end = script_end::fail);

/// A successful reply carrying `text` (for scripts).
adapter_reply text_reply(std::string text);

/// A transport failure carrying `error` (for scripts).
adapter_reply error_reply(std::string error);

/// The stub of a given kind ("numeric", "equivalent", "different",
/// "abstain", "malformed", "failing"); nullptr for any other kind.
judge_adapter_ptr make_stub_judge(std::string_view kind,
                                  const answer_policy& policy = {});

} // namespace ij
