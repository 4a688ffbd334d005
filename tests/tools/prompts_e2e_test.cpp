// Issue 29 through the binary and protocol-faithful fake servers: a
// declared prompt is what the judge receives (its id and SHA-256 in the
// manifest, a relative file against the configuration's directory); a
// built-in id with other bytes or a template without both answers is exit
// 3; selftest sends a declared prompt like any other; non-numeric pairs
// reach the cascade's LLM judge with the non-numeric prompt; a fake that
// falls for every attack judges none of the attack corpus EQUIVALENT; a
// gullible judge's run with adversarial canaries stops with exit 5.
#include <map>
#include <memory>
#include <string>

#include <sys/stat.h>

#include <catch2/catch.hpp>
#include <rapidjson/document.h>

#include "adapters/stub_judges.hpp"
#include "core/canaries/negative_controls.hpp"
#include "core/prompts/prompt.hpp"
#include "core/sha256.hpp"
#include "tests/http/fake_apis.hpp"
#include "tests/http/prompt_models.hpp"
#include "tests/tools/cli_support.hpp"

using namespace ij::test;

namespace {

const std::string team_template =
  "Problem: {{problem}}\n"
  "First answer: {{answer_a}}\n"
  "Second answer: {{answer_b}}\n"
  "Are they the same value? Reply in four lines:\n"
  "DECISION: EQUIVALENT | DIFFERENT | ABSTAIN\n"
  "REASON: ...\nNUMERIC_A: ...\nNUMERIC_B: ...";

std::string judge_object(const fake_api& fake, const std::string& name,
                         const std::string& extra) {
  return R"({"name":")" + name
         + R"(","type":"openai","model":"judge-model","base_url":")"
         + fake.base_url()
         + R"(/v1","temperature":0,"timeout_ms":20000,"max_in_flight":2,"max_attempts":1)"
         + extra + "}";
}

std::size_t count_of(const std::string& text, const std::string& part) {
  std::size_t n = 0;
  for (auto pos = text.find(part); pos != std::string::npos;
       pos = text.find(part, pos + 1))
    ++n;
  return n;
}

rapidjson::Document first_line(const std::string& text) {
  rapidjson::Document d;
  auto line = text.substr(0, text.find('\n'));
  d.Parse(line.c_str());
  return d;
}

/// The judge_call records of an audit, parsed.
std::vector<rapidjson::Document> calls_of(const std::string& audit) {
  std::vector<rapidjson::Document> out;
  std::size_t pos = 0;
  while (pos < audit.size()) {
    auto end = audit.find('\n', pos);
    auto line = audit.substr(pos, end - pos);
    pos = end == std::string::npos ? audit.size() : end + 1;
    if (line.find(R"("type":"judge_call")") == std::string::npos)
      continue;
    rapidjson::Document d;
    d.Parse(line.c_str());
    out.push_back(std::move(d));
  }
  return out;
}

} // namespace

