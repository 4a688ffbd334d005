// Which worker serves a configured judge (core/hosts/worker_key.hpp; issue 26,
// item 2): every call setting in the key, a local worker only with all of
// them equal, a judge host's with its vote settings equal.
#include <set>

#include <catch2/catch.hpp>

#include "core/hosts/worker_key.hpp"
#include "core/prompts/prompt.hpp"

using namespace ij;

namespace {

judge_spec openai_judge() {
  judge_spec s;
  s.name = "qwen";
  s.type = "openai";
  s.model = "qwen2.5-7b";
  s.base_url = "http://127.0.0.1:8000/v1";
  s.api_key_env = "OPENAI_API_KEY";
  return s;
}

judge_info worker_of(const judge_spec& s, const std::string& host) {
  judge_info i;
  i.judge_id = judge_id_of(s);
  i.host = host;
  i.name = s.name;
  i.adapter_type = s.type;
  i.model = s.model;
  i.temperature = s.temperature;
  i.settings_key = worker_key_of(s);
  return i;
}

/// One change of a single setting, by its name in the table.
struct change {
  const char* setting;
  void (*apply)(judge_spec&);
};

const std::vector<change>& one_setting_changes() {
  static const std::vector<change> changes{
    {"adapter", [](judge_spec& s) { s.type = "ollama"; }},
    {"model", [](judge_spec& s) { s.model = "qwen2.5-14b"; }},
    {"temperature", [](judge_spec& s) { s.temperature = 0.7; }},
    {"seed", [](judge_spec& s) { s.seed = 7; }},
    {"max_tokens", [](judge_spec& s) { s.max_tokens = 64; }},
    // Issue 29: the non-numeric built-in for every pair (its non-numeric
    // prompt stays that one), or the canonical one for non-numeric pairs.
    {"prompt",
     [](judge_spec& s) { s.prompt.id = std::string{non_numeric_prompt_id}; }},
    {"non_numeric_prompt",
     [](judge_spec& s) {
       prompt_choice p;
       p.id = std::string{judge_prompt_id};
       s.non_numeric_prompt = p;
     }},
    {"logprobs", [](judge_spec& s) { s.logprobs = true; }},
    {"constrain", [](judge_spec& s) { s.constrain = reply_constraint::json; }},
    {"batch", [](judge_spec& s) { s.batch.enabled = true; }},
    {"name", [](judge_spec& s) { s.name = "qwen-b"; }},
    {"base_url",
     [](judge_spec& s) { s.base_url = "http://127.0.0.1:8001/v1"; }},
    {"api_key_env", [](judge_spec& s) { s.api_key_env = "OTHER_KEY"; }},
    {"ca_file", [](judge_spec& s) { s.ca_file = "/etc/ca.pem"; }},
    {"timeout_ms",
     [](judge_spec& s) { s.timeout = std::chrono::milliseconds(5000); }},
    {"max_attempts", [](judge_spec& s) { s.max_attempts = 1; }},
    {"max_in_flight", [](judge_spec& s) { s.max_in_flight = 32; }},
    {"queue_max", [](judge_spec& s) { s.queue_max = 16; }},
    {"max_response_bytes", [](judge_spec& s) { s.max_response_bytes = 4096; }},
    {"breaker", [](judge_spec& s) { s.breaker.enabled = false; }},
  };
  return changes;
}

} // namespace

TEST_CASE(
  "worker key: the table lists each setting once, vote settings first") {
  std::set<std::string> names;
  bool host_local_seen = false;
  for (auto& s : call_settings()) {
    CHECK(names.insert(s.name).second);
    if (s.host_local)
      host_local_seen = true;
    else
      CHECK_FALSE(host_local_seen); // a vote setting after a host-local one
  }
  for (const char* vote : {"adapter", "model", "temperature", "seed",
                           "max_tokens", "prompt", "non_numeric_prompt",
                           "logprobs", "constrain", "batch", "answer_policy"})
    CHECK(names.count(vote) == 1);
  for (const char* local : {"base_url", "api_key_env"})
    CHECK(names.count(local) == 1);
  // Every change the test makes names a setting of the table.
  for (auto& c : one_setting_changes())
    CHECK(names.count(c.setting) == 1);
}

TEST_CASE(
  "worker key: a change of any one setting changes the key, and the key is the "
  "same for equal settings") {
  auto base = openai_judge();
  CHECK(worker_key_of(base) == worker_key_of(openai_judge()));
  std::set<std::string> keys{worker_key_of(base)};
  for (auto& c : one_setting_changes()) {
    auto s = openai_judge();
    c.apply(s);
    INFO(c.setting);
    CHECK(keys.insert(worker_key_of(s)).second);
  }
  // The answer policy is a rule judge's setting; a model judge has none.
  judge_spec rules;
  rules.name = rules.type = "rules";
  rules.model = "math";
  auto plain = worker_key_of(rules);
  rules.policy.absolute_tolerance = 0.01;
  CHECK(worker_key_of(rules) != plain);
}

TEST_CASE(
  "worker key: the key never holds a key, only the variable that names it") {
  auto s = openai_judge();
  CHECK(worker_key_of(s).find("api_key_env=OPENAI_API_KEY\n")
        != std::string::npos);
  // A value with a newline stays on its own line.
  s.name = "two\nlines";
  auto key = worker_key_of(s);
  CHECK(key.find("name=two\\nlines\n") != std::string::npos);
}

TEST_CASE("serves: a local worker only with every setting equal") {
  auto base = openai_judge();
  CHECK(serves(base, worker_of(base, "local")));
  for (auto& c : one_setting_changes()) {
    auto other = openai_judge();
    c.apply(other);
    INFO(c.setting);
    CHECK_FALSE(serves(base, worker_of(other, "local")));
    CHECK_FALSE(serves(other, worker_of(base, "local")));
  }
}

TEST_CASE("serves: a judge host's worker with its vote settings equal, and a "
          "vote setting "
          "that differs is named with both values") {
  auto base = openai_judge();
  for (auto& c : one_setting_changes()) {
    auto other = openai_judge();
    c.apply(other);
    INFO(c.setting);
    bool host_local = false;
    for (auto& s : call_settings())
      if (std::string{s.name} == c.setting)
        host_local = s.host_local;
    auto worker = worker_of(other, "10.0.0.7:7000");
    CHECK(serves(base, worker) == host_local);
    auto diffs = setting_differences(base, worker);
    if (host_local) {
      CHECK(diffs.empty());
    } else {
      REQUIRE(diffs.size() == 1);
      CHECK(diffs[0].rfind(std::string{c.setting} + " differs (host: ", 0)
            == 0);
    }
  }
  auto seeded = openai_judge();
  seeded.seed = 3;
  CHECK(setting_differences(base, worker_of(seeded, "h:1"))
        == std::vector<std::string>{"seed differs (host: 3, here: none)"});
}

TEST_CASE("judge selection: takes the workers of its judges' exact settings, "
          "names each "
          "judge id once") {
  auto a = openai_judge();
  auto b = openai_judge();
  b.seed = 1;
  judge_selection sel{{a, b}};
  CHECK(sel.takes(worker_of(a, "local")));
  CHECK(sel.takes(worker_of(b, "local")));
  auto c = openai_judge();
  c.base_url = "http://127.0.0.1:9/v1";
  CHECK_FALSE(sel.takes(worker_of(c, "local")));
  CHECK(sel.judge_ids() == std::vector<std::string>{judge_id_of(a)});
  CHECK_FALSE(judge_selection{}.takes(worker_of(a, "local")));
}
