#include "answers/number_words.hpp"

#include <array>
#include <cstddef>
#include <cstdint>
#include <utility>

namespace ij {

namespace {

struct named_value {
  std::string_view word;
  std::uint64_t value;
};

constexpr std::array<named_value, 20> small_words{{
  {"zero", 0},     {"one", 1},        {"two", 2},       {"three", 3},
  {"four", 4},     {"five", 5},       {"six", 6},       {"seven", 7},
  {"eight", 8},    {"nine", 9},       {"ten", 10},      {"eleven", 11},
  {"twelve", 12},  {"thirteen", 13},  {"fourteen", 14}, {"fifteen", 15},
  {"sixteen", 16}, {"seventeen", 17}, {"eighteen", 18}, {"nineteen", 19},
}};

constexpr std::array<named_value, 8> tens_words{{
  {"twenty", 20},
  {"thirty", 30},
  {"forty", 40},
  {"fifty", 50},
  {"sixty", 60},
  {"seventy", 70},
  {"eighty", 80},
  {"ninety", 90},
}};

constexpr std::array<named_value, 4> scale_words{{
  {"thousand", 1000ULL},
  {"million", 1000000ULL},
  {"billion", 1000000000ULL},
  {"trillion", 1000000000000ULL},
}};

// Denominators. The singular ordinals other than "half" and "quarter" are
// only read after a count ("one third"), never alone.
constexpr std::array<named_value, 24> fraction_words{{
  {"half", 2},         {"halves", 2},        {"third", 3},
  {"thirds", 3},       {"quarter", 4},       {"quarters", 4},
  {"fourth", 4},       {"fourths", 4},       {"fifth", 5},
  {"fifths", 5},       {"sixth", 6},         {"sixths", 6},
  {"seventh", 7},      {"sevenths", 7},      {"eighth", 8},
  {"eighths", 8},      {"ninth", 9},         {"ninths", 9},
  {"tenth", 10},       {"tenths", 10},       {"hundredth", 100},
  {"hundredths", 100}, {"thousandth", 1000}, {"thousandths", 1000},
}};

template <std::size_t N>
std::optional<std::uint64_t> lookup(const std::array<named_value, N>& table,
                                    std::string_view w) {
  for (const auto& e : table)
    if (e.word == w)
      return e.value;
  return std::nullopt;
}

bool all_digits(std::string_view s) {
  if (s.empty())
    return false;
  for (char c : s)
    if (c < '0' || c > '9')
      return false;
  return true;
}

/// Digits with one '.' inside ("1.5").
bool is_decimal_token(std::string_view s) {
  auto dot = s.find('.');
  return dot != std::string_view::npos && dot > 0 && dot + 1 < s.size()
         && all_digits(s.substr(0, dot)) && all_digits(s.substr(dot + 1));
}

enum class word_class {
  start,
  unit,
  teen,
  tens,
  hundred,
  scale,
  zero,
  digits,
  conj
};

// Common misspellings, read as the word meant ("fourty", "ninty").
constexpr std::array<std::pair<std::string_view, std::string_view>, 12>
  misspellings{{
    {"fourty", "forty"},
    {"ninty", "ninety"},
    {"nintey", "ninety"},
    {"fiveteen", "fifteen"},
    {"eightteen", "eighteen"},
    {"ninteen", "nineteen"},
    {"hundered", "hundred"},
    {"hunderd", "hundred"},
    {"hundrid", "hundred"},
    {"thousend", "thousand"},
    {"thousnad", "thousand"},
    {"milion", "million"},
  }};

std::string_view spelled(std::string_view w) {
  for (const auto& [wrong, right] : misspellings)
    if (w == wrong)
      return right;
  return w;
}

/// "twentyone" -> "twenty", "one": written-together tens and units.
void split_joined(std::string_view t, std::vector<std::string_view>& out) {
  for (const auto& e : tens_words) {
    if (t.size() > e.word.size() && t.substr(0, e.word.size()) == e.word) {
      auto rest = t.substr(e.word.size());
      auto v = lookup(small_words, rest);
      if (v && *v >= 1 && *v <= 9) {
        out.push_back(t.substr(0, e.word.size()));
        out.push_back(rest);
        return;
      }
    }
  }
  out.push_back(t);
}

std::string u64_text(std::uint64_t v) {
  return std::to_string(v);
}

/// "1.5" times 10^k as plain digits ("1500000" for k = 6).
std::string shift_decimal(std::string_view dec, int k) {
  auto dot = dec.find('.');
  std::string digits{dec.substr(0, dot)};
  std::string frac{dec.substr(dot + 1)};
  while (k > 0 && !frac.empty()) {
    digits.push_back(frac.front());
    frac.erase(0, 1);
    --k;
  }
  digits.append(static_cast<std::size_t>(k), '0');
  std::string out = digits;
  if (!frac.empty())
    out += "." + frac;
  return out;
}

int log10_of(std::uint64_t scale) {
  int k = 0;
  while (scale >= 10) {
    scale /= 10;
    ++k;
  }
  return k;
}

constexpr std::uint64_t value_cap = 1000000000000000000ULL; // 1e18

/// Classifies one token of the whole part; nullopt when it is not one.
struct classified {
  word_class cls;
  std::uint64_t value = 0;
};

std::optional<classified> classify(std::string_view t) {
  if (auto s = lookup(small_words, t))
    return classified{*s == 0 ? word_class::zero
                              : (*s < 10 ? word_class::unit : word_class::teen),
                      *s};
  if (auto te = lookup(tens_words, t))
    return classified{word_class::tens, *te};
  if (t == "hundred")
    return classified{word_class::hundred, 0};
  if (auto sc = lookup(scale_words, t))
    return classified{word_class::scale, *sc};
  if (all_digits(t) && t.size() <= 15) {
    auto v = std::stoull(std::string{t});
    return classified{v == 0 ? word_class::zero : word_class::digits, v};
  }
  return std::nullopt;
}

/// The grammar of a whole number in words: may `c` follow `prev`?
bool may_follow(word_class prev, const classified& c, std::uint64_t current,
                std::uint64_t last_scale) {
  const bool after_number = prev == word_class::unit || prev == word_class::teen
                            || prev == word_class::tens
                            || prev == word_class::digits;
  const bool group_start =
    prev == word_class::start || prev == word_class::hundred
    || prev == word_class::scale || prev == word_class::conj;
  switch (c.cls) {
    case word_class::zero: return prev == word_class::start;
    case word_class::unit:
      return group_start || (prev == word_class::tens && current % 10 == 0);
    case word_class::teen:
    case word_class::tens: return group_start;
    case word_class::digits:
      return prev == word_class::start
             || (prev == word_class::scale && c.value < 1000);
    case word_class::hundred:
      return (prev == word_class::start || after_number) && current < 100;
    case word_class::scale:
      return (prev == word_class::start || after_number
              || prev == word_class::hundred)
             && c.value < last_scale;
    default: return false;
  }
}

/// One reading of a token list: the whole part, then "point" digits or a
/// fraction.
class words_reader {
public:
  explicit words_reader(const std::vector<std::string_view>& raw_tokens) {
    toks_.reserve(raw_tokens.size() + 2);
    origin_.reserve(raw_tokens.size() + 2);
    for (std::size_t i = 0; i < raw_tokens.size(); ++i) {
      auto before = toks_.size();
      split_joined(spelled(raw_tokens[i]), toks_);
      for (auto j = before; j < toks_.size(); ++j)
        origin_.push_back(i);
    }
  }

