#include <string>

#include <catch2/catch.hpp>

#include "answers/number_comparison.hpp"
#include "answers/number_reader.hpp"
#include "answers/number_words.hpp"

using namespace ij;

namespace {

std::optional<double> val(std::string_view s) {
  auto r = read_number(s);
  if (!r)
    return std::nullopt;
  return r->value;
}

bool refused(std::string_view s) {
  return !read_number(s).has_value();
}

number_relation rel(std::string_view a, std::string_view b) {
  auto x = read_number(a);
  auto y = read_number(b);
  REQUIRE(x);
  REQUIRE(y);
  return compare_numbers(*x, *y).relation;
}

std::string text_of(std::string_view s) {
  auto r = read_number(s);
  REQUIRE(r);
  return number_text(*r);
}

} // namespace

TEST_CASE("number reader: integers, decimals and signs", "[number_reader]") {
  CHECK(val("42") == 42.0);
  CHECK(val("  7.0 ") == 7.0);
  CHECK(val(".185") == 0.185);
  CHECK(val("-5") == -5.0);
  CHECK(val("+5") == 5.0);
  CHECK(val("\xE2\x88\x92"
            "3.5")
        == -3.5);          // U+2212 minus
  CHECK(val("5.") == 5.0); // sentence full stop
  CHECK(val("**42**") == 42.0);
  CHECK(val("$27$.") == 27.0);
}

TEST_CASE("number reader: thousands groups only of three digits",
          "[number_reader]") {
  CHECK(val("1,234") == 1234.0);
  CHECK(val("1,234,567") == 1234567.0);
  CHECK(val("-8,192") == -8192.0);
  CHECK(val("12,345.5") == 12345.5);
  CHECK(val("1\\,234") == 1234.0);
  CHECK(val("14{,}916") == 14916.0);
  CHECK(val("32,\\! 349") == 32349.0);
  CHECK(val("1\xE2\x80\x89"
            "000")
        == 1000.0); // thin space
  CHECK(refused("1,2"));
  CHECK(refused("1,23"));
  CHECK(refused("1,2345"));
  CHECK(refused("1234,567"));
  CHECK(refused("1,234,56"));
  // Spaces group thousands too (French, SI style), under the same rule:
  // every group three digits, the lead one to three.
  CHECK(val("1 234") == 1234.0);
  CHECK(val("1 000 000") == 1000000.0);
  CHECK(val("12 345,5") == std::nullopt);
  CHECK(refused("1 23"));
  CHECK(refused("1234 567"));
  CHECK(val("1 1/2") == 1.5); // still a mixed number
}

TEST_CASE("number reader: a decimal comma only after a lone zero",
          "[number_reader]") {
  CHECK(val("0,111") == Approx(0.111));
  CHECK(val("0,5") == 0.5);
  CHECK(refused("0,5,1"));
}

TEST_CASE("number reader: scientific notation", "[number_reader]") {
  CHECK(val("1e5") == 100000.0);
  CHECK(val("1.5E-3") == Approx(0.0015));
  CHECK(val("3 \\times 10^{4}") == 30000.0);
  CHECK(val("3\xC3\x97"
            "10^4")
        == 30000.0);
  CHECK(val("2.5 \\cdot 10^{-2}") == Approx(0.025));
  CHECK(val("10^{3}") == 1000.0);
  CHECK(text_of("1.5 \\times 10^3") == "1500");
  CHECK(refused("3 \\times 10"));
  CHECK(refused("5 \\times 6"));
  CHECK(refused("2^{10}"));
  CHECK(refused("2e"));
}

TEST_CASE("number reader: fractions", "[number_reader]") {
  CHECK(val("3/4") == 0.75);
  CHECK(val("-3/4") == -0.75);
  CHECK(val("2/(-3)") == Approx(-2.0 / 3));
  CHECK(val("\\frac{3}{4}") == 0.75);
  CHECK(val("\\dfrac{3}{4}") == 0.75);
  CHECK(val("\\tfrac{1}{8}") == 0.125);
  CHECK(val("\\frac34") == 0.75);
  CHECK(val("\\frac1{72}") == Approx(1.0 / 72));
  CHECK(val("\\frac {1}{2}") == 0.5);
  CHECK(val("\\frac{-1}{2}") == -0.5);
  CHECK(val("\\left(\\frac{3}{2}\\right)") == 1.5);
  CHECK(val("\xC2\xBD") == 0.5);
  CHECK(text_of("6/8") == "0.75");
  CHECK(refused("5/0"));
  CHECK(refused("\\frac{1}{0}"));
  CHECK(refused("\\frac{\\sqrt{3}}{3}"));
  CHECK(refused("\\frac{x}{2}"));
}

