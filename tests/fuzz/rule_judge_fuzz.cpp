// libFuzzer harness for the rule judges: any bytes, split at the first NUL
// into answers A and B, must give a reply that parses back cleanly (never a
// crash, a hang, a sanitizer report or a PARSE_ERROR). The same answers go
// through the pair guard (issue 29: screening and planted-verdict flags on
// folded UTF-8) and through every built-in prompt, which must give them
// back unchanged whenever it can tell them apart. Run by scripts/fuzz.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "answers/math_rule_judge.hpp"
#include "answers/numeric_rule_judge.hpp"
#include "core/guard/pair_guard.hpp"
#include "core/numbers/answer.hpp"
#include "core/prompts/prompt.hpp"
#include "core/verdicts/judge_response.hpp"

namespace {

void check(const std::string& reply) {
  auto r = ij::parse_judge_response(reply);
  if (r.decision == ij::judge_decision::parse_error || r.extra_text)
    __builtin_trap();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data,
                                      std::size_t size) {
  const std::string_view in{reinterpret_cast<const char*>(data), size};
  const auto cut = in.find('\0');
  const auto a = in.substr(0, cut);
  const auto b = cut == std::string_view::npos ? in : in.substr(cut + 1);
  check(ij::math_rule_reply(a, b));
  check(ij::numeric_rule_reply(a, b));
  auto g = ij::guard_pair(a, b);
  if (!g.screened.empty() && ij::is_absent(a) && ij::is_absent(b))
    __builtin_trap(); // absent answers are rule I1's
  for (auto& p : ij::built_in_prompts())
    if (auto back = p->extract(p->render(a, b)))
      if (back->a != a || back->b != b)
        __builtin_trap();
  return 0;
}