  /// "one fifty", "two twenty-five", "nineteen ninety": a count of hundreds
  /// said without "hundred" (informal prices, years): reads X hundred Y.
  void informal_hundreds(std::size_t i) {
    if (i + 1 >= toks_.size())
      return;
    const auto count = lookup(small_words, toks_[i]);
    const auto next = toks_[i + 1];
    const auto tens = lookup(tens_words, next);
    const auto teen = lookup(small_words, next);
    if (!count || *count == 0 || !(tens || (teen && *teen >= 10)))
      return;
    toks_.insert(toks_.begin() + static_cast<std::ptrdiff_t>(i) + 1, "hundred");
    origin_.insert(origin_.begin() + static_cast<std::ptrdiff_t>(i) + 1,
                   origin_[i]);
  }

  std::optional<number_words_reading> read() {
    std::size_t i = 0;
    if (i < toks_.size() && (toks_[i] == "minus" || toks_[i] == "negative")) {
      sign_ = "-";
      ++i;
    }
    first_ = i;
    // "1.5 million": a decimal count times one scale.
    if (i + 1 < toks_.size() && is_decimal_token(toks_[i])) {
      if (auto s = lookup(scale_words, toks_[i + 1]))
        return reading(shift_decimal(toks_[i], log10_of(*s)), i + 2);
      return std::nullopt;
    }
    informal_hundreds(i);
    // A lone "half" / "quarter" (or "a half", "a quarter").
    std::size_t k = is_a(i) ? i + 1 : i;
    if (k < toks_.size() && (toks_[k] == "half" || toks_[k] == "quarter"))
      return reading(toks_[k] == "half" ? "1/2" : "1/4", k + 1);
    if (!whole_part(i))
      return std::nullopt;
    if (auto p = point_part())
      return p;
    return fraction_part();
  }

private:
  std::vector<std::string_view> toks_;
  std::vector<std::size_t> origin_; // index in raw_tokens of each token
  std::string sign_;
  std::size_t first_ = 0;
  std::uint64_t total_ = 0, current_ = 0;
  word_class prev_ = word_class::start;
  std::size_t good_end_ = 0; // tokens consumed by the last valid state
  bool any_number_ = false;

