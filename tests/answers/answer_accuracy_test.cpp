// Accuracy of the rule judges, rules:math (math_rule_reply) and the numeric
// stub (numeric_rule_reply), read back through parse_judge_response, beside
// the brittle numeric_match baseline: on our own labelled sets (numeric and
// symbolic), and on the public dev set read in place (measured, never tuned
// to; IJ_SHOW_MISSES=1 prints the rows rules:math gets wrong or abstains on).
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "answers/math_rule_judge.hpp"
#include "answers/numeric_rule_judge.hpp"
#include "core/numbers/comparators.hpp"
#include "core/verdicts/judge_response.hpp"
#include "tests/answers/labelled_pairs.hpp"
#include "tests/required_input.hpp"

using namespace ij;
using namespace ij::test;

namespace {

/// The stub's decision as a tri-state: EQUIVALENT true, DIFFERENT false,
/// anything else null.
std::optional<bool> stub_says(const labelled_pair& p) {
  return decision_of(parse_judge_response(numeric_rule_reply(p.a, p.b)));
}

std::optional<bool> math_says(const labelled_pair& p) {
  return test::math_says(p.a, p.b);
}

std::optional<bool> numeric_match_says(const labelled_pair& p) {
  static const auto nm = numeric_match(0, 0);
  return nm(p.a, p.b).equivalent;
}

// Dev-set kinds whose final value is a rational number in some surface
// form (digits, words, fractions, percent, units, boxed, in text). The rest
// (tuple-set*, interval*, matrix, expression*, equation, relation, ratio,
// text-answer, exact-symbolic*, approximation-suffix: an irrational exact
// value, adversarial-code-payload: the candidate is code, not a number)
// are symbolic, where a numeric judge should abstain.
const std::set<std::string> numeric_kinds{
  "assignment",           "boxed",
  "decimal-comma",        "decimal-format",
  "final-answer-in-text", "fraction-notation",
  "fraction-vs-decimal",  "large-integer-exact",
  "latex-delimiters",     "latex-formatting",
  "number-words",         "percent",
  "plain-number",         "precision-rounding",
  "relative-tolerance",   "scientific-notation",
  "thousands-separator",  "unicode-number",
  "units-currency"};

// Rows whose label is one tool's policy rather than mathematics, as their
// note says: a 1% relative tolerance or rounding to k places assumed by the
// label, a few-shot example whose own remark says the label is not the
// mathematical one, or a label that a source's default setting decides
// (the note then says the source expects the opposite with it changed).
// Reported, and kept out of the precision assertions.
bool policy_label(const labelled_pair& p) {
  return p.note.find("label assumes") != std::string::npos
         || p.note.find("label is jfinqa") != std::string::npos
         || p.note.find("prompt's own remark") != std::string::npos
         || p.note.find("source default") != std::string::npos;
}

/// rules:math over `pairs` (with `labelled_only`, the pairs labelled true
/// or false), tallied per form; the pairs it got wrong or abstained on are
/// printed after the `title` line.
tally measure_math(const std::vector<labelled_pair>& pairs, bool labelled_only,
                   const std::string& title,
                   std::map<std::string, tally>& by_form) {
  tally all;
  std::vector<std::string> misses;
  for (const auto& p : pairs) {
    if (labelled_only && !p.equivalent)
      continue;
    auto s = math_says(p);
    all.add(s, p.equivalent);
    by_form[p.kind].add(s, p.equivalent);
    if (s != p.equivalent && (s || p.equivalent))
      misses.push_back(std::string{s ? "  wrong [" : "  abstained ["} + p.kind
                       + "] " + p.a + " | " + p.b);
  }
  std::cout << "\n[answers] rules:math on " << title << " (" << all.n
            << " pairs): coverage " << pct(all.coverage()) << ", precision "
            << pct(all.precision()) << " (" << all.right << "/" << all.decided
            << ")\n";
  for (const auto& m : misses)
    std::cout << m << "\n";
  return all;
}

} // namespace

TEST_CASE("answer pairs: our labelled set is well formed and covers every "
          "outcome",
          "[accuracy]") {
  auto pairs = load_pairs(IJ_ANSWER_PAIRS, "form");
  REQUIRE(pairs.size() >= 150);
  int t = 0, f = 0, z = 0;
  std::set<std::string> forms;
  for (const auto& p : pairs) {
    CHECK_FALSE(p.kind.empty());
    forms.insert(p.kind);
    (p.equivalent ? (*p.equivalent ? t : f) : z) += 1;
  }
  CHECK(t >= 50);
  CHECK(f >= 20);
  CHECK(z >= 30);
  CHECK(forms.size() >= 40);
}