TEST_CASE("number reader: mixed numbers are whole plus proper fraction",
          "[number_reader]") {
  CHECK(val("1 1/2") == 1.5);
  CHECK(val("2\\frac{1}{4}") == 2.25);
  CHECK(val("2 \\frac12") == 2.5);
  CHECK(val("3\xC2\xBD") == 3.5);
  CHECK(val("-1 1/2") == -1.5);
  CHECK(refused("3 4/2"));
  CHECK(refused("1 2"));
}

TEST_CASE("number reader: percent keeps the written number and a flag",
          "[number_reader]") {
  auto r = read_number("50%");
  REQUIRE(r);
  CHECK(r->value == 50.0);
  CHECK(r->percent);
  for (auto s : {"50\\%", "50 percent", "50 per cent", "50 pct",
                 "50 percentage", "$50\\%$", "fifty percent"}) {
    INFO(s);
    auto p = read_number(s);
    REQUIRE(p);
    CHECK(p->percent);
    CHECK(p->value == 50.0);
  }
  CHECK(refused("50%%"));
  CHECK(refused("50% of them"));
}

TEST_CASE("number reader: currency and units", "[number_reader]") {
  CHECK(val("$1,200") == 1200.0);
  CHECK(read_number("\\$5")->unit == "usd");
  CHECK(read_number("5 dollars")->unit == "usd");
  CHECK(read_number("USD 5")->unit == "usd");
  CHECK(read_number("\xE2\x82\xAC"
                    "3")
          ->unit
        == "eur");
  CHECK(read_number("12 cm")->unit == "cm");
  CHECK(read_number("3 kg")->unit == "kg");
  CHECK(read_number("5 apples")->unit == "apple");
  CHECK(read_number("10^\\circ")->unit == "deg");
  CHECK(read_number("10^{\\circ}")->unit == "deg");
  CHECK(read_number("90\xC2\xB0")->unit == "deg");
  CHECK(read_number("72 degrees")->unit == "deg");
  CHECK(read_number("10\\text{ units}")->unit == "unit");
  CHECK(read_number("64 square feet")->unit == "square feet");
  CHECK(read_number("60 km/h")->unit == "km/h");
  CHECK(read_number("5 m")->unit == "m");
  CHECK(val("10^\\circ") == 10.0);
  CHECK(refused("2x"));
  CHECK(refused("4i"));
  CHECK(refused("3 n"));
  CHECK(refused("2 pi"));
  CHECK(refused("100\xE7\x99\xBE\xE4\xB8\x87\xE5\x86\x86")); // CJK scale
  CHECK(refused("\\$5 cm"));
}

TEST_CASE("number reader: English number words", "[number_reader]") {
  CHECK(val("twelve") == 12.0);
  CHECK(val("two hundred") == 200.0);
  CHECK(val("one thousand two hundred thirty-four") == 1234.0);
  CHECK(val("twenty-one") == 21.0);
  CHECK(val("twentyone") == 21.0);
  CHECK(val("a hundred") == 100.0);
  CHECK(val("hundred") == 100.0);
  CHECK(val("three and a half") == 3.5);
  CHECK(val("one and a quarter") == 1.25);
  CHECK(val("minus five") == -5.0);
  CHECK(val("-five") == -5.0);
  CHECK(val("zero") == 0.0);
  CHECK(val("FORTY TWO") == 42.0);
  CHECK(val("twelve hundred") == 1200.0);
  CHECK(val("two thousand and nineteen") == 2019.0);
  CHECK(val("nineteen billion and nineteen") == 19000000019.0);
  CHECK(val("one hundred and twenty three thousand and forty five")
        == 123045.0);
  CHECK(val("twentyone-thousand-four-hundred-and-seventy-three") == 21473.0);
  CHECK(val("two point three") == Approx(2.3));
  CHECK(val("point five") == 0.5);
  CHECK(val("100 thousand") == 100000.0);
  CHECK(val("1.5 million") == 1500000.0);
  CHECK(val("1 quarter") == 0.25);
  CHECK(val("quarter") == 0.25);
  CHECK(val("one half") == 0.5);
  CHECK(val("seven tenths") == Approx(0.7));
  CHECK(val("two fourths") == 0.5);
  CHECK(val("two and three quarters") == 2.75);
  CHECK(read_number("five dollars")->unit == "usd");
  CHECK(refused("third")); // an ordinal, not a fraction
  CHECK(refused("six and eight"));
  CHECK(refused("one two"));
  CHECK(refused("thousand million"));
  CHECK(refused("twelve and"));
  CHECK(refused("zero five"));
  CHECK(refused("6 and 8"));
}