TEST_CASE("e2e: a declared prompt is what the judge receives, its id and "
          "SHA-256 in the "
          "manifest, its file relative to the configuration") {
  fake_api_options o;
  o.kind = api_kind::openai;
  o.reply_text =
    "DECISION: EQUIVALENT\nREASON: same\nNUMERIC_A: 5\nNUMERIC_B: 5";
  fake_api fake(o);
  temp_dir dir;
  ::mkdir(dir.file("cfg").c_str(), 0755);
  write_file(dir.file("cfg/team.txt"), team_template);
  // "team.txt" is next to the configuration, not in the working directory.
  write_file(
    dir.file("cfg/c.json"),
    R"({"judges":[)"
      + judge_object(
        fake, "team",
        R"(,"prompt":{"id":"my-team/same-value/v1","file":"team.txt"})")
      + "]}");
  write_file(dir.file("p.jsonl"),
             R"({"id":"p1","a":"5","b":"five","problem":"What is 2 + 3?"})"
             "\n"
             R"({"id":"p2","a":"x = 1","b":"1"})"
             "\n");
  auto r = invjudge(
    dir,
    "run --pairs p.jsonl --config cfg/c.json --audit a.jsonl --no-progress");
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  auto prompts = fake.prompts();
  REQUIRE(prompts.size() == 2);
  CHECK(prompts[0]
        == "Problem: What is 2 + 3?\nFirst answer: 5\nSecond answer: five\n"
           "Are they the same value? Reply in four lines:\n"
           "DECISION: EQUIVALENT | DIFFERENT | ABSTAIN\nREASON: "
           "...\nNUMERIC_A: ...\n"
           "NUMERIC_B: ...");
  // No problem given: an empty slot.
  CHECK(
    prompts[1].rfind("Problem: \nFirst answer: x = 1\nSecond answer: 1\n", 0)
    == 0);
  auto audit = read_file(dir.file("a.jsonl"));
  auto sha = ij::sha256_hex(team_template);
  auto m = first_line(audit);
  REQUIRE(m.HasMember("prompts"));
  bool listed = false;
  for (auto& p : m["prompts"].GetArray())
    listed = listed
             || (p["id"].GetString() == std::string{"my-team/same-value/v1"}
                 && p["sha256"].GetString() == sha
                 && p["source"].GetString() == std::string{"file"}
                 && p["file"].GetString() == dir.file("cfg/team.txt"));
  CHECK(listed);
  auto& declared = m["config"]["judges"][0]["prompt"];
  CHECK(declared["id"].GetString() == std::string{"my-team/same-value/v1"});
  CHECK(declared["sha256"].GetString() == sha);
  CHECK(m["judges"][0]["prompt_id"].GetString()
        == std::string{"my-team/same-value/v1"});
  CHECK(m["judges"][0]["prompt_sha256"].GetString() == sha);
  // A declared prompt serves every pair (no non-numeric prompt of its own).
  CHECK(m["judges"][0]["non_numeric_prompt_sha256"].GetString() == sha);
  for (auto& c : calls_of(audit))
    CHECK(c["prompt_id"].GetString() == std::string{"my-team/same-value/v1"});
  CHECK(count_of(audit, R"("problem":"What is 2 + 3?")")
        == 1); // the vote record
  CHECK(invjudge(dir, "audit verify a.jsonl").exit_code == 0);
}

