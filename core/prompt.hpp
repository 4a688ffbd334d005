#pragma once
// The canonical judge prompt (SPEC §4), fixed byte for byte. A different
// prompt must declare a different id.
#include <string>
#include <string_view>

namespace ij {

inline constexpr std::string_view judge_prompt_id = "invariance-checker/judge/v1";

/// The template with its "<text A>" and "<text B>" placeholders; it ends
/// with "NUMERIC_B: <extracted number or NULL>" and no newline after it.
std::string_view judge_prompt_template();

/// SHA-256 (hex) of the template, recorded in every run manifest.
const std::string& judge_prompt_template_sha256();

/// The template with the placeholders replaced by the answers verbatim.
std::string build_judge_prompt(std::string_view a, std::string_view b);

} // namespace ij
