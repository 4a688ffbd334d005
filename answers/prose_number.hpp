#pragma once
// The last number of prose, for texts that state no boxed answer and no
// answer phrase ("... so there are 12 apples in total.").
#include <optional>
#include <string_view>

#include "answers/answer_provenance.hpp"

namespace ij {

/// The last number token of `s` (or the $...$ segment holding it, or the
/// value after that segment's last top-level '='), refused when it sits in
/// a list ("3 and 5", "2, 3"), a relation ("x < 2"), an unevaluated
/// expression ("3 + 4", "2x", "2^n"), parentheses, a command argument, or a
/// text that looks like code.
std::optional<std::string_view> last_number_in_prose(std::string_view s);

/// `number` (a view into `s` that last_number_in_prose gave) shares its
/// sentence with another value and nothing in the grammar before it ("is",
/// "=", "equals", "gives", ":") marks it as the answer: "She walks at 5
/// km/h, that is 1 km every 12 minutes." Such a reading may confirm an
/// equal answer but never proves a different one.
bool prose_number_is_ambiguous(std::string_view s, std::string_view number);

/// How prose states `value` (a view into `s`: the last number, or the last
/// math segment): the text's only value (no other digit or CJK numeral
/// anywhere), or the end of a concluding clause ("..., so 8 \times 9 =
/// 72.", "所以……=1332．", "Therefore $x = 5$.": a conclusion word before
/// it in its sentence, nothing but a unit and punctuation after it, and
/// the grammar marking it as the clause's value); else working
/// (answer_locator::last_number), which never proves a difference.
answer_locator prose_value_locator(std::string_view s, std::string_view value);

} // namespace ij