  bool is_a(std::size_t k) const { return k < toks_.size() && toks_[k] == "a"; }
  bool next_takes_a(std::size_t k) const {
    return k < toks_.size()
           && (toks_[k] == "hundred" || lookup(scale_words, toks_[k])
               || lookup(fraction_words, toks_[k]));
  }
  std::uint64_t whole() const { return total_ + current_; }

  /// Consumed counts refer to raw tokens: a joined word counts once.
  number_words_reading reading(const std::string& text, std::size_t n) const {
    return {sign_ + text, n == 0 ? 0 : origin_[n - 1] + 1};
  }

  /// Reads the whole part from `i`; false when the value is too large.
  bool whole_part(std::size_t i) {
    good_end_ = first_;
    std::uint64_t last_scale = UINT64_MAX;
    while (i < toks_.size()) {
      if (toks_[i] == "and") {
        // "two thousand and five" continues the number; "six and eight" is
        // two numbers (and "three and a half" is read by fraction_part).
        if (prev_ != word_class::hundred && prev_ != word_class::scale)
          break;
        prev_ = word_class::conj;
        ++i;
        continue;
      }
      std::optional<classified> c;
      if (is_a(i) && next_takes_a(i + 1)
          && (prev_ == word_class::start || prev_ == word_class::conj)) {
        // "a hundred", "and a half": the article counts one.
        if (prev_ == word_class::conj && lookup(fraction_words, toks_[i + 1]))
          break;
        c = classified{word_class::unit, 1};
      } else {
        c = classify(toks_[i]);
      }
      if (!c || !may_follow(prev_, *c, current_, last_scale))
        break;
      if (c->cls == word_class::hundred) {
        current_ = (current_ == 0 ? 1 : current_) * 100;
      } else if (c->cls == word_class::scale) {
        if (current_ > value_cap / c->value)
          return false;
        total_ += (current_ == 0 ? 1 : current_) * c->value;
        current_ = 0;
        last_scale = c->value;
      } else {
        current_ += c->value;
      }
      if (whole() > value_cap)
        return false;
      prev_ = c->cls;
      any_number_ = true;
      good_end_ = ++i;
      if (c->cls == word_class::zero)
        break;
    }
    return true;
  }

  /// "two point three", "one point oh five", "point 25".
  std::optional<number_words_reading> point_part() const {
    const std::size_t k = good_end_;
    if (!(k < toks_.size() && toks_[k] == "point"))
      return std::nullopt;
    std::string digits;
    std::size_t j = k + 1;
    for (; j < toks_.size(); ++j) {
      auto d = lookup(small_words, toks_[j]);
      if (d && *d <= 9) {
        digits.push_back(static_cast<char>('0' + *d));
      } else if (toks_[j] == "oh") {
        digits.push_back('0');
      } else if (digits.empty() && all_digits(toks_[j])) {
        digits = std::string{toks_[j]};
        ++j;
        break;
      } else {
        break;
      }
    }
    if (digits.empty())
      return std::nullopt;
    return reading(u64_text(whole()) + "." + digits, j);
  }

  /// "seven tenths", "one half", "1 quarter" (count over denominator);
  /// "three and a half", "two and three quarters"; else the whole number.
  std::optional<number_words_reading> fraction_part() const {
    if (!any_number_)
      return std::nullopt;
    const std::size_t k = good_end_;
    if (k < toks_.size())
      if (auto d = lookup(fraction_words, toks_[k]))
        return reading(u64_text(whole()) + "/" + u64_text(*d), k + 1);
    if (k + 2 < toks_.size() && toks_[k] == "and") {
      std::uint64_t count = 0;
      const std::size_t j = k + 1;
      if (toks_[j] == "a")
        count = 1;
      else if (auto s = lookup(small_words, toks_[j]); s && *s >= 1)
        count = *s;
      if (count > 0 && j + 1 < toks_.size()) {
        if (auto d = lookup(fraction_words, toks_[j + 1])) {
          if (whole() > value_cap / *d)
            return std::nullopt;
          return reading(u64_text(whole() * *d + count) + "/" + u64_text(*d),
                         j + 2);
        }
      }
    }
    // A bare digits token is not a number word: the plain reader owns it.
    if (good_end_ == first_ + 1 && prev_ == word_class::digits)
      return std::nullopt;
    return reading(u64_text(whole()), good_end_);
  }
};

} // namespace

bool is_number_word(std::string_view w) {
  w = spelled(w);
  return lookup(small_words, w) || lookup(tens_words, w)
         || lookup(scale_words, w) || lookup(fraction_words, w)
         || w == "hundred" || w == "point" || w == "minus" || w == "negative";
}

std::optional<number_words_reading>
read_number_words(const std::vector<std::string_view>& raw_tokens) {
  return words_reader{raw_tokens}.read();
}

} // namespace ij
