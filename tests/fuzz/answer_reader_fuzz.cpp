// libFuzzer harness for the answer readers on their own: the final-answer
// finder with its markers in every language (answers/answer_markers),
// provenance and conclusions (prose_number), Chinese numbers and roots,
// Unicode math (cleaning), the number reader and the symbolic finder. Any
// bytes must give views inside the text, a provenance that says what it
// found, and never a crash, a hang or a sanitizer report. Seeds:
// tests/fuzz/reader_corpus. Run by scripts/fuzz.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "answers/answer_phrase.hpp"
#include "answers/final_answer.hpp"
#include "answers/final_expression.hpp"
#include "answers/number_reader.hpp"
#include "answers/prose_number.hpp"

namespace {

bool inside(std::string_view part, std::string_view whole) {
  return part.empty()
         || (part.data() >= whole.data()
             && part.data() + part.size() <= whole.data() + whole.size());
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data,
                                      std::size_t size) {
  const std::string_view text{reinterpret_cast<const char*>(data), size};
  if (auto found = ij::find_final_answer(text)) {
    if (!inside(found->text, text))
      __builtin_trap();
    if (found->located_by != ij::answer_locator::boxed)
      (void)ij::prose_value_locator(text, found->text);
  }
  const auto phrase = ij::last_answer_phrase(text);
  if (phrase.at != std::string_view::npos
      && (phrase.at >= text.size() || !inside(phrase.span, text)))
    __builtin_trap();
  if (auto r = ij::read_final_number(text))
    if (r->ambiguous && r->found_by == ij::answer_locator::whole_text)
      __builtin_trap(); // a whole text has no sentence to be ambiguous in
  const auto e = ij::find_final_expressions(text);
  if (e.readings.empty() && e.found_by != ij::answer_locator::whole_text)
    __builtin_trap(); // nothing found carries no route
  (void)ij::read_number(text);
  return 0;
}