TEST_CASE("number words: the longest prefix, with what was consumed",
          "[number_reader]") {
  std::vector<std::string_view> t{"three", "apples"};
  auto w = read_number_words(t);
  REQUIRE(w);
  CHECK(w->numeric_text == "3");
  CHECK(w->consumed == 1);
  std::vector<std::string_view> n{"apples"};
  CHECK_FALSE(read_number_words(n));
  CHECK(is_number_word("hundred"));
  CHECK_FALSE(is_number_word("apple"));
}

TEST_CASE("number reader: assignments and '=' chains", "[number_reader]") {
  CHECK(val("x = 5") == 5.0);
  CHECK(val("y=2") == 2.0);
  CHECK(val("$k=1$") == 1.0);
  CHECK(val("$$f(x)=1$$") == 1.0);
  CHECK(val("a_{37} = 19") == 19.0);
  CHECK(val("\\theta = 30^\\circ") == 30.0);
  CHECK(val("28 + 32 = 60") == 60.0);
  CHECK(val("$z = 1 + 1 = 2$") == 2.0);
  CHECK(val("= 7") == 7.0);
  auto a = read_number("$x\\approx11$");
  REQUIRE(a);
  CHECK(a->value == 11.0);
  CHECK(a->approximate);
  CHECK(read_number("approximately 0.58")->approximate);
  CHECK(refused("2x + z = 1"));
  CHECK(refused("x = 2, y = 3"));
  CHECK(refused("x = y + 1"));
  CHECK(refused("S_{MBCN}:S=7:32"));
}

TEST_CASE("number reader: refuses what is not one number", "[number_reader]") {
  for (auto s : {"(1, 2)",
                 "(0,9)",
                 "(0,)",
                 "[0, 1)",
                 "[1,2]",
                 "{1,2}",
                 "\\{1,2\\}",
                 "[]",
                 "1, 2, 3",
                 "3, 5, 7",
                 "\\begin{pmatrix}1 & 0\\\\0 & 1\\end{pmatrix}",
                 "\\sqrt{2}",
                 "2\\pi",
                 "x^2+1",
                 "3+4",
                 "3 - 4",
                 "x",
                 "odd",
                 "\\text{east}",
                 "E",
                 "",
                 "   ",
                 "x < 1",
                 "2 \\le x",
                 "3 \\pm 1",
                 "7:32",
                 "\\infty",
                 "e^2",
                 "5!",
                 "\\binom{4}{2}",
                 "(lambda: 0)() or 0",
                 "2**(1/4)",
                 "0.1, 4, 2"}) {
    INFO(s);
    CHECK(refused(s));
  }
}

TEST_CASE("number reader: never reads a huge text", "[number_reader]") {
  std::string big(5000, '1');
  CHECK(refused(big));
}

TEST_CASE("number reader: deep nesting is refused, not a stack overflow",
          "[number_reader]") {
  CHECK(val("((5))") == 5.0);
  CHECK(val("\\frac{\\frac{1}{2}}{2}") == 0.25);
  for (auto [open, close] :
       std::initializer_list<std::pair<const char*, const char*>>{
         {"(", ")"},
         {"{", "}"},
         {"\\frac{1}{", "}"},
         {"\\left(", "\\right)"}}) {
    std::string s;
    for (int i = 0; i < 1500; ++i)
      s += open;
    s += "5";
    for (int i = 0; i < 1500; ++i)
      s += close;
    INFO(open);
    CHECK(refused(s.substr(0, 4000)));
  }
}

TEST_CASE("number comparison: exact when both are exact", "[number_reader]") {
  CHECK(rel("100000000001000000000", "100000000000000000000")
        == number_relation::different);
  CHECK(rel("1/2", "0.5") == number_relation::equal);
  CHECK(rel("8/46", "\\frac{4}{23}") == number_relation::equal);
  CHECK(rel("1,234", "1.234") == number_relation::different);
  CHECK(rel("0.5", "0.05") == number_relation::different);
  CHECK(rel("0.1", "0.2") == number_relation::different);
  CHECK(rel("1/3", "2/3") == number_relation::different);
  CHECK(rel("1500", "1.5e3") == number_relation::equal);
  CHECK(rel("-0", "0") == number_relation::equal);
}