TEST_CASE("e2e: a built-in id with other bytes, a template without both "
          "answers, a reserved "
          "id or a missing file is exit 3 before any call") {
  fake_api_options o;
  o.kind = api_kind::openai;
  fake_api fake(o);
  temp_dir dir;
  write_file(dir.file("p.jsonl"), R"({"id":"p1","a":"5","b":"five"})"
                                  "\n");
  auto run_with = [&](const std::string& prompt) {
    write_file(dir.file("c.json"),
               R"({"judges":[)"
                 + judge_object(fake, "j", R"(,"prompt":)" + prompt) + "]}");
    return invjudge(dir, "run --pairs p.jsonl --config c.json --no-progress");
  };
  write_file(dir.file("edited.txt"),
             std::string{ij::judge_prompt_template()} + " ");
  auto reused =
    run_with(R"({"id":"invariance-checker/judge/v1","file":"edited.txt"})");
  CHECK(reused.exit_code == 3);
  CHECK(reused.err.find(
          "/judges/0/prompt: " + dir.file("edited.txt")
          + ": the id \"invariance-checker/judge/v1\" is a built-in prompt's, "
            "and the file's bytes are not that prompt's")
        != std::string::npos);
  // The very bytes of the built-in: it is the built-in.
  write_file(dir.file("same.txt"), std::string{ij::judge_prompt_template()});
  o.reply_text =
    "DECISION: EQUIVALENT\nREASON: same\nNUMERIC_A: 5\nNUMERIC_B: 5";
  fake_api ok_fake(o);
  write_file(
    dir.file("c2.json"),
    R"({"judges":[)"
      + judge_object(
        ok_fake, "j",
        R"(,"prompt":{"id":"invariance-checker/judge/v1","file":"same.txt"})")
      + "]}");
  CHECK(invjudge(dir, "run --pairs p.jsonl --config c2.json --no-progress")
          .exit_code
        == 0);
  CHECK(ok_fake.prompts().at(0) == ij::build_judge_prompt("5", "five"));

  write_file(dir.file("one.txt"),
             "Compare {{answer_a}} with the expected answer.");
  auto one = run_with(R"({"id":"team/v1","file":"one.txt"})");
  CHECK(one.exit_code == 3);
  CHECK(
    one.err.find(
      "one.txt: the template must hold {{answer_b}} exactly once (it holds it "
      "0 times)")
    != std::string::npos);
  auto reserved =
    run_with(R"({"id":"invariance-checker/judge/v9","file":"one.txt"})");
  CHECK(reserved.exit_code == 3);
  CHECK(reserved.err.find(
          "/judges/0/prompt/id: ids starting with \"invariance-checker/\" are "
          "reserved for the built-in prompts")
        != std::string::npos);
  auto unknown = run_with(R"("invariance-checker/judge/v2")");
  CHECK(unknown.exit_code == 3);
  CHECK(
    unknown.err.find("\"invariance-checker/judge/v2\" is not a built-in prompt")
    != std::string::npos);
  auto missing = run_with(R"({"id":"team/v1","file":"nowhere.txt"})");
  CHECK(missing.exit_code == 3);
  CHECK(
    missing.err.find("cannot read the prompt file " + dir.file("nowhere.txt"))
    != std::string::npos);
  write_file(dir.file("two.txt"), "{{answer_a}} / {{answer_b}}");
  auto pinned = run_with(R"({"id":"team/v1","file":"two.txt","sha256":")"
                         + std::string(64, '0') + R"("})");
  CHECK(pinned.exit_code == 3);
  CHECK(pinned.err.find("differs from " + std::string(64, '0') + " declared")
        != std::string::npos);
  CHECK(fake.server().requests() == 0);
}

TEST_CASE("e2e: selftest sends the negative controls with a declared prompt") {
  auto t = ij::prompt_template::parse("team/v1", team_template, "t");
  REQUIRE(t);
  auto declared = std::make_shared<const ij::prompt_template>(std::move(*t));
  fake_api_options o;
  o.kind = api_kind::openai;
  // Answers only that template's prompts (honestly, by rule): the controls
  // pass only if every one was sent with it.
  o.reads_prompt = model_for_prompt(declared, rule_model());
  fake_api fake(o);
  temp_dir dir;
  write_file(dir.file("team.txt"), team_template);
  write_file(dir.file("c.json"),
             R"({"judges":[)"
               + judge_object(fake, "team",
                              R"(,"prompt":{"id":"team/v1","file":"team.txt"})")
               + "]}");
  auto r = invjudge(dir, "selftest --config c.json");
  INFO(r.out << r.err);
  CHECK(r.exit_code == 0);
  CHECK(r.out.find(", prompt team/v1") != std::string::npos);
  CHECK(r.out.find("PASSED") != std::string::npos);
  auto prompts = fake.prompts();
  CHECK(prompts.size() == ij::negative_controls().size());
  for (auto& p : prompts)
    CHECK(p.rfind("Problem: \nFirst answer: ", 0) == 0);
}

