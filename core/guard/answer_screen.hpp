#pragma once
// Screening before any judge call (issue 29): an answer that states no
// result — punctuation only, or only a reasoning opener or an answer marker
// with nothing after it ("Thought process:", "Let's solve this problem step
// by step.", "Solution", "解", "かいせつ", "Respuesta", "The answer is") — is
// ABSTAIN without a call: SPEC §4's rule for a missing or incomplete answer,
// applied before a judge can be fooled by it (such "master keys" are judged
// correct by GPT-4o- and Claude-class judges at rates up to 73%, and voting
// does not help: arXiv 2507.08794). An empty answer stays absent (rule I1).
//
// The openers and markers are listed for every language the answer readers
// know (English, Chinese, Japanese, Korean, Russian, French, German,
// Spanish, Portuguese, Italian, Vietnamese), matched as whole words on
// folded text (core/guard/text_fold.hpp); markup and wrappers around them
// ("**Solution:**", "\boxed{}", "$...$") count as nothing. Pure.
#include <optional>
#include <string>
#include <string_view>

namespace ij {

/// Why `answer` states no result ("punctuation only", "only a reasoning
/// opener or answer marker (\"solution\")"), or nullopt when it may state
/// one (or is absent, which rule I1 handles).
std::optional<std::string> screen_answer(std::string_view answer);

/// The same, given the answer's folded text (fold_text(answer)), which the
/// caller folds once for this and the planted-verdict flags.
std::optional<std::string> screen_answer(std::string_view answer,
                                         std::string_view folded);

} // namespace ij
