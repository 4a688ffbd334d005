#include "adapters/stub_judges.hpp"

#include <utility>

#include "adapters/gullible_judge.hpp"
#include "adapters/noisy_judge.hpp"
#include "answers/math_rule_judge.hpp"
#include "answers/numeric_rule_judge.hpp"
#include "core/prompts/prompt.hpp"

namespace ij {

std::string canonical_reply(judge_decision decision, std::string_view reason,
                            std::string_view numeric_a,
                            std::string_view numeric_b) {
  auto or_null = [](std::string_view x) {
    return x.empty() ? std::string_view{"NULL"} : x;
  };
  std::string out;
  out.append("DECISION: ").append(to_string(decision));
  out.append("\nREASON: ").append(reason);
  out.append("\nNUMERIC_A: ").append(or_null(numeric_a));
  out.append("\nNUMERIC_B: ").append(or_null(numeric_b));
  return out;
}

namespace {

/// A stub whose reply does not depend on the prompt.
class constant_judge : public judge_adapter {
public:
  constant_judge(std::string id, adapter_reply reply)
      : id_(std::move(id)), reply_(std::move(reply)) {}

  std::string id() const override { return id_; }

  void call(const std::string&, const call_options&,
            reply_handler done) override {
    done(reply_);
  }

  bool answers_inline() const override { return true; }

private:
  std::string id_;
  adapter_reply reply_;
};

/// A rule judge: reads A and B back from the canonical prompt and replies
/// with `rules(A, B, policy)`.
class rule_judge : public judge_adapter {
public:
  using rules = std::string (*)(std::string_view, std::string_view,
                                const answer_policy&);

  rule_judge(std::string id, rules r, const answer_policy& policy)
      : id_(policy.is_default() ? std::move(id)
                                : id + " policy=" + policy_text(policy)),
        rules_(r), policy_(policy) {}

  std::string id() const override { return id_; }

  bool answers_inline() const override { return true; }

  void call(const std::string& prompt, const call_options&,
            reply_handler done) override {
    if (auto answers = extract_answers(prompt))
      done(text_reply(rules_(answers->a, answers->b, policy_)));
    else
      done(text_reply(canonical_reply(judge_decision::abstain,
                                      numeric_stub_unreadable_reason)));
  }

private:
  std::string id_;
  rules rules_;
  answer_policy policy_;
};

std::string math_rules(std::string_view a, std::string_view b,
                       const answer_policy& policy) {
  return math_rule_reply(a, b, policy);
}

std::string numeric_rules(std::string_view a, std::string_view b,
                          const answer_policy& policy) {
  return numeric_rule_reply(a, b, policy);
}

} // namespace

std::optional<prompt_answers> extract_answers(std::string_view prompt) {
  for (auto& t : built_in_prompts())
    if (auto answers = t->extract(prompt))
      return answers;
  return std::nullopt;
}

judge_adapter_ptr always_equivalent_judge() {
  return std::make_shared<constant_judge>(
    "stub:equivalent",
    text_reply(canonical_reply(judge_decision::equivalent,
                               "This stub always answers EQUIVALENT.")));
}

judge_adapter_ptr always_different_judge() {
  return std::make_shared<constant_judge>(
    "stub:different",
    text_reply(canonical_reply(judge_decision::different,
                               "This stub always answers DIFFERENT.")));
}

judge_adapter_ptr always_abstain_judge() {
  return std::make_shared<constant_judge>(
    "stub:abstain",
    text_reply(canonical_reply(judge_decision::abstain,
                               "This stub always answers ABSTAIN.")));
}

judge_adapter_ptr malformed_judge() {
  // Plausible model chatter with numbers but no field lines at all.
  return std::make_shared<constant_judge>(
    "stub:malformed",
    text_reply("Both answers look like they arrive at 42 in the end, so I "
               "would say they match.\nHope this helps!"));
}

judge_adapter_ptr failing_judge(std::string error) {
  return std::make_shared<constant_judge>("stub:failing",
                                          error_reply(std::move(error)));
}

judge_adapter_ptr numeric_judge(const answer_policy& policy) {
  return std::make_shared<rule_judge>("stub:numeric", &numeric_rules, policy);
}

judge_adapter_ptr math_judge(const answer_policy& policy) {
  return std::make_shared<rule_judge>("rules:math", &math_rules, policy);
}

judge_adapter_ptr make_rule_judge(std::string_view kind,
                                  const answer_policy& policy) {
  return kind == "math" ? math_judge(policy) : nullptr;
}

scripted_judge_adapter::scripted_judge_adapter(
  std::vector<adapter_reply> replies, script_end end)
    : replies_(std::move(replies)), end_(end) {}

std::string scripted_judge_adapter::id() const {
  return "stub:scripted";
}

void scripted_judge_adapter::call(const std::string& prompt,
                                  const call_options& opts,
                                  reply_handler done) {
  adapter_reply reply;
  {
    std::lock_guard<std::mutex> guard{mtx_};
    auto index = calls_++;
    prompts_.push_back(prompt);
    options_.push_back(opts);
    if (index < replies_.size())
      reply = replies_[index];
    else if (end_ == script_end::cycle && !replies_.empty())
      reply = replies_[index % replies_.size()];
    else
      reply = error_reply("scripted judge exhausted after "
                          + std::to_string(replies_.size()) + " replies");
  }
  // Outside the lock: the handler may call this judge again.
  done(std::move(reply));
}

std::size_t scripted_judge_adapter::calls() const {
  std::lock_guard<std::mutex> guard{mtx_};
  return calls_;
}

std::vector<std::string> scripted_judge_adapter::prompts() const {
  std::lock_guard<std::mutex> guard{mtx_};
  return prompts_;
}

std::vector<call_options> scripted_judge_adapter::options() const {
  std::lock_guard<std::mutex> guard{mtx_};
  return options_;
}

std::shared_ptr<scripted_judge_adapter>
scripted_judge(std::vector<adapter_reply> replies, script_end end) {
  return std::make_shared<scripted_judge_adapter>(std::move(replies), end);
}

adapter_reply text_reply(std::string text) {
  adapter_reply reply;
  reply.ok = true;
  reply.text = std::move(text);
  return reply;
}

adapter_reply error_reply(std::string error) {
  adapter_reply reply;
  reply.ok = false;
  reply.error = std::move(error);
  return reply;
}

judge_adapter_ptr make_stub_judge(std::string_view kind,
                                  const answer_policy& policy) {
  if (kind == "numeric")
    return numeric_judge(policy);
  if (kind == "equivalent")
    return always_equivalent_judge();
  if (kind == "different")
    return always_different_judge();
  if (kind == "abstain")
    return always_abstain_judge();
  if (kind == "malformed")
    return malformed_judge();
  if (kind == "failing")
    return failing_judge();
  if (kind == "gullible")
    return gullible_judge(math_judge(policy));
  if (auto err = noisy_stub_error(kind))
    return noisy_judge(*err);
  return nullptr;
}

} // namespace ij
