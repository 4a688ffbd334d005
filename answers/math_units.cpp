#include "answers/math_units.hpp"

#include <vector>

#include "answers/number_value.hpp"
#include "answers/units.hpp"
#include "core/text.hpp"

namespace ij {

namespace {

/// Math delimiters and a closing full stop around the whole expression.
std::string_view undelimited(std::string_view e) {
  for (;;) {
    e = text::trim(e);
    if (!e.empty() && e.back() == '.')
      e.remove_suffix(1);
    else if (e.size() >= 2 && e.front() == '$' && e.back() == '$')
      e = e.substr(1, e.size() - 2);
    else if (e.size() >= 4
             && ((e.substr(0, 2) == "\\[" && e.substr(e.size() - 2) == "\\]")
                 || (e.substr(0, 2) == "\\("
                     && e.substr(e.size() - 2) == "\\)")))
      e = e.substr(2, e.size() - 4);
    else
      return e;
  }
}

/// Words that qualify the value rather than measure it ("x \text{ only}",
/// "n\text{ is odd}", "2\text{nd}"): never dropped as a unit.
bool qualifier(const std::string& w) {
  static constexpr std::string_view words[] = {"only",
                                               "odd",
                                               "even",
                                               "positive",
                                               "negative",
                                               "nonnegative",
                                               "nonpositive",
                                               "real",
                                               "integer",
                                               "integers",
                                               "rational",
                                               "irrational",
                                               "complex",
                                               "imaginary",
                                               "prime",
                                               "none",
                                               "no",
                                               "undefined",
                                               "all",
                                               "each",
                                               "exactly",
                                               "about",
                                               "approximately",
                                               "approx",
                                               "st",
                                               "nd",
                                               "rd",
                                               "th",
                                               "e",
                                               "i"};
  for (auto q : words)
    if (w == q)
      return true;
  return false;
}

} // namespace

std::optional<unit_split> trailing_unit(std::string_view e) {
  e = undelimited(e);
  std::string power;
  for (std::string_view p : {"^{2}", "^{3}", "^2", "^3"}) {
    if (e.size() > p.size() && e.substr(e.size() - p.size()) == p) {
      power =
        p.size() == 2 ? std::string{p} : "^" + std::string{p.substr(2, 1)};
      e = text::trim(e.substr(0, e.size() - p.size()));
      break;
    }
  }
  if (e.empty() || e.back() != '}')
    return std::nullopt;
  const auto open = e.rfind('{');
  if (open == std::string_view::npos)
    return std::nullopt;
  std::size_t cmd = std::string_view::npos;
  for (std::string_view c : {"\\text", "\\mathrm", "\\textrm", "\\mbox"})
    if (open >= c.size() && e.substr(open - c.size(), c.size()) == c)
      cmd = open - c.size();
  if (cmd == std::string_view::npos)
    return std::nullopt;
  std::vector<std::string> words;
  std::string word;
  for (char c : e.substr(open + 1, e.size() - open - 2)) {
    if (text::is_alpha(c)) {
      word.push_back(text::lower(c));
    } else if (text::is_space(c)) {
      if (!word.empty())
        words.push_back(std::move(word));
      word.clear();
    } else {
      return std::nullopt; // "\text{ cm/s}", "\text{(A)}": not plain words
    }
  }
  if (!word.empty())
    words.push_back(std::move(word));
  for (const auto& w : words)
    if (qualifier(w))
      return std::nullopt;
  number_reading r;
  if (words.empty() || !apply_unit_words(words, r) || r.percent
      || r.unit.empty())
    return std::nullopt;
  auto value = text::trim(e.substr(0, cmd));
  // Right after a value: a digit, a closing brace or bracket, a letter
  // ("2\pi \text{ cm}").
  if (value.empty()
      || !(text::is_digit(value.back()) || text::is_alpha(value.back())
           || value.back() == '}' || value.back() == ')'))
    return std::nullopt;
  return unit_split{std::string{value}, r.unit + power};
}

} // namespace ij