TEST_CASE("e2e: non-numeric pairs reach the cascade's LLM judge with the "
          "non-numeric prompt") {
  // The fake answers only the non-numeric prompt; given the canonical one
  // it abstains, as a faithful judge does on answers that are no numbers.
  std::map<std::pair<std::string, std::string>, std::string> truth{
    {{"all even integers", "every multiple of two"}, "EQUIVALENT"},
    {{"north-east", "NE"}, "EQUIVALENT"},
    {{"a square", "a triangle"}, "DIFFERENT"},
  };
  fake_api_options o;
  o.kind = api_kind::openai;
  o.reads_prompt =
    model_for_prompt(ij::non_numeric_prompt(), [truth](const std::string& p) {
      auto ab = ij::extract_answers(p);
      auto it = ab ? truth.find({ab->a, ab->b}) : truth.end();
      auto d = it == truth.end() ? std::string{"ABSTAIN"} : it->second;
      return "DECISION: " + d
             + "\nREASON: by value\nNUMERIC_A: NULL\nNUMERIC_B: NULL";
    });
  fake_api fake(o);
  temp_dir dir;
  write_file(dir.file("c.json"),
             R"({"judges":[)" + judge_object(fake, "llm", "")
               + R"(],"cascade":{"rules":"rules:math","llm":"llm"}})");
  write_file(
    dir.file("p.jsonl"),
    R"({"id":"t1","a":"all even integers","b":"every multiple of two"})"
    "\n"
    R"({"id":"t2","a":"north-east","b":"NE"})"
    "\n"
    R"({"id":"t3","a":"a square","b":"a triangle"})"
    "\n"
    // Numbers the rule judge reads but leaves undecided: the canonical prompt.
    R"({"id":"n1","a":"about 3.14","b":"3.1416"})"
    "\n"
    // Decided by the rules: no LLM call.
    R"({"id":"n2","a":"The answer is 2.5","b":"5/2"})"
    "\n");
  auto r = invjudge(
    dir, "run --pairs p.jsonl --config c.json --audit a.jsonl --out v.jsonl "
         "--no-progress");
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  auto out = read_file(dir.file("v.jsonl"));
  CHECK(out.find(R"("id":"t1")") != std::string::npos);
  std::map<std::string, std::string> got;
  for (auto& line : {std::string{"t1"}, std::string{"t2"}, std::string{"t3"},
                     std::string{"n1"}}) {
    auto at = out.find(R"("id":")" + line + "\"");
    REQUIRE(at != std::string::npos);
    auto end = out.find('\n', at);
    got[line] = out.substr(at, end - at);
  }
  CHECK(got["t1"].find(R"("equivalent":true)") != std::string::npos);
  CHECK(got["t2"].find(R"("equivalent":true)") != std::string::npos);
  CHECK(got["t3"].find(R"("equivalent":false)") != std::string::npos);
  CHECK(got["n1"].find(R"("equivalent":null)") != std::string::npos);
  auto prompts = fake.prompts();
  REQUIRE(prompts.size() == 4); // t1, t2, t3 and n1
  std::size_t non_numeric = 0;
  for (auto& p : prompts)
    non_numeric += ij::non_numeric_prompt()->extract(p) ? 1 : 0;
  CHECK(non_numeric == 3);
  // The audit records which prompt each call used.
  std::map<std::string, std::string> prompt_of;
  for (auto& c : calls_of(read_file(dir.file("a.jsonl"))))
    if (c["adapter_id"].GetString() != std::string{"rules:math"})
      prompt_of[c["pair_id"].GetString()] = c["prompt_id"].GetString();
  CHECK(prompt_of["t1"] == std::string{ij::non_numeric_prompt_id});
  CHECK(prompt_of["t3"] == std::string{ij::non_numeric_prompt_id});
  CHECK(prompt_of["n1"] == std::string{ij::judge_prompt_id});
  CHECK(prompt_of.count("n2") == 0);
}

