// The judge's own decisions are invariant (issue 28): every labelled pair
// of the project's public data (../shared/data read in place, and the
// public evaluation set tests/data/eval/) is judged again with B rewritten
// in ways that keep its meaning — wrapped in a sentence with the answer
// marker of each language the readers know, in LaTeX, Unicode and plain
// forms, boxed, in \text{}, with a unit, with the thousands separators of a
// locale, with a trailing full stop. A decision that flips between
// EQUIVALENT and DIFFERENT fails the test (abstaining is allowed); the
// flips per transform are printed (docs/BENCHMARKS.md);
// IJ_SHOW_REWRITES="<transform>" lists the rewrites one abstains on.
#include <algorithm>
#include <cstdlib>
#include <functional>
#include <iomanip>
#include <iostream>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "answers/final_answer.hpp"
#include "answers/number_reader.hpp"
#include "core/text.hpp"
#include "tests/answers/labelled_pairs.hpp"
#include "tests/required_input.hpp"

using namespace ij;
using namespace ij::test;

namespace {

/// B without its outer "$...$" (or "\(...\)"), so that it can be put into
/// a sentence or a box; unchanged when it has none.
std::string inner_math(std::string b) {
  b = std::string{text::trim(b)};
  if (b.size() >= 4 && b.compare(0, 2, "$$") == 0
      && b.find('$', 2) == b.size() - 2)
    return b.substr(2, b.size() - 4);
  if (b.size() >= 2 && b.front() == '$' && b.back() == '$'
      && b.find('$', 1) == b.size() - 1)
    return b.substr(1, b.size() - 2);
  if (b.size() >= 4 && b.compare(0, 2, "\\(") == 0
      && b.compare(b.size() - 2, 2, "\\)") == 0)
    return b.substr(2, b.size() - 4);
  return b;
}

/// B on its own is an answer (no prose around it): the rewrites of an
/// answer apply. Prose (a worked solution) only gets the ones that keep a
/// text's meaning whatever it says.
bool answer_form(const std::string& b) {
  const auto found = find_final_answer(b);
  return b.size() < 200 && b.find('\n') == std::string::npos && found
         && found->located_by == answer_locator::whole_text;
}

/// B is one number written plainly (inside "$...$" or not): "1234", "$-3.5$".
bool plain_number(const std::string& b) {
  const auto s = inner_math(b);
  return answer_form(b) && !s.empty()
         && s.find_first_not_of("0123456789.-") == std::string::npos
         && read_number(s).has_value();
}

/// B is one expression, delimited or not: it may be boxed, re-delimited
/// or re-spelled as a whole.
bool math_only(const std::string& b) {
  return answer_form(b) && inner_math(b).find('$') == std::string::npos;
}

/// B as it may stand in a sentence: delimited as it is, words ("twelve",
/// "odd") as they are, else in "$...$".
std::string as_math(const std::string& b) {
  const auto s = std::string{text::trim(b)};
  int run = 0, longest = 0;
  for (char c : s) {
    run = text::is_alpha(c) ? run + 1 : 0;
    longest = std::max(longest, run);
  }
  return s.find('$') != std::string::npos || s.find("\\(") != std::string::npos
             || (longest >= 3 && s.find('\\') == std::string::npos)
           ? s
           : "$" + s + "$";
}

std::string replace_all(std::string s, const std::string& from,
                        const std::string& to) {
  for (auto at = s.find(from); at != std::string::npos;
       at = s.find(from, at + to.size()))
    s.replace(at, from.size(), to);
  return s;
}

/// "12345678" with `sep` between groups of three digits from the right.
std::string grouped(const std::string& digits, const std::string& sep) {
  std::string out;
  const std::size_t lead = digits.size() % 3 == 0 ? 3 : digits.size() % 3;
  out = digits.substr(0, lead);
  for (std::size_t k = lead; k < digits.size(); k += 3)
    out += sep + digits.substr(k, 3);
  return out;
}

bool big_integer(const std::string& b) {
  const auto s = inner_math(b);
  return plain_number(b) && s.size() >= 4 && s.size() <= 15
         && s.find_first_not_of("0123456789") == std::string::npos
         && s.front() != '0';
}

struct transform {
  std::string name;
  std::function<bool(const std::string&)> applies;
  std::function<std::string(const std::string&)> apply;
};

std::vector<transform> transforms() {
  std::vector<transform> t;
  // The answer behind the marker of each language (answers/answer_markers).
  const std::vector<std::pair<std::string, std::string>> sentences{
    {"marker en", "The answer is @."},
    {"marker zh 答案", "所以答案是@。"},
    {"marker zh 【答案】", "【答案】@<eoa>"},
    {"marker zh 故答案为", "故答案为：@"},
    {"marker zh 答：", "答：@。"},
    {"marker ja 答え", "答えは@です。"},
    {"marker ko 정답", "정답은 @입니다"},
    {"marker ru Ответ", "Ответ: @."},
    {"marker fr Réponse", "La réponse est @."},
    {"marker de Antwort", "Die Antwort lautet @."},
    {"marker es Respuesta", "La respuesta es @."},
    {"marker pt Resposta", "A resposta é @."},
    {"marker it Risposta", "La risposta è @."},
    {"marker vi Đáp án", "Đáp án là @."},
  };
  for (const auto& [name, pattern] : sentences)
    t.push_back({name, answer_form, [pattern = pattern](const std::string& b) {
                   return replace_all(pattern, "@", as_math(b));
                 }});
  // The same after a step of working whose values are not the answer: the
  // marker, not the last number, says which value is the answer.
  const std::vector<std::pair<std::string, std::string>> after_working{
    {"working, then zh 答：", "3+4=7，7×2=14。答：@。"},
    {"working, then ja 答え", "3+4=7。7×2=14。答えは@です。"},
    {"working, then ko 정답", "3+4=7, 7×2=14. 정답은 @입니다"},
    {"working, then ru Ответ", "3 + 4 = 7, 7 · 2 = 14. Ответ — @."},
    {"working, then de Antwort",
     "3 + 4 = 7 und 7 · 2 = 14. Die Antwort lautet @."},
    {"working, then vi Đáp án", "3 + 4 = 7, 7 · 2 = 14. Đáp án là @."},
  };
  for (const auto& [name, pattern] : after_working)
    t.push_back({name, answer_form, [pattern = pattern](const std::string& b) {
                   return replace_all(pattern, "@", as_math(b));
                 }});
  t.push_back({"\\boxed{}", math_only, [](const std::string& b) {
                 return "$\\boxed{" + inner_math(b) + "}$";
               }});
  t.push_back(
    {"\\text{} around a number", plain_number,
     [](const std::string& b) { return "\\text{" + inner_math(b) + "}"; }});
  t.push_back({"a unit after a number", plain_number,
               [](const std::string& b) { return inner_math(b) + " cm"; }});
  t.push_back({"$...$ delimiters", math_only,
               [](const std::string& b) { return "$" + inner_math(b) + "$"; }});
  t.push_back({"\\[...\\] delimiters", math_only, [](const std::string& b) {
                 return "\\[" + inner_math(b) + "\\]";
               }});
  t.push_back(
    {"LaTeX to Unicode", math_only, [](const std::string& b) {
       auto s = inner_math(b);
       for (const auto& [from, to] :
            std::vector<std::pair<std::string, std::string>>{{"\\pi", "π"},
                                                             {"\\times", "×"},
                                                             {"\\cdot", "·"},
                                                             {"\\div", "÷"},
                                                             {"^2", "²"},
                                                             {"^3", "³"},
                                                             {"\\leq", "≤"},
                                                             {"\\geq", "≥"},
                                                             {"\\le ", "≤ "},
                                                             {"\\ge ", "≥ "},
                                                             {"\\infty", "∞"},
                                                             {"\\pm", "±"}})
         s = replace_all(s, from, to);
       return s;
     }});
  t.push_back({"minus sign U+2212", math_only, [](const std::string& b) {
                 auto s = inner_math(b);
                 // Only a minus that is an operator or a sign: "-" between
                 // digits, letters, brackets and spaces, never in a word.
                 std::string out;
                 for (std::size_t k = 0; k < s.size(); ++k)
                   out +=
                     s[k] == '-'
                         && (k == 0 || !text::is_alpha(s[k - 1])
                             || k + 1 == s.size() || !text::is_alpha(s[k + 1]))
                       ? std::string{"−"}
                       : std::string(1, s[k]);
                 return out;
               }});
  t.push_back({"LaTeX to plain", math_only, [](const std::string& b) {
                 auto s = inner_math(b);
                 for (const auto& [from, to] :
                      std::vector<std::pair<std::string, std::string>>{
                        {"\\dfrac", "\\frac"},
                        {"\\left", ""},
                        {"\\right", ""},
                        {"\\cdot", "*"},
                        {"\\times", "*"},
                        {"\\pi", "pi"}})
                   s = replace_all(s, from, to);
                 return s;
               }});
  for (const auto& [name, sep] :
       std::vector<std::pair<std::string, std::string>>{
         {"thousands: comma (en)", ","},
         {"thousands: narrow space (SI, fr)", "\xE2\x80\xAF"},
         {"thousands: \\, (LaTeX)", "\\,"},
         {"thousands: {,} (LaTeX)", "{,}"},
         {"thousands: apostrophe (de-CH)", "'"},
         {"thousands: point (de, es, it, pt, id, vi)", "."}})
    t.push_back({name, big_integer, [sep = sep](const std::string& b) {
                   return grouped(inner_math(b), sep);
                 }});
  t.push_back(
    {"trailing full stop",
     [](const std::string& b) {
       const auto s = text::trim(b);
       return !s.empty()
              && std::string{".。!?"}.find(s.back()) == std::string::npos;
     },
     [](const std::string& b) { return std::string{text::trim(b)} + "."; }});
  return t;
}

// Under AddressSanitizer (-O0, scripts/test --sanitize) every fourth case
// is enough to look for memory errors; the invariance itself is the normal
// build's to show, on every case.
#if defined(__SANITIZE_ADDRESS__)
constexpr std::size_t case_stride = 4;
#else
constexpr std::size_t case_stride = 1;
#endif

struct flip_tally {
  int applied = 0, decided = 0, flips = 0, abstained = 0;
};

} // namespace

