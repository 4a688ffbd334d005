#include <string>
#include <utility>
#include <vector>

#include <catch2/catch.hpp>

#include "core/numbers/comparators.hpp"

using namespace ij;

namespace {

std::optional<bool> eq(const sync_comparator& c, std::string_view a,
                       std::string_view b) {
  return c(a, b).equivalent;
}

// A table of pairs with every outcome of both comparators among them.
const std::vector<std::pair<std::string, std::string>> pairs = {
  {"42", "42"},
  {"42", " 42\n"},
  {"42", "43"},
  {"", "42"},
  {"42", "   "},
  {"", ""},
  {"The answer is 200.", "\\boxed{200}"},
  {"The answer is 12, not 7.", "7"},
  {"1,234", "1234"},
  {"x = -7", "-7"},
  {"3.50", "3.5"},
  {"blue", "green"},
  {"I don't know", "12"},
  {"two hundred", "200"},
  {"Step 1: 5 + 5 = 10. Answer: 10", "10"},
  {"\\frac{1}{2}", "0.5"},
  {"100%", "1"},
  {"答えは 200", "200"},
};

} // namespace

TEST_CASE("comparators: exact_match") {
  auto c = exact_match();
  CHECK(c("42", "42") == equivalence_outcome{true, 1.0, "exact", false});
  CHECK(eq(c, "  42\n", "42\t") == true);
  CHECK(c("42", "43") == equivalence_outcome{false, 1.0, "not exact", false});
  CHECK(eq(c, "42", "42.0") == false);
  CHECK(eq(c, "Forty two", "forty two") == false);
  CHECK(eq(c, "a b", "a  b") == false); // inner whitespace counts
  CHECK(c("", "42") == equivalence_outcome{std::nullopt, 0.0, "absent", false});
  CHECK(eq(c, "42", " \n\t") == std::nullopt);
  CHECK(eq(c, "", "") == std::nullopt);
}

TEST_CASE("comparators: numeric_match picks the last number") {
  auto c = numeric_match();
  // The model states the answer first, then other numbers: mis-read, as the
  // brittle baseline is meant to.
  CHECK(eq(c, "The answer is 12. I checked with 3 and 4.", "12") == false);
  CHECK(eq(c, "Step 1: 3+4=7. Answer: 7", "7") == true);
  CHECK(eq(c, "12 apples cost $3", "3") == true);
  CHECK(eq(c, "\\boxed{200}", "The answer is 200.") == true);
  CHECK(eq(c, "x = -7", "-7") == true);
  CHECK(eq(c, "x = -7", "7") == false);
  CHECK(eq(c, "from 3-5", "-5") == true); // "-5" is the last match
  CHECK(eq(c, "+8", "8") == true);
  CHECK(eq(c, "3.50", "3.5") == true);
  CHECK(eq(c, "It is 3.", "3") == true);     // a period with no digit after
  CHECK(eq(c, "\\frac{1}{2}", "2") == true); // not smart about fractions
  CHECK(eq(c, "two hundred", "200") == std::nullopt);
}

TEST_CASE("comparators: numeric_match thousands groups") {
  auto c = numeric_match();
  CHECK(eq(c, "1,234", "1234") == true);
  CHECK(eq(c, "1,234,567.5", "1234567.5") == true);
  CHECK(eq(c, "-12,000", "-12000") == true);
  // Not a group of three digits: the regex-like scan splits the token.
  CHECK(eq(c, "1,2345", "5") == true);
  CHECK(eq(c, "1,23", "23") == true);
  CHECK(eq(c, "Totals: 4, 5", "5") == true);
}

TEST_CASE("comparators: numeric_match tolerances") {
  CHECK(eq(numeric_match(), "0.1", "0.1000001") == false);
  CHECK(eq(numeric_match(1e-6), "0.1", "0.1000001") == true);
  CHECK(eq(numeric_match(1e-6), "0.1", "0.100002") == false);
  CHECK(eq(numeric_match(0.5), "10", "10.5") == true);
  CHECK(eq(numeric_match(0.5), "10", "10.6") == false);
  // Relative: 1% of max(|x|,|y|) = 10.1 for 1000 vs 1010.
  CHECK(eq(numeric_match(0, 0.01), "1000", "1010") == true);
  CHECK(eq(numeric_match(0, 0.01), "1000", "1011") == false);
  // The larger of the two tolerances applies.
  CHECK(eq(numeric_match(2, 0.001), "5", "7") == true);
  CHECK(eq(numeric_match(0.001, 0.5), "5", "9") == true);
  CHECK(eq(numeric_match(0.001, 0.5), "5", "11") == false);
  auto o = numeric_match()("1", "1");
  CHECK(o == equivalence_outcome{true, 1.0, "numeric equal", false});
  CHECK(numeric_match()("1", "2")
        == equivalence_outcome{false, 1.0, "numeric differ", false});
}

TEST_CASE("comparators: numeric_match no number is null") {
  auto c = numeric_match(1.0, 1.0);
  auto none = equivalence_outcome{std::nullopt, 0.0, "no number", false};
  CHECK(c("blue", "7") == none);
  CHECK(c("7", "I don't know") == none);
  CHECK(c("", "") == none);
  CHECK(c("-", "+") == none);
  CHECK(c("1e", "1") == equivalence_outcome{true, 1.0, "numeric equal", false});
}

TEST_CASE("comparators: numeric_match very long numbers") {
  auto c = numeric_match();
  std::string big(400, '9');
  CHECK(eq(c, big, big) == true); // both overflow to infinity
  std::string grouped = "1";
  for (int i = 0; i < 40; ++i)
    grouped += ",000";
  CHECK(eq(c, grouped, "1e120") == false); // "1e120" reads as 120
  CHECK(eq(c, grouped, grouped) == true);
}

TEST_CASE("comparators: promote_sync equals the sync comparator") {
  REQUIRE(pairs.size() >= 15);
  const std::vector<std::pair<const char*, sync_comparator>> comparators = {
    {"exact_match", exact_match()},
    {"numeric_match", numeric_match()},
    {"numeric_match(0.5, 0.01)", numeric_match(0.5, 0.01)},
  };
  for (const auto& [name, c] : comparators) {
    auto async = promote_sync(c);
    for (const auto& [a, b] : pairs) {
      CAPTURE(name, a, b);
      int calls = 0;
      equivalence_outcome got;
      async(a, b, [&](equivalence_outcome o) {
        ++calls;
        got = std::move(o);
      });
      CHECK(calls == 1);
      CHECK(got == c(a, b));
    }
  }
}