TEST_CASE("number comparison: a decimal that only rounds to the other side "
          "is undecidable",
          "[number_reader]") {
  CHECK(rel("\\frac{1}{3}", "0.3333") == number_relation::undecidable);
  CHECK(rel("70/9", "7.78") == number_relation::undecidable);
  CHECK(rel("\\frac{1}{12}", "0.0833333333333333") == number_relation::equal);
  CHECK(rel("1/7", "0.25") == number_relation::different);
  CHECK(rel("x \\approx 3.14", "22/7") == number_relation::undecidable);
  CHECK(rel("\\approx 0.58", "0.577") == number_relation::undecidable);
  CHECK(rel("\\approx 11", "11") == number_relation::equal);
  CHECK(rel("about 7", "8") == number_relation::different);
  // Two written decimals: when one may be the other rounded to the places
  // it gives, they are not known to differ (the default rounding: abstain).
  CHECK(rel("0.5", "0.52") == number_relation::undecidable);
  CHECK(rel("1.27\\%", "1.3\\%") == number_relation::undecidable);
  CHECK(rel("299.94", "300") == number_relation::undecidable);
  CHECK(rel("165.47 grams", "165.5 grams") == number_relation::undecidable);
  CHECK(rel("2.653", "2.65") == number_relation::undecidable);
  CHECK(rel("0.1", "0") == number_relation::different); // no digit kept
  CHECK(rel("0.04", "0.0") == number_relation::different);
  CHECK(rel("4E-385", "0") == number_relation::different); // no double zero
  // No rounding reconciles these: still different.
  CHECK(rel("0.5", "0.56") == number_relation::different);
  CHECK(rel("2.653", "2.66") == number_relation::different);
  CHECK(rel("299.94", "299.8") == number_relation::different);
  CHECK(rel("12.5", "12.4") == number_relation::different); // same places
}

namespace {

number_comparison under(std::string_view a, std::string_view b,
                        const answer_policy& p) {
  auto x = read_number(a);
  auto y = read_number(b);
  REQUIRE(x);
  REQUIRE(y);
  return compare_numbers(*x, *y, p);
}

} // namespace

TEST_CASE("answer policy rounding: abstain, strict and consistent decide a "
          "rounding, never a number no rounding reconciles",
          "[number_reader][answer_policy]") {
  answer_policy strict, consistent;
  strict.rounding = rounding_policy::strict;
  consistent.rounding = rounding_policy::consistent;
  for (auto [a, b] :
       {std::pair{"299.94", "300"}, std::pair{"1.27%", "1.3%"},
        std::pair{"\\frac{1}{3}", "0.333"}, std::pair{"2.653", "2.65"}}) {
    INFO(a << " | " << b);
    CHECK(under(a, b, {}).relation == number_relation::undecidable);
    CHECK(under(a, b, strict).relation == number_relation::different);
    CHECK(under(a, b, strict).basis == number_basis::rounding);
    auto c = under(a, b, consistent);
    CHECK(c.relation == number_relation::equal);
    CHECK(c.basis == number_basis::rounding);
    CHECK(same_value(c.shown_a, c.shown_b)); // shown as the rounding
  }
  CHECK(under("299.94", "301", consistent).relation
        == number_relation::different);
  CHECK(under("2.653", "2.64", consistent).relation
        == number_relation::different);
}

TEST_CASE("answer policy percent: either, fraction or number",
          "[number_reader][answer_policy]") {
  answer_policy fraction, number;
  fraction.percent = percent_policy::fraction;
  number.percent = percent_policy::number;
  CHECK(under("10%", "0.1", {}).relation == number_relation::equal);
  CHECK(under("10%", "10", {}).relation == number_relation::equal);
  CHECK(under("10%", "0.1", fraction).relation == number_relation::equal);
  CHECK(under("10%", "10", fraction).relation == number_relation::different);
  CHECK(under("10%", "10", number).relation == number_relation::equal);
  CHECK(under("10%", "0.1", number).relation == number_relation::different);
  CHECK(under("10%", "12%", number).relation == number_relation::different);
}