TEST_CASE("numeric stub accuracy on our labelled set >= 95%, numericMatch "
          "beside it",
          "[accuracy]") {
  auto pairs = load_pairs(IJ_ANSWER_PAIRS, "form");
  REQUIRE_FALSE(pairs.empty());
  int stub_right = 0, nm_right = 0;
  std::vector<std::string> misses;
  for (const auto& p : pairs) {
    auto s = stub_says(p);
    if (s == p.equivalent)
      ++stub_right;
    else
      misses.push_back("  [" + p.kind + "] " + p.a + " | " + p.b);
    if (numeric_match_says(p) == p.equivalent)
      ++nm_right;
  }
  const double stub_acc = double(stub_right) / pairs.size();
  const double nm_acc = double(nm_right) / pairs.size();
  std::cout << "\n[answers] our labelled set (" << pairs.size()
            << " pairs; a pair is right when EQUIVALENT/DIFFERENT/ABSTAIN "
               "matches true/false/null):\n"
            << "  numeric stub  accuracy " << pct(stub_acc) << " ("
            << stub_right << "/" << pairs.size() << ")\n"
            << "  numericMatch  accuracy " << pct(nm_acc) << " (" << nm_right
            << "/" << pairs.size() << ")\n";
  for (const auto& m : misses)
    std::cout << "  stub miss" << m << "\n";
  std::cout << std::flush;
  CHECK(stub_acc >= 0.95);
  CHECK(stub_acc > nm_acc);
}

TEST_CASE("rules:math and the numeric stub on the public dev set: "
          "precision and coverage targets",
          "[accuracy]") {
  const std::string path = IJ_SHARED_DIR "/data/equivalence-dev.jsonl";
  IJ_REQUIRE_INPUT(file_exists(path), "the public dev set " << path);
  auto pairs = load_pairs(path, "kind");
  REQUIRE_FALSE(pairs.empty());
  tally stub_num, stub_sym, nm_num, nm_sym, stub_num_math, nm_num_math;
  tally math_num, math_sym, math_num_math, math_sym_math;
  std::vector<std::string> math_misses;
  for (const auto& p : pairs) {
    const bool numeric = numeric_kinds.count(p.kind) > 0;
    auto s = stub_says(p);
    auto m = numeric_match_says(p);
    auto r = math_says(p);
    (numeric ? stub_num : stub_sym).add(s, p.equivalent);
    (numeric ? nm_num : nm_sym).add(m, p.equivalent);
    (numeric ? math_num : math_sym).add(r, p.equivalent);
    if (!policy_label(p))
      (numeric ? math_num_math : math_sym_math).add(r, p.equivalent);
    if (numeric && !policy_label(p)) {
      stub_num_math.add(s, p.equivalent);
      nm_num_math.add(m, p.equivalent);
    }
    if (r != p.equivalent)
      math_misses.push_back(
        std::string{r ? "  rules:math wrong " : "  rules:math abstained "} + "["
        + p.kind + "] " + p.a.substr(0, 70) + " | " + p.b.substr(0, 70));
  }
  auto row = [](const char* name, const tally& t) {
    std::cout << "  " << std::left << std::setw(44) << name << std::right
              << std::setw(5) << t.n << std::setw(10) << pct(t.coverage())
              << std::setw(11) << pct(t.precision()) << "  (" << t.right << "/"
              << t.decided << " right; wrong: " << t.false_different
              << " DIFFERENT, " << t.false_equivalent << " EQUIVALENT)\n";
  };
  std::cout << "\n[answers] public dev set " << path << " (" << pairs.size()
            << " pairs)\n"
            << "  comparator / kinds                             pairs  "
               "coverage  precision\n";
  row("rules:math / numeric kinds", math_num);
  row("rules:math / numeric, mathematical labels", math_num_math);
  row("rules:math / symbolic kinds", math_sym);
  row("rules:math / symbolic, mathematical labels", math_sym_math);
  row("numeric stub / numeric kinds", stub_num);
  row("numeric stub / numeric, mathematical labels", stub_num_math);
  row("numeric stub / symbolic kinds", stub_sym);
  row("numericMatch / numeric kinds", nm_num);
  row("numericMatch / numeric, mathematical labels", nm_num_math);
  row("numericMatch / symbolic kinds", nm_sym);
  if (std::getenv("IJ_SHOW_MISSES"))
    for (const auto& miss : math_misses)
      std::cout << miss << "\n";
  std::cout << std::flush;
  // rules:math, the embedded default: symbolic coverage over every
  // symbolic row, precision over the mathematical labels; numeric as the
  // numeric stub is held, on the mathematical labels.
  // Floors at what was reached (symbolic 98/114, numeric 152/155).
  CHECK(math_sym.coverage() >= 0.855);
  CHECK(math_sym_math.precision() >= 1.0);
  CHECK(math_num_math.coverage() >= 0.98);
  CHECK(math_num_math.precision() >= 0.99);
  CHECK(stub_num.coverage() >= 0.90);
  CHECK(stub_num_math.precision() >= 0.99);
  CHECK(stub_num.precision() >= 0.98);
  CHECK(stub_sym.precision() >= 0.99);
}

