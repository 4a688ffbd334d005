// The table of docs/ANSWER_READING.md §1 ("Answer markers and math words of
// the languages public math data comes in"): one test per entry. Each
// marker is checked three ways: it gives the value after it (EQUIVALENT to
// that value), the value is stated as the answer (DIFFERENT from another,
// even with other values in the working before it), and what is not the
// marker is not read as one.
#include <string>

#include <catch2/catch.hpp>

#include "answers/final_answer.hpp"
#include "answers/math_rule_judge.hpp"
#include "core/verdicts/judge_response.hpp"
#include "tests/answers/decide.hpp"

using namespace ij;
using namespace ij::test;

namespace {

/// `text` states `value` as its answer behind a marker: it equals it, it
/// differs from `other`, and so does the same text after working that
/// holds `other` (the marker, not the working, gives the answer).
void marks(const std::string& text, const std::string& value,
           const std::string& other) {
  CHECK(decide(value, text) == eq);
  CHECK(decide(other, text) == diff);
  CHECK(decide(other, "5 + 6 = " + other + ". " + text) == diff);
  const auto found = find_final_answer(text);
  REQUIRE(found);
  CHECK(found->located_by == answer_locator::answer_phrase);
}

} // namespace

TEST_CASE("marker en: the answer is, final answer", "[answer_markers]") {
  marks("The answer is 12.", "12", "13");
  marks("Final answer: 12", "12", "13");
  marks("**ANSWER:** $\\frac{1}{2}$", "0.5", "0.25");
}

TEST_CASE("marker en: A: on the last line", "[answer_markers]") {
  marks("He sprints 3*3=9 times\nSo he runs 9*60=540 meters\nA: 540", "540",
        "530");
  // Only on the last line: a choice list is no answer line.
  CHECK(decide("5", "A: 5\nB: 6") != eq);
}

TEST_CASE("marker zh: 答案 / 答案是 / 答案为", "[answer_markers]") {
  marks("所以答案是 12。", "12", "13");
  marks("答案：$\\frac{1}{2}$", "1/2", "1/3");
}

TEST_CASE("marker zh: 【答案】…<eoa>", "[answer_markers]") {
  marks("【解析】由题意，3+4=7。\n【答案】12<eoa>", "12", "7");
}

TEST_CASE("marker zh: 故答案为", "[answer_markers]") {
  marks("解得x=2,故答案为：$\\frac{3}{4}$", "3/4", "2");
}

TEST_CASE("marker zh: 答： (answer to a word problem)", "[answer_markers]") {
  marks("81÷27=3（台）。答：需要3台同样的拖拉机。", "3", "27");
  // 答 inside another word (回答, 解答 before a sentence) is no marker.
  CHECK(find_final_answer("他回答：我们有5个")->located_by
        != answer_locator::answer_phrase);
}

TEST_CASE("conclusion zh: 所以 / 因此 / 故 before the final value",
          "[answer_markers]") {
  CHECK(decide("1332", "由位值原理，所以和为：$$312+213=1332$$") == eq);
  CHECK(decide("1331", "由位值原理，所以和为：$$312+213=1332$$") == diff);
  CHECK(find_final_answer("3+4=7，所以共有7个苹果。")->located_by
        == answer_locator::conclusion);
  // A value in the middle of the conclusion ("31日是星期五") is no answer.
  CHECK(decide("5", "12月有31天，所以$$31$$日是星期五．") == abstain);
}

TEST_CASE("math word zh: 根号", "[answer_markers]") {
  CHECK(decide("\\sqrt{3}", "根号3") == eq);
  CHECK(decide("2\\sqrt{2}", "2根号2") == eq);
  CHECK(decide("3", "根号3") == diff);
  CHECK(decide("\\sqrt{3}", "所以答案是根号3。") == eq);
}

TEST_CASE("math word zh: 分之 (fractions, percent, mixed numbers)",
          "[answer_markers]") {
  CHECK(decide("2/3", "3分之2") == eq);
  CHECK(decide("2/3", "三分之二") == eq);
  CHECK(decide("3/2", "3分之2") == diff);
  CHECK(decide("50%", "百分之五十") == eq);
  CHECK(decide("7/3", "2又3分之1") == eq);
  CHECK(decide("-2/3", "负3分之2") == eq);
}

