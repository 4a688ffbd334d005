#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>
#include <string>

#include "core/prompt.hpp"
#include "core/sha256.hpp"
#include "tests/required_input.hpp"

using namespace ij;

namespace {

const std::string head = "You are judging whether two answers to the same "
                         "math problem are numerically equivalent.\n\n"
                         "--- Answer A ---\n";
const std::string middle = "\n\n--- Answer B ---\n";
const std::string after_b = "\n\nRules:\n";

std::string tail_of_template() {
  auto t = judge_prompt_template();
  auto pos = t.find("<text B>");
  return std::string{t.substr(pos + 8)};
}

} // namespace

TEST_CASE("prompt: id is invariance-checker/judge/v1") {
  CHECK(judge_prompt_id == "invariance-checker/judge/v1");
}

TEST_CASE("prompt: template SHA-256 is pinned") {
  // Changing one byte of the template changes this digest; a changed prompt
  // must declare a new judge_prompt_id.
  CHECK(judge_prompt_template_sha256()
        == "b7c260f6a5785ae2e8e4dcfb3075d97d8b817ef5aac3f0326440834b15b02eae");
  CHECK(judge_prompt_template_sha256() == sha256_hex(judge_prompt_template()));
}

TEST_CASE("prompt: template has no trailing newline and ends with NUMERIC_B") {
  auto t = judge_prompt_template();
  CHECK(t.size() == 689);
  CHECK(t.substr(0, head.size()) == head);
  const std::string last = "\nNUMERIC_B: <extracted number or NULL>";
  REQUIRE(t.size() > last.size());
  CHECK(t.substr(t.size() - last.size()) == last);
  CHECK(t.find('\r') == std::string_view::npos);
  CHECK(t.find("\"\\boxed{200}\"") != std::string_view::npos);
}

TEST_CASE("prompt: template equals the fenced block of SPEC section 4") {
  std::ifstream in{std::string{IJ_SHARED_DIR} + "/SPEC.md"};
  IJ_REQUIRE_INPUT(in, IJ_SHARED_DIR "/SPEC.md");
  std::stringstream ss;
  ss << in.rdbuf();
  auto spec = ss.str();
  auto start = spec.find("```\nYou are judging");
  REQUIRE(start != std::string::npos);
  start += 4;
  auto end = spec.find("\n```", start);
  REQUIRE(end != std::string::npos);
  CHECK(spec.substr(start, end - start) == judge_prompt_template());
}

TEST_CASE("prompt: placeholders are replaced verbatim") {
  auto check = [](const std::string& a, const std::string& b) {
    auto p = build_judge_prompt(a, b);
    auto expected = head + a + middle + b + after_b;
    CHECK(p.substr(0, expected.size()) == expected);
    auto tail = tail_of_template();
    CHECK(p.size() == judge_prompt_template().size() - 16 + a.size() + b.size());
    CHECK(p.substr(p.size() - tail.size()) == tail);
  };
  SECTION("plain answers") {
    check("200", "\\boxed{200}");
    auto p = build_judge_prompt("12", "7");
    CHECK(p.find("<text A>") == std::string::npos);
    CHECK(p.find("<text B>") == std::string::npos);
  }
  SECTION("newlines and backslashes") {
    check("Step 1: 3+4=7\nStep 2: 7*2=14\nThe answer is \\boxed{14}\n",
          "\\frac{1}{2}\r\n\\\\ end");
  }
  SECTION("an answer containing the other placeholder is not re-substituted") {
    check("<text B>", "<text A>");
    check("see <text A> and <text B>", "<text B><text B>");
    auto p = build_judge_prompt("<text B>", "x");
    CHECK(p.find("--- Answer A ---\n<text B>\n\n--- Answer B ---\nx\n")
          != std::string::npos);
  }
  SECTION("UTF-8 and empty answers") {
    check("答えは 200 です — ½ ≈ 0.5 🙂", "");
    check("", "");
  }
  SECTION("embedded NUL bytes are kept") {
    check(std::string("a\0b", 3), std::string("\0", 1));
  }
}