TEST_CASE("answer policy tolerance: relative and absolute",
          "[number_reader][answer_policy]") {
  answer_policy rel, abs;
  rel.relative_tolerance = 0.01;
  abs.absolute_tolerance = 0.5;
  CHECK(under("10.5%", "10.4%", {}).relation == number_relation::different);
  auto r = under("10.5%", "10.4%", rel);
  CHECK(r.relation == number_relation::equal);
  CHECK(r.basis == number_basis::tolerance);
  CHECK(under("10.5", "10.7", rel).relation == number_relation::different);
  CHECK(under("100", "100.4", abs).relation == number_relation::equal);
  CHECK(under("100", "100.6", abs).relation == number_relation::different);
  CHECK(under("100", "100.6", {}).relation == number_relation::different);
}

TEST_CASE("answer policy units: lenient ignores a one-sided unit, strict "
          "abstains",
          "[number_reader][answer_policy]") {
  answer_policy strict;
  strict.units = unit_policy::strict;
  CHECK(under("12 cm", "12", {}).relation == number_relation::equal);
  auto s = under("12 cm", "12", strict);
  CHECK(s.relation == number_relation::undecidable);
  CHECK(s.why.find("units: strict") != std::string::npos);
  CHECK(under("12 cm", "12 cm", strict).relation == number_relation::equal);
  CHECK(under("12 cm", "13 cm", strict).relation == number_relation::different);
}

TEST_CASE("answer policy fractions: reduced tells an unreduced fraction from "
          "its value",
          "[number_reader][answer_policy]") {
  answer_policy reduced;
  reduced.fractions = fraction_policy::reduced;
  CHECK(under("6/8", "3/4", {}).relation == number_relation::equal);
  auto r = under("6/8", "3/4", reduced);
  CHECK(r.relation == number_relation::different);
  CHECK(r.basis == number_basis::fractions);
  CHECK(under("\\frac{4}{6}", "\\frac{2}{3}", reduced).relation
        == number_relation::different);
  CHECK(under("3/4", "0.75", reduced).relation == number_relation::equal);
  CHECK(under("6/8", "4/8", reduced).relation == number_relation::different);
  CHECK(under("6/8", "12/16", reduced).relation == number_relation::equal);
}

TEST_CASE("number comparison: percent on one side matches p or p/100",
          "[number_reader]") {
  CHECK(rel("50%", "50") == number_relation::equal);
  CHECK(rel("50%", "0.5") == number_relation::equal);
  CHECK(rel("33.5 percent", "0.335") == number_relation::equal);
  CHECK(rel("\\frac{1}{2}\\%", "0.005") == number_relation::equal);
  CHECK(rel("5%", "0.5") == number_relation::different);
  CHECK(rel("30%", "3") == number_relation::different);
  CHECK(rel("10.5%", "10.4%") == number_relation::different);
  CHECK(rel("25%", "25 percent") == number_relation::equal);
  auto a = read_number("50%");
  auto b = read_number("0.5");
  auto c = compare_numbers(*a, *b);
  CHECK(number_text(c.shown_a) == "0.5"); // shown as the reading that matched
  CHECK(number_text(c.shown_b) == "0.5");
}

TEST_CASE("number comparison: units differing on both sides are "
          "undecidable, a unit on one side is ignored",
          "[number_reader]") {
  CHECK(rel("12 cm", "12") == number_relation::equal);
  CHECK(rel("12 cm", "12 m") == number_relation::undecidable);
  CHECK(rel("\\$5", "5 dollars") == number_relation::equal);
  CHECK(rel("\\$5", "\xE2\x82\xAC"
                    "5")
        == number_relation::undecidable);
  CHECK(rel("74^\\circ", "74\xC2\xB0") == number_relation::equal);
  CHECK(rel("8 apples", "9 apples") == number_relation::different);
  auto x = read_number("12 cm");
  auto y = read_number("12 m");
  CHECK_FALSE(compare_numbers(*x, *y).why.empty());
}

TEST_CASE("number text: compact and exact", "[number_reader]") {
  CHECK(text_of("42") == "42");
  CHECK(text_of("7.0") == "7");
  CHECK(text_of("-0.250") == "-0.25");
  CHECK(text_of("1,234,567") == "1234567");
  CHECK(text_of("100000000001000000000") == "100000000001000000000");
  CHECK(text_of("1e-30") == "1e-30");
  // A fraction that does not terminate is shown exact, so that the reply
  // parser compares what the judge compared.
  CHECK(text_of("2/3") == "2/3");
  CHECK(text_of("x \\approx 0.58") == "~0.58");
  CHECK(text_of("0.001") == "0.001");
}