TEST_CASE("rules:math on our numeric set: precision >= 99% and coverage "
          ">= 90%",
          "[accuracy]") {
  // The set's null labels say "not one number: a numeric judge abstains";
  // rules:math reads those symbolically, and our symbolic set measures
  // that. Here: the pairs labelled true or false.
  std::map<std::string, tally> by_form;
  auto all = measure_math(load_pairs(IJ_ANSWER_PAIRS, "form"), true,
                          "our numeric set, labelled true or false", by_form);
  std::cout << std::flush;
  CHECK(all.precision() >= 0.99);
  CHECK(all.coverage() >= 0.90);
}

TEST_CASE("rules:math on our symbolic set: precision >= 99% and coverage "
          ">= 90%",
          "[accuracy]") {
  auto pairs = load_pairs(IJ_SYMBOLIC_PAIRS, "form");
  REQUIRE(pairs.size() >= 250);
  std::map<std::string, tally> by_form;
  auto all = measure_math(pairs, false, "our symbolic set", by_form);
  for (const auto& [form, t] : by_form)
    std::cout << "  " << std::left << std::setw(16) << form << std::right
              << std::setw(4) << t.n << std::setw(9) << pct(t.coverage())
              << std::setw(9) << pct(t.precision()) << "\n";
  std::cout << std::flush;
  CHECK(all.precision() >= 0.99);
  CHECK(all.coverage() >= 0.90);
}

TEST_CASE("rules:math on our hard pairs: per category precision and coverage",
          "[accuracy]") {
  // tests/data/hard_pairs.jsonl (docs/ANSWER_READING.md §7): for each
  // problem a correct answer in another form and a close wrong one; null
  // where the right reply is ABSTAIN (a rounding, a renamed free variable,
  // two values against one of them).
  auto pairs = load_pairs(IJ_HARD_PAIRS, "category");
  REQUIRE(pairs.size() >= 300);
  std::map<std::string, tally> by;
  tally all;
  std::vector<std::string> misses;
  for (const auto& p : pairs) {
    auto s = math_says(p);
    by[p.kind].add(s, p.equivalent);
    all.add(s, p.equivalent);
    if (s != p.equivalent && s)
      misses.push_back("  wrong [" + p.kind + "] " + p.a + " | " + p.b);
  }
  std::cout << "\n[answers] rules:math on our hard pairs (" << all.n
            << "): coverage " << pct(all.coverage()) << ", precision "
            << pct(all.precision()) << "; wrong: " << all.false_different
            << " DIFFERENT, " << all.false_equivalent << " EQUIVALENT\n";
  for (const auto& [c, t] : by)
    std::cout << "  " << std::left << std::setw(14) << c << std::right
              << std::setw(4) << t.n << "  coverage " << std::setw(6)
              << pct(t.coverage()) << "  precision " << std::setw(6)
              << pct(t.precision()) << "\n";
  for (const auto& m : misses)
    std::cout << m << "\n";
  std::cout << std::flush;
  // Every category of issue 15 is present, and each holds what it reached.
  const std::map<std::string, std::pair<double, double>> floor{
    // category: {coverage, precision}
    {"which-value", {0.80, 1.0}}, {"rounding", {0.95, 1.0}},
    {"names", {0.95, 1.0}},       {"shorthand", {0.95, 1.0}},
    {"shapes", {0.95, 1.0}},      {"self-contradicting", {0.95, 1.0}}};
  for (const auto& [c, f] : floor) {
    INFO(c);
    REQUIRE(by.count(c));
    CHECK(by[c].coverage() >= f.first);
    CHECK(by[c].precision() >= f.second);
  }
}
