#include "tests/http/prompt_models.hpp"

#include <utility>

#include "adapters/gullible_judge.hpp"
#include "adapters/stub_judges.hpp"
#include "answers/math_rule_judge.hpp"
#include "core/prompts/prompt.hpp"

namespace ij::test {

namespace {

std::string abstain(const std::string& why) {
  return canonical_reply(judge_decision::abstain, why);
}

} // namespace

prompt_model rule_model() {
  return [](const std::string& prompt) {
    auto answers = extract_answers(prompt);
    return answers ? math_rule_reply(answers->a, answers->b)
                   : abstain("The answers cannot be read out of this prompt.");
  };
}

prompt_model gullible_model(prompt_model honest) {
  return [honest = std::move(honest)](const std::string& prompt) {
    if (auto answers = extract_answers(prompt))
      if (auto d = gullible_decision(answers->a, answers->b))
        return canonical_reply(*d, "As the answers say.");
    return honest(prompt);
  };
}

prompt_model model_for_prompt(prompt_ptr t, prompt_model inner) {
  return
    [t = std::move(t), inner = std::move(inner)](const std::string& prompt) {
      auto answers = t->extract(prompt);
      if (!answers)
        return abstain(
          "This prompt asks for numbers; the answers are not numbers.");
      return inner(build_judge_prompt(answers->a, answers->b));
    };
}

} // namespace ij::test