TEST_CASE("full-width digits and punctuation", "[answer_markers]") {
  CHECK(decide("12", "答案：１２。") == eq);
  CHECK(decide("13", "答案：１２。") == diff);
  CHECK(decide("1/2", "１／２") == eq);
  CHECK(decide("(1, 2)", "（１，２）") == eq);
}

TEST_CASE("marker ja: 答え / 解答", "[answer_markers]") {
  marks("5+6=11。答えは11です。", "11", "12");
  marks("解答：11", "11", "12");
  // 解答 heading a worked solution is no marker.
  CHECK(find_final_answer("解答：まず5個のボールがありました。")->located_by
        != answer_locator::answer_phrase);
}

TEST_CASE("marker ko: 답 / 정답", "[answer_markers]") {
  marks("정답은 5입니다", "5", "6");
  marks("답: 5", "5", "6");
  // 답 inside a word (대답 "reply") is no marker.
  CHECK(find_final_answer("그의 대답: 5개가 있다")->located_by
        != answer_locator::answer_phrase);
}

TEST_CASE("marker ru: Ответ", "[answer_markers]") {
  marks("Ответ: 11.", "11", "12");
  marks("5 + 6 = 11. Ответ — 11.", "11", "12");
}

TEST_CASE("marker fr: Réponse", "[answer_markers]") {
  marks("La réponse est 11.", "11", "12");
  marks("Réponse : 11", "11", "12");
}

TEST_CASE("marker de: Antwort", "[answer_markers]") {
  marks("Die Antwort lautet 29.", "29", "30");
  marks("Antwort: 29", "29", "30");
}

TEST_CASE("marker es: Respuesta", "[answer_markers]") {
  marks("La respuesta es 11.", "11", "12");
}

TEST_CASE("marker pt: Resposta", "[answer_markers]") {
  marks("A resposta é 11.", "11", "12");
}

TEST_CASE("marker it: Risposta", "[answer_markers]") {
  marks("La risposta è 11.", "11", "12");
}

TEST_CASE("marker vi: Đáp án", "[answer_markers]") {
  marks("Đáp án là 11.", "11", "12");
  marks("Đáp án: 11", "11", "12");
}

TEST_CASE("unicode math: π", "[answer_markers]") {
  CHECK(decide("2\\pi", "2π") == eq);
  CHECK(decide("\\frac{3\\pi}{4}", "3π/4") == eq);
  CHECK(decide("2", "2π") == diff);
}

TEST_CASE("unicode math: √", "[answer_markers]") {
  CHECK(decide("2\\sqrt{3}", "2√3") == eq);
  CHECK(decide("\\sqrt{x+1}", "√(x+1)") == eq);
  CHECK(decide("2\\sqrt{3}", "2√2") == diff);
}

TEST_CASE("unicode math: × and ÷", "[answer_markers]") {
  CHECK(decide("6", "2×3") == eq);
  CHECK(decide("3", "6÷2") == eq);
  CHECK(decide("4", "6÷2") == diff);
}

TEST_CASE("unicode math: − (minus sign)", "[answer_markers]") {
  CHECK(decide("-5", "−5") == eq);
  CHECK(decide("5", "−5") == diff);
  CHECK(decide("x-1", "x−1") == eq);
}

TEST_CASE("unicode math: superscripts and subscripts", "[answer_markers]") {
  CHECK(decide("x^2+1", "x²+1") == eq);
  CHECK(decide("x^{4}", "x⁴") == eq);
  CHECK(decide("x^{23}", "x²³") == eq);
  CHECK(decide("0.001", "10⁻³") == eq);
  CHECK(decide("1000", "10⁻³") == diff);
  CHECK(decide("a_{1}+a_{2}", "a₁+a₂") == eq);
}

TEST_CASE("unicode math: ½ and other vulgar fractions", "[answer_markers]") {
  CHECK(decide("0.5", "½") == eq);
  CHECK(decide("3/2", "1½") == eq);
  CHECK(decide("2/3", "⅔") == eq);
  CHECK(decide("0.5", "⅓") == diff);
}