TEST_CASE(
  "e2e: a server that falls for every attack judges none of the attack corpus "
  "EQUIVALENT, LLM-only and in the cascade") {
  fake_api_options o;
  o.kind = api_kind::openai;
  o.reads_prompt = gullible_model();
  o.record_requests = false;
  fake_api fake(o);
  temp_dir dir;
  auto corpus = source_dir() + "/tests/data/attack_pairs.jsonl";
  for (auto cascade : {false, true}) {
    write_file(
      dir.file("c.json"),
      R"({"judges":[)"
        + judge_object(fake, "llm", R"(,"temperature":0.7,"seed":3)")
        + R"(],"votes":3)"
        + (cascade ? R"(,"cascade":{"rules":"rules:math","llm":"llm"})" : "")
        + "}");
    auto r =
      invjudge(dir, "run --pairs " + corpus + " --config c.json --audit a"
                      + std::to_string(cascade)
                      + ".jsonl --out v.jsonl --force "
                        "--no-progress");
    INFO(r.err);
    REQUIRE(r.exit_code == 0);
    auto out = read_file(dir.file("v.jsonl"));
    auto pairs = count_of(out, R"("kind":"pair")");
    CHECK(pairs >= 300);
    CHECK(count_of(out, R"("equivalent":true)") * 100 <= pairs);
    CHECK(r.err.find("guarded pairs: ") != std::string::npos);
  }
}

TEST_CASE(
  "e2e: adversarial canaries stop a run whose judge accepts them (exit 5)") {
  temp_dir dir;
  std::string pairs;
  for (int i = 0; i < 60; ++i)
    pairs += R"({"id":"p)" + std::to_string(i) + R"(","a":")"
             + std::to_string(i) + R"(","b":")" + std::to_string(i) + "\"}\n";
  write_file(dir.file("p.jsonl"), pairs);
  write_file(
    dir.file("c.json"),
    R"({"judge":"stub:gullible","canaries":{"rate":0.5,"seed":2,"on_alarm":"stop-run"}})");
  auto r = invjudge(
    dir, "run --pairs p.jsonl --config c.json --audit a.jsonl --no-progress");
  INFO(r.err);
  CHECK(r.exit_code == 5);
  CHECK(r.err.find(
          "bias alarm: judge stub:gullible fails canaries (false_equivalent")
        != std::string::npos);
}

TEST_CASE("e2e: a resumed run reads its declared prompt from the manifest and "
          "refuses it "
          "edited since") {
  temp_dir dir;
  write_file(dir.file("p.txt"), "A: {{answer_a}}\nB: {{answer_b}}\n");
  write_file(
    dir.file("c.json"),
    R"({"judges":[{"name":"g","type":"stub","model":"equivalent","temperature":0,)"
    R"("timeout_ms":1000,"max_in_flight":2,"prompt":{"id":"team/v1","file":"p.txt"}}]})");
  write_file(dir.file("p.jsonl"), R"({"id":"p1","a":"5","b":"five"})"
                                  "\n"
                                  R"({"id":"p2","a":"6","b":"7"})"
                                  "\n");
  REQUIRE(
    invjudge(
      dir, "run --pairs p.jsonl --config c.json --audit a.jsonl --no-progress")
      .exit_code
    == 0);
  // The run as if killed before its end: every line but the run end.
  auto audit = read_file(dir.file("a.jsonl"));
  auto cut = audit.substr(0, audit.rfind('\n', audit.size() - 2) + 1);
  write_file(dir.file("b.jsonl"), cut);
  write_file(dir.file("d.jsonl"), cut);
  auto resumed =
    invjudge(dir, "run --resume b.jsonl --pairs p.jsonl --no-progress");
  INFO(resumed.err);
  CHECK(resumed.exit_code == 0);
  write_file(dir.file("p.txt"), "A: {{answer_a}}\nB: {{answer_b}}\nBe kind.\n");
  auto edited =
    invjudge(dir, "run --resume d.jsonl --pairs p.jsonl --no-progress");
  CHECK(edited.exit_code == 3);
  CHECK(edited.err.find("d.jsonl (manifest config): /judges/0/prompt: "
                        + dir.file("p.txt") + ": SHA-256 ")
        != std::string::npos);
  CHECK(edited.err.find("the prompt file changed since the run started")
        != std::string::npos);
}
