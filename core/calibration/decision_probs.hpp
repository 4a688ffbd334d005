#pragma once
// The judge's own probabilities of its three decision words, read from the
// log-probabilities a backend returned for the reply's tokens (issue 16
// item 1). Pure: the adapters turn each API's JSON into token_logprob lists.
//
// How (docs/ARCHITECTURE.md "Decision probabilities"):
//  1. The decision token: the reply text is the tokens joined; the decision
//     word starts after the first "DECISION" key ("DECISION:" line, or the
//     JSON member "decision": "..."), past colon, quotes, spaces and `*`/`_`
//     markup. The token holding the word's first character carries the
//     decision; its top alternatives are the other words the model weighed
//     at that very point.
//  2. Each candidate (the chosen token and its top alternatives, distinct
//     token texts) is stripped of leading non-letters (" EQUIV" -> "EQUIV")
//     and mapped to the word it is a case-insensitive prefix of ("EQ",
//     "Equiv" -> EQUIVALENT; the words start with different letters, so a
//     prefix names at most one), or that it starts with followed by no
//     letter ("DIFFERENT\n"). Other candidates (" ", "NOT") count for none.
//  3. P(word) = sum of exp(logprob) of its candidates, normalised over the
//     three words. A word outside the top K gets 0: its mass was below the
//     K-th alternative's and was not returned.
// Never invented: no tokens, no DECISION key, no decision token, a decision
// word that is none of the three, or no mass on any of them -> empty.
#include <string>
#include <utility>
#include <vector>

namespace ij {

struct token_logprob {
  std::string token;
  double logprob = 0.0;
  /// The top alternatives at this position (token, logprob), as returned.
  std::vector<std::pair<std::string, double>> top;
};

/// P(EQUIVALENT), P(DIFFERENT), P(ABSTAIN) (summing to 1), or empty.
std::vector<double> decision_probs_of(const std::vector<token_logprob>& tokens);

/// The index (0 EQUIVALENT, 1 DIFFERENT, 2 ABSTAIN) a candidate token stands
/// for, or -1 (rule 2 above; exposed for tests).
int decision_word_of_token(const std::string& token);

} // namespace ij
