#include "core/prompt.hpp"

#include "core/sha256.hpp"

namespace ij {

namespace {

// SPEC §4, byte for byte: the text between the fences, lines joined by "\n",
// with NO newline after the last line ("NUMERIC_B: <extracted number or
// NULL>"). The model's reply follows the last format line directly. Any
// change here changes the SHA-256 pinned in tests/core and requires a new
// judge_prompt_id.
constexpr std::string_view template_text = R"IJ(You are judging whether two answers to the same math problem are numerically equivalent.

--- Answer A ---
<text A>

--- Answer B ---
<text B>

Rules:
- Focus ONLY on the final numeric answer, not the working steps.
- Different phrasings of the same number are equivalent (e.g., "200", "two hundred", "\boxed{200}", "answer: 200").
- If either answer is missing / incomplete / not-a-number, output ABSTAIN.
- Do not solve the problem. Only compare the final answers as given.

Respond in this EXACT format, one field per line, no extra text:
DECISION: EQUIVALENT | DIFFERENT | ABSTAIN
REASON: <one short sentence>
NUMERIC_A: <extracted number or NULL>
NUMERIC_B: <extracted number or NULL>)IJ";

constexpr std::string_view placeholder_a = "<text A>";
constexpr std::string_view placeholder_b = "<text B>";

// The placeholders are located once in the template; answers are spliced in
// by position so that an answer containing "<text B>" is never substituted.
constexpr std::size_t pos_a = template_text.find(placeholder_a);
constexpr std::size_t pos_b = template_text.find(placeholder_b);
static_assert(pos_a != std::string_view::npos);
static_assert(pos_b != std::string_view::npos);
static_assert(pos_a + placeholder_a.size() <= pos_b);

} // namespace

std::string_view judge_prompt_template() {
  return template_text;
}

const std::string& judge_prompt_template_sha256() {
  static const std::string digest = sha256_hex(template_text);
  return digest;
}

std::string build_judge_prompt(std::string_view a, std::string_view b) {
  constexpr auto head = template_text.substr(0, pos_a);
  constexpr auto middle = template_text.substr(
    pos_a + placeholder_a.size(), pos_b - pos_a - placeholder_a.size());
  constexpr auto tail = template_text.substr(pos_b + placeholder_b.size());
  std::string out;
  out.reserve(head.size() + a.size() + middle.size() + b.size() + tail.size());
  out.append(head).append(a).append(middle).append(b).append(tail);
  return out;
}

} // namespace ij