TEST_CASE("metamorphic: the rule judge's decisions survive meaning-keeping "
          "rewrites of B",
          "[metamorphic]") {
  std::vector<std::pair<std::string, std::vector<labelled_pair>>> sets;
  const std::string dev = IJ_SHARED_DIR "/data/equivalence-dev.jsonl";
  IJ_REQUIRE_INPUT(file_exists(dev), "the public dev set " << dev);
  sets.emplace_back("dev", load_pairs(dev, "kind"));
  for (const char* f : {"gsm8k_model_solutions.jsonl", "tal_scq5k_cn.jsonl",
                        "mgsm_exemplars.jsonl"}) {
    const std::string path = std::string{IJ_EVAL_DIR} + "/" + f;
    IJ_REQUIRE_INPUT(file_exists(path), "the public evaluation set " << path);
    sets.emplace_back(f, load_pairs(path, "source"));
  }
  const auto ts = transforms();
  std::vector<flip_tally> tally(ts.size());
  std::vector<std::string> flipped;
  int pairs = 0;
  // IJ_SHOW_REWRITES="<transform name>" prints the rewrites it abstains on.
  const char* show = std::getenv("IJ_SHOW_REWRITES");
  // Each pair as labelled, and swapped (a pair and its mirror carry the
  // same label), so that the short answers of the evaluation set are
  // rewritten too: every pair of the dev set, every tenth of the others
  // (the test stays within seconds).
  std::vector<std::pair<std::string, labelled_pair>> cases;
  for (const auto& [set, rows] : sets)
    for (std::size_t i = 0; i < rows.size(); ++i) {
      cases.emplace_back(set, rows[i]);
      if (set == "dev" || i % 10 == 0) {
        auto mirror = rows[i];
        std::swap(mirror.a, mirror.b);
        cases.emplace_back(set + " (swapped)", std::move(mirror));
      }
    }
  for (std::size_t c = 0; c < cases.size(); c += case_stride) {
    const auto& [set, p] = cases[c];
    {
      ++pairs;
      const auto base = math_says(p.a, p.b);
      for (std::size_t k = 0; k < ts.size(); ++k) {
        if (!ts[k].applies(p.b))
          continue;
        const auto b2 = ts[k].apply(p.b);
        auto& t = tally[k];
        ++t.applied;
        if (!base)
          continue;
        ++t.decided;
        const auto now = math_says(p.a, b2);
        if (!now) {
          ++t.abstained;
          if (show && ts[k].name == show)
            std::cout << "  abstained [" << ts[k].name << "] " << p.a << " | "
                      << b2 << "\n";
        } else if (*now != *base) {
          ++t.flips;
          flipped.push_back("  [" + ts[k].name + "] " + set + ": " + p.a + " | "
                            + b2);
        }
      }
    }
  }
  std::cout << "\n[answers] metamorphic rewrites of B over " << pairs
            << " public pairs and mirrors (decided: the pair before the "
               "rewrite was decided)\n"
            << "  transform                          applied  decided  "
               "abstained  flips\n";
  int total = 0;
  for (std::size_t k = 0; k < ts.size(); ++k) {
    std::cout << "  " << std::left << std::setw(34) << ts[k].name << std::right
              << std::setw(8) << tally[k].applied << std::setw(9)
              << tally[k].decided << std::setw(11) << tally[k].abstained
              << std::setw(7) << tally[k].flips << "\n";
    total += tally[k].flips;
  }
  for (const auto& f : flipped)
    std::cout << f << "\n";
  std::cout << std::flush;
  CHECK(total == 0);
  // Every transform met pairs it applies to: none is silently idle.
  for (std::size_t k = 0; k < ts.size(); ++k) {
    INFO(ts[k].name);
    CHECK(tally[k].decided > 0);
  }
}
