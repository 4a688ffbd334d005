#include "core/calibration/decision_probs.hpp"

#include <cmath>
#include <map>
#include <string_view>

#include "core/text.hpp"

namespace ij {

namespace {

constexpr std::string_view words[3] = {"EQUIVALENT", "DIFFERENT", "ABSTAIN"};

/// The offset in `text` where the decision word starts, or npos.
std::size_t decision_word_start(std::string_view text) {
  for (std::size_t at = 0; at + 8 <= text.size(); ++at) {
    if (!text::iequal_at(text, at, "decision"))
      continue;
    std::size_t i = at + 8;
    bool colon = false;
    while (i < text.size()
           && (text[i] == ':' || text[i] == '"' || text[i] == '*'
               || text[i] == '_' || text[i] == ' ' || text[i] == '\t')) {
      colon = colon || text[i] == ':';
      ++i;
    }
    if (colon && i < text.size() && text::is_alpha(text[i]))
      return i;
  }
  return std::string_view::npos;
}

} // namespace

int decision_word_of_token(const std::string& token) {
  std::string_view t{token};
  while (!t.empty() && !text::is_alpha(t.front()))
    t.remove_prefix(1);
  if (t.empty())
    return -1;
  for (int w = 0; w < 3; ++w) {
    auto word = words[w];
    auto n = std::min(t.size(), word.size());
    bool same = true;
    for (std::size_t k = 0; k < n && same; ++k)
      same = text::upper(t[k]) == word[k];
    if (!same)
      continue;
    if (t.size() <= word.size() || !text::is_alpha(t[word.size()]))
      return w;
  }
  return -1;
}

std::vector<double>
decision_probs_of(const std::vector<token_logprob>& tokens) {
  std::string text;
  for (auto& t : tokens)
    text += t.token;
  auto start = decision_word_start(text);
  if (start == std::string::npos)
    return {};
  // The token holding the word's first character.
  const token_logprob* carrier = nullptr;
  std::size_t offset = 0;
  for (auto& t : tokens) {
    if (start < offset + t.token.size()) {
      carrier = &t;
      break;
    }
    offset += t.token.size();
  }
  if (!carrier || decision_word_of_token(text.substr(start)) < 0)
    return {};
  // Distinct token texts: the chosen token usually appears among its own
  // alternatives too.
  std::map<std::string, double> candidates;
  for (auto& [token, logprob] : carrier->top)
    candidates.emplace(token, logprob);
  candidates.emplace(carrier->token, carrier->logprob);
  double mass[3] = {0, 0, 0};
  for (auto& [token, logprob] : candidates) {
    auto w = decision_word_of_token(token);
    if (w >= 0 && std::isfinite(logprob))
      mass[w] += std::exp(logprob);
  }
  double total = mass[0] + mass[1] + mass[2];
  if (!(total > 0) || !std::isfinite(total))
    return {};
  return {mass[0] / total, mass[1] / total, mass[2] / total};
}

} // namespace ij
