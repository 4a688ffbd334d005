#include <fstream>
#include <sstream>
#include <string>

#include <catch2/catch.hpp>

#include "core/prompts/prompt.hpp"
#include "core/prompts/prompt_choice.hpp"
#include "core/prompts/prompt_template.hpp"
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
    CHECK(p.size()
          == judge_prompt_template().size() - 16 + a.size() + b.size());
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

// --- Issue 29: declared templates and the built-in non-numeric prompt ------

TEST_CASE(
  "prompt: the built-in prompts, the canonical one first, ids reserved") {
  REQUIRE(built_in_prompts().size() == 2);
  CHECK(built_in_prompts()[0]->id() == judge_prompt_id);
  CHECK(built_in_prompts()[0]->text() == judge_prompt_template());
  CHECK(built_in_prompts()[0]->sha256() == judge_prompt_template_sha256());
  CHECK(built_in_prompt(non_numeric_prompt_id) == non_numeric_prompt());
  CHECK_FALSE(built_in_prompt("invariance-checker/judge/v2"));
  CHECK(
    built_in_prompt_ids_text()
    == "invariance-checker/judge/v1, invariance-checker/judge/non-numeric/v1");
  // The canonical template renders as build_judge_prompt always did.
  CHECK(canonical_prompt()->render("12", "7") == build_judge_prompt("12", "7"));
}

TEST_CASE(
  "prompt: the non-numeric prompt is pinned and keeps the reply format") {
  // Changing one byte changes this digest; a changed prompt needs a new id.
  CHECK(non_numeric_prompt()->sha256()
        == "726ff458bf0d7eae2b10976d599f8d40e51728a3528c1e93c79e0342901218c2");
  auto& t = non_numeric_prompt()->text();
  const std::string format =
    "Respond in this EXACT format, one field per line, no extra text:\n"
    "DECISION: EQUIVALENT | DIFFERENT | ABSTAIN\n"
    "REASON: <one short sentence>\n";
  CHECK(t.find(format) != std::string::npos);
  CHECK(
    t.find("--- Answer A ---\n{{answer_a}}\n\n--- Answer B ---\n{{answer_b}}\n")
    != std::string::npos);
  CHECK_FALSE(non_numeric_prompt()->uses_problem());
  auto p = non_numeric_prompt()->render("[1,3)", "1 <= x < 3");
  CHECK(p.find("{{") == std::string::npos);
  auto back = non_numeric_prompt()->extract(p);
  REQUIRE(back);
  CHECK(back->a == "[1,3)");
  CHECK(back->b == "1 <= x < 3");
}

TEST_CASE("prompt: a declared template holds each answer slot once, the "
          "problem at most once") {
  auto ok = prompt_template::parse(
    "team/p/v1",
    "Problem: {{problem}}\nA: {{answer_a}}\nB: {{answer_b}}\n"
    "DECISION: ...",
    "p.txt");
  REQUIRE(ok);
  CHECK(ok->id() == "team/p/v1");
  CHECK(ok->uses_problem());
  CHECK(ok->sha256() == sha256_hex(ok->text()));
  auto text = ok->render("{{answer_b}}", "5", "What is 2+3?");
  CHECK(text == "Problem: What is 2+3?\nA: {{answer_b}}\nB: 5\nDECISION: ...");
  auto back = ok->extract(text);
  REQUIRE(back);
  CHECK(back->problem == "What is 2+3?");
  CHECK(back->a == "{{answer_b}}");
  CHECK(back->b == "5");
  // B before A is allowed: the slots go where the template puts them.
  auto swapped =
    prompt_template::parse("x", "{{answer_b}} vs {{answer_a}}", "p.txt");
  REQUIRE(swapped);
  CHECK(swapped->render("a", "b") == "b vs a");

  auto missing = prompt_template::parse(
    "x", "Compare {{answer_a}} with the other.", "p.txt");
  REQUIRE_FALSE(missing);
  CHECK(context_of(missing.error())
        == "p.txt: the template must hold {{answer_b}} exactly once (it holds "
           "it 0 times): "
           "the judge must see both answers");
  auto twice = prompt_template::parse(
    "x", "{{answer_a}} {{answer_a}} {{answer_b}}", "p.txt");
  REQUIRE_FALSE(twice);
  CHECK(context_of(twice.error())
          .find("{{answer_a}} exactly once (it holds it 2 times)")
        != std::string::npos);
  auto typo = prompt_template::parse(
    "x", "{{answer_a}} {{answer_c}} {{answer_b}}", "p.txt");
  REQUIRE_FALSE(typo);
  CHECK(context_of(typo.error())
        == "p.txt: unknown slot \"{{answer_c}}\" (the slots are {{answer_a}}, "
           "{{answer_b}} "
           "and {{problem}})");
  auto problems = prompt_template::parse(
    "x", "{{problem}}{{problem}}{{answer_a}}{{answer_b}}", "p.txt");
  REQUIRE_FALSE(problems);
  CHECK(context_of(problems.error())
        == "p.txt: the template holds {{problem}} more than once");
}

TEST_CASE("prompt: a choice's identity: built-in by id, declared by its file's "
          "SHA-256") {
  prompt_choice built_in;
  CHECK(identity_of(built_in).id == judge_prompt_id);
  CHECK(identity_of(built_in).sha256 == judge_prompt_template_sha256());
  CHECK(template_of(built_in) == canonical_prompt());
  prompt_choice declared;
  declared.id = "team/p/v1";
  declared.file = "/etc/p.txt";
  declared.sha256 = std::string(64, 'a');
  CHECK(identity_of(declared).sha256 == std::string(64, 'a'));
  CHECK_FALSE(template_of(declared)); // not read yet
  auto t =
    prompt_template::parse("team/p/v1", "{{answer_a}}|{{answer_b}}", "p");
  declared.loaded = std::make_shared<const prompt_template>(std::move(*t));
  CHECK(identity_of(declared).sha256
        == sha256_hex("{{answer_a}}|{{answer_b}}"));
  CHECK(template_of(declared) == declared.loaded);
}
