#include "core/number_words.hpp"

#include <array>
#include <cstdint>
#include <utility>

namespace ij {

namespace {

struct named_value {
  std::string_view word;
  std::uint64_t value;
};

constexpr std::array<named_value, 20> small_words{{
  {"zero", 0},       {"one", 1},        {"two", 2},        {"three", 3},
  {"four", 4},       {"five", 5},       {"six", 6},        {"seven", 7},
  {"eight", 8},      {"nine", 9},       {"ten", 10},       {"eleven", 11},
  {"twelve", 12},    {"thirteen", 13},  {"fourteen", 14},  {"fifteen", 15},
  {"sixteen", 16},   {"seventeen", 17}, {"eighteen", 18},  {"nineteen", 19},
}};

constexpr std::array<named_value, 8> tens_words{{
  {"twenty", 20}, {"thirty", 30},  {"forty", 40},  {"fifty", 50},
  {"sixty", 60},  {"seventy", 70}, {"eighty", 80}, {"ninety", 90},
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
  {"half", 2},        {"halves", 2},       {"third", 3},
  {"thirds", 3},      {"quarter", 4},      {"quarters", 4},
  {"fourth", 4},      {"fourths", 4},      {"fifth", 5},
  {"fifths", 5},      {"sixth", 6},        {"sixths", 6},
  {"seventh", 7},     {"sevenths", 7},     {"eighth", 8},
  {"eighths", 8},     {"ninth", 9},        {"ninths", 9},
  {"tenth", 10},      {"tenths", 10},      {"hundredth", 100},
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
  start, unit, teen, tens, hundred, scale, zero, digits, conj
};

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

} // namespace

bool is_number_word(std::string_view w) {
  return lookup(small_words, w) || lookup(tens_words, w)
         || lookup(scale_words, w) || lookup(fraction_words, w)
         || w == "hundred" || w == "point" || w == "minus"
         || w == "negative";
}

std::optional<number_words_reading>
read_number_words(const std::vector<std::string_view>& raw_tokens) {
  std::vector<std::string_view> toks;
  std::vector<std::size_t> origin; // index in raw_tokens of each token
  toks.reserve(raw_tokens.size() + 2);
  origin.reserve(raw_tokens.size() + 2);
  for (std::size_t i = 0; i < raw_tokens.size(); ++i) {
    auto before = toks.size();
    split_joined(raw_tokens[i], toks);
    for (auto j = before; j < toks.size(); ++j)
      origin.push_back(i);
  }
  // Consumed counts refer to raw tokens: a joined word counts once.
  auto raw_consumed = [&](std::size_t n) -> std::size_t {
    return n == 0 ? 0 : origin[n - 1] + 1;
  };

  std::size_t i = 0;
  bool negative = false;
  if (i < toks.size() && (toks[i] == "minus" || toks[i] == "negative")) {
    negative = true;
    ++i;
  }
  const std::string sign = negative ? "-" : "";
  const std::size_t first = i;

  // "1.5 million": a decimal count times one scale.
  if (i + 1 < toks.size() && is_decimal_token(toks[i])) {
    if (auto s = lookup(scale_words, toks[i + 1]))
      return number_words_reading{
        sign + shift_decimal(toks[i], log10_of(*s)), raw_consumed(i + 2)};
    return std::nullopt;
  }

  auto is_a = [&](std::size_t k) { return k < toks.size() && toks[k] == "a"; };
  auto next_takes_a = [&](std::size_t k) {
    if (k >= toks.size())
      return false;
    return toks[k] == "hundred" || lookup(scale_words, toks[k])
           || lookup(fraction_words, toks[k]);
  };

  // A lone "half" / "quarter" (or "a half", "a quarter").
  {
    std::size_t k = i;
    if (is_a(k))
      ++k;
    if (k < toks.size() && (toks[k] == "half" || toks[k] == "quarter")) {
      return number_words_reading{
        sign + "1/" + (toks[k] == "half" ? "2" : "4"), raw_consumed(k + 1)};
    }
  }

  std::uint64_t total = 0, current = 0, last_scale = UINT64_MAX;
  word_class prev = word_class::start;
  std::size_t good_end = first; // tokens consumed by the last valid state
  bool any_number = false;

  auto group_value = [&]() { return total + current; };

  while (i < toks.size()) {
    auto t = toks[i];
    if (t == "and") {
      // "two thousand and five" continues the number; "six and eight" is
      // two numbers (and "three and a half" is read below).
      if (prev != word_class::hundred && prev != word_class::scale)
        break;
      prev = word_class::conj;
      ++i;
      continue;
    }
    std::optional<std::uint64_t> v;
    word_class c;
    if (is_a(i) && next_takes_a(i + 1)
        && (prev == word_class::start || prev == word_class::conj)) {
      // "a hundred", "and a half": the article counts one.
      if (prev == word_class::conj
          && lookup(fraction_words, toks[i + 1]))
        break; // "three and a half" is read below
      v = 1;
      c = word_class::unit;
    } else if (auto s = lookup(small_words, t)) {
      v = s;
      c = *s == 0 ? word_class::zero
                  : (*s < 10 ? word_class::unit : word_class::teen);
    } else if (auto te = lookup(tens_words, t)) {
      v = te;
      c = word_class::tens;
    } else if (t == "hundred") {
      c = word_class::hundred;
    } else if (auto sc = lookup(scale_words, t)) {
      v = sc;
      c = word_class::scale;
    } else if (all_digits(t) && t.size() <= 15) {
      v = std::stoull(std::string{t});
      c = *v == 0 ? word_class::zero : word_class::digits;
    } else {
      break;
    }

    bool ok = false;
    switch (c) {
      case word_class::zero:
        ok = prev == word_class::start;
        break;
      case word_class::unit:
        ok = prev == word_class::start || prev == word_class::hundred
             || prev == word_class::scale || prev == word_class::conj
             || (prev == word_class::tens && current % 10 == 0);
        break;
      case word_class::teen:
      case word_class::tens:
        ok = prev == word_class::start || prev == word_class::hundred
             || prev == word_class::scale || prev == word_class::conj;
        break;
      case word_class::digits:
        ok = prev == word_class::start
             || (prev == word_class::scale && *v < 1000);
        break;
      case word_class::hundred:
        ok = (prev == word_class::start || prev == word_class::unit
              || prev == word_class::teen || prev == word_class::tens
              || prev == word_class::digits)
             && current < 100;
        break;
      case word_class::scale:
        ok = (prev == word_class::start || prev == word_class::unit
              || prev == word_class::teen || prev == word_class::tens
              || prev == word_class::hundred || prev == word_class::digits)
             && *v < last_scale;
        break;
      default:
        break;
    }
    if (!ok)
      break;
    switch (c) {
      case word_class::hundred:
        current = (current == 0 ? 1 : current) * 100;
        break;
      case word_class::scale:
        if (current > value_cap / *v)
          return std::nullopt;
        total += (current == 0 ? 1 : current) * *v;
        current = 0;
        last_scale = *v;
        break;
      default:
        current += *v;
        break;
    }
    if (group_value() > value_cap)
      return std::nullopt;
    prev = c;
    any_number = true;
    ++i;
    good_end = i;
    if (c == word_class::zero)
      break;
  }

  // After the whole part: "point" and digit words, or a fraction.
  std::size_t k = good_end;
  const std::uint64_t whole = group_value();

  if (k < toks.size() && toks[k] == "point") {
    std::string digits;
    std::size_t j = k + 1;
    while (j < toks.size()) {
      auto d = lookup(small_words, toks[j]);
      if (d && *d <= 9) {
        digits.push_back(static_cast<char>('0' + *d));
      } else if (toks[j] == "oh") {
        digits.push_back('0');
      } else if (digits.empty() && all_digits(toks[j])) {
        digits = std::string{toks[j]};
        ++j;
        break;
      } else {
        break;
      }
      ++j;
    }
    if (!digits.empty())
      return number_words_reading{sign + u64_text(whole) + "." + digits,
                                  raw_consumed(j)};
  }

  if (any_number) {
    // "seven tenths", "one half", "1 quarter": count over denominator.
    if (k < toks.size()) {
      if (auto d = lookup(fraction_words, toks[k]))
        return number_words_reading{
          sign + u64_text(whole) + "/" + u64_text(*d), raw_consumed(k + 1)};
    }
    // "three and a half", "two and three quarters".
    if (k + 2 < toks.size() && toks[k] == "and") {
      std::uint64_t count = 0;
      std::size_t j = k + 1;
      if (toks[j] == "a") {
        count = 1;
      } else if (auto s = lookup(small_words, toks[j]); s && *s >= 1) {
        count = *s;
      }
      if (count > 0 && j + 1 < toks.size()) {
        if (auto d = lookup(fraction_words, toks[j + 1])) {
          if (whole > value_cap / *d)
            return std::nullopt;
          auto num = whole * *d + count;
          return number_words_reading{
            sign + u64_text(num) + "/" + u64_text(*d), raw_consumed(j + 2)};
        }
      }
    }
    // A bare digits token is not a number word: the plain reader owns it.
    if (good_end == first + 1 && prev == word_class::digits)
      return std::nullopt;
    return number_words_reading{sign + u64_text(whole),
                                raw_consumed(good_end)};
  }
  return std::nullopt;
}

} // namespace ij
