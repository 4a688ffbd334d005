#pragma once
// The canonical judge prompt (SPEC §4), fixed byte for byte, and the other
// built-in prompts (issue 29). A different prompt must declare a different
// id: ids under "invariance-checker/" are the built-ins' alone.
#include <string>
#include <string_view>
#include <vector>

#include "core/prompts/prompt_template.hpp"

namespace ij {

inline constexpr std::string_view judge_prompt_id =
  "invariance-checker/judge/v1";

/// The built-in prompt for answers that are not numbers (expressions, sets,
/// intervals, tuples, equations, inequalities, text): equality in value,
/// not in form; the same four-line reply.
inline constexpr std::string_view non_numeric_prompt_id =
  "invariance-checker/judge/non-numeric/v1";

/// The prefix reserved for built-in prompt ids.
inline constexpr std::string_view built_in_prompt_prefix =
  "invariance-checker/";

/// The template with its "<text A>" and "<text B>" placeholders; it ends
/// with "NUMERIC_B: <extracted number or NULL>" and no newline after it.
std::string_view judge_prompt_template();

/// SHA-256 (hex) of the template, recorded in every run manifest.
const std::string& judge_prompt_template_sha256();

/// The template with the placeholders replaced by the answers verbatim.
std::string build_judge_prompt(std::string_view a, std::string_view b);

/// The canonical prompt as a template.
const prompt_ptr& canonical_prompt();

/// The built-in non-numeric prompt.
const prompt_ptr& non_numeric_prompt();

/// Every built-in prompt, the canonical one first.
const std::vector<prompt_ptr>& built_in_prompts();

/// The built-in prompt of that id; null for any other id.
prompt_ptr built_in_prompt(std::string_view id);

/// The ids of the built-in prompts, for messages: "a, b".
std::string built_in_prompt_ids_text();

} // namespace ij
