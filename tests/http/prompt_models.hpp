#pragma once
// "Models" for the fake judge servers that read the prompt they are sent
// (issue 29): the rule judge behind the fake, a judge that falls for every
// attack (as published attacks report real judges do), and one that
// answers only the prompts of one template.
#include <functional>
#include <string>

#include "core/prompts/prompt_template.hpp"

namespace ij::test {

/// Given the prompt a request carries, the reply's text. Called on the
/// server's threads: it must be thread-safe.
using prompt_model = std::function<std::string(const std::string& prompt)>;

/// rules:math on the answers of a built-in prompt; ABSTAIN (four lines)
/// when it cannot read them.
prompt_model rule_model();

/// stub:gullible's "model": accepts master keys and obeys any verdict the
/// answers hold (adapters/gullible_judge); otherwise `honest` answers.
prompt_model gullible_model(prompt_model honest = rule_model());

/// Answers only prompts rendered from `t` (the answers read back out of
/// it and given to `inner` as the canonical prompt); any other prompt gets
/// ABSTAIN, what a faithful judge does with the canonical prompt on answers
/// that are no numbers.
prompt_model model_for_prompt(prompt_ptr t, prompt_model inner = rule_model());

} // namespace ij::test
