#include "core/config/judge_spec.hpp"

#include <algorithm>
#include <cstdlib>
#include <string_view>

#include "core/config/backend_kinds.hpp"
#include "core/numbers/number_text.hpp"
#include "core/prompts/prompt.hpp"

namespace ij {

namespace {

constexpr std::string_view name_help =
  "expected TYPE:MODEL such as stub:numeric, ollama:qwen2.5:7b, "
  "anthropic:claude-haiku-4-5 or openai:MODEL@http://127.0.0.1:8000";

// The position of the '@' that starts a URL suffix: the last '@' followed by
// http:// or https:// (a model name may itself contain '@' or ':').
std::size_t url_separator(std::string_view rest) {
  for (auto pos = rest.rfind('@'); pos != std::string_view::npos;
       pos = pos == 0 ? std::string_view::npos : rest.rfind('@', pos - 1)) {
    auto tail = rest.substr(pos + 1);
    if (tail.rfind("http://", 0) == 0 || tail.rfind("https://", 0) == 0)
      return pos;
  }
  return std::string_view::npos;
}

} // namespace

const std::vector<std::string>& stub_kinds() {
  static const std::vector<std::string> kinds{
    "numeric",   "equivalent", "different", "abstain",
    "malformed", "failing",    "gullible"};
  return kinds;
}

std::optional<double> noisy_stub_error(std::string_view kind) {
  constexpr std::string_view prefix = "noisy:";
  if (kind.substr(0, prefix.size()) != prefix || kind.size() == prefix.size())
    return std::nullopt;
  std::string rest{kind.substr(prefix.size())};
  char* end = nullptr;
  double err = std::strtod(rest.c_str(), &end);
  if (end != rest.c_str() + rest.size() || !(err >= 0.0) || err > 0.15)
    return std::nullopt;
  return err;
}

std::string stub_kinds_text() {
  const auto& kinds = stub_kinds();
  std::string out;
  for (std::size_t i = 0; i < kinds.size(); ++i) {
    if (i > 0)
      out += i + 1 == kinds.size() ? " or " : ", ";
    out += kinds[i];
  }
  return out;
}

bool follows_answer_policy(const judge_spec& spec) {
  auto kind = find_backend_kind(spec.type);
  return kind
         && std::find(kind->rule_models.begin(), kind->rule_models.end(),
                      spec.model)
              != kind->rule_models.end();
}

void set_answer_policy(std::vector<judge_spec>& judges,
                       const answer_policy& policy) {
  for (auto& j : judges)
    if (follows_answer_policy(j))
      j.policy = policy;
}

namespace {

// The canonical prompt asks for numbers only, so it pairs with the built-in
// non-numeric prompt; any other prompt serves every pair.
prompt_choice default_non_numeric(const prompt_choice& prompt) {
  if (prompt.declared() || prompt.id != judge_prompt_id)
    return prompt;
  prompt_choice p;
  p.id = std::string{non_numeric_prompt_id};
  return p;
}

} // namespace

prompt_choice non_numeric_choice(const judge_spec& spec) {
  return spec.non_numeric_prompt ? *spec.non_numeric_prompt
                                 : default_non_numeric(spec.prompt);
}

judge_prompts prompts_of(const judge_spec& spec) {
  return {template_of(spec.prompt), template_of(non_numeric_choice(spec))};
}

judge_prompt_ids prompt_ids_of(const judge_spec& spec) {
  return {identity_of(spec.prompt), identity_of(non_numeric_choice(spec))};
}

bool reads_answers_by_rule(const judge_spec& spec) {
  return follows_answer_policy(spec);
}

namespace {

// "ID#SHA8"; a declared template not read yet is named by its file.
std::string prompt_tag(const prompt_choice& p) {
  auto who = identity_of(p);
  if (who.sha256.empty())
    return who.id + "#file:" + p.file;
  return who.id + "#" + who.sha256.substr(0, 8);
}

} // namespace

std::string judge_id_of(const judge_spec& spec) {
  std::string id = spec.type + ":" + spec.model
                   + " t=" + number_text(spec.temperature)
                   + " prompt=" + prompt_tag(spec.prompt);
  // The default pairing keeps the ids every earlier run recorded.
  auto other = non_numeric_choice(spec);
  if (other != default_non_numeric(spec.prompt))
    id += " non_numeric=" + prompt_tag(other);
  // The default policy keeps the ids every earlier run recorded.
  if (follows_answer_policy(spec) && !spec.policy.is_default())
    id += " policy=" + policy_text(spec.policy);
  return id;
}

caf::error judge_setting_problem(const judge_spec& spec, bool constrain_field) {
  auto bad = [](std::string what) {
    return make_error(errc::bad_config, std::move(what));
  };
  // A kind not in the table (a judge built in code) takes neither.
  auto kind = find_backend_kind(spec.type);
  if (!constrain_field) {
    if (!spec.logprobs || (kind && kind->logprobs))
      return caf::error{};
    if (kind && kind->http)
      return bad(
        "the " + spec.type + " API returns no log-probabilities (use an "
        + backend_kinds_text([](auto& k) { return k.http && k.logprobs; }, "or")
        + " judge, or remove \"logprobs\")");
    return bad("a " + spec.type
               + " judge has no log-probabilities (HTTP judges only)");
  }
  if (spec.constrain == reply_constraint::none)
    return caf::error{};
  if (!kind || (!kind->json_constraint && !kind->grammar_constraint))
    return bad("a " + spec.type
               + " judge takes no constraint (HTTP judges only)");
  if (spec.constrain == reply_constraint::grammar && !kind->grammar_constraint)
    return bad("the " + spec.type
               + " API accepts no regular grammar (grammar: openai-compatible "
                 "vLLM or llama.cpp servers); use \"json\"");
  if (spec.constrain == reply_constraint::json && !kind->json_constraint)
    return bad("the " + spec.type
               + " API accepts no JSON constraint; use \"grammar\"");
  return caf::error{};
}

bool is_backend_type(const std::string& type) {
  auto kind = find_backend_kind(type);
  return kind && kind->http;
}

caf::expected<judge_spec> parse_judge_name(const std::string& name) {
  if (name.empty()) {
    return make_error(errc::bad_config,
                      "empty judge name (" + std::string{name_help} + ")");
  }
  auto colon = name.find(':');
  if (colon == std::string::npos) {
    return make_error(errc::bad_config, "judge name '" + name
                                          + "' has no type ("
                                          + std::string{name_help} + ")");
  }
  auto type = name.substr(0, colon);
  auto kind = find_backend_kind(type);
  if (!kind)
    return unknown_backend_kind(type, " in '" + name + "'");
  std::string_view rest{name};
  rest.remove_prefix(colon + 1);
  judge_spec spec;
  spec.type = type;
  if (auto at = url_separator(rest); at != std::string_view::npos) {
    spec.base_url = std::string{rest.substr(at + 1)};
    rest = rest.substr(0, at);
    if (spec.base_url == "http://" || spec.base_url == "https://") {
      return make_error(errc::bad_config,
                        "judge name '" + name + "' has a URL without a host");
    }
  } else if (auto last = rest.rfind('@'); last != std::string_view::npos) {
    // Most likely a mistyped URL: taking it as part of the model would send
    // the prompts to the backend's public default instead.
    return make_error(
      errc::bad_config,
      "judge name '" + name + "': '" + std::string{rest.substr(last + 1)}
        + "' after the '@' is not an http:// or https:// URL (a model "
          "whose name has an '@' takes a URL after it, or goes in a "
          "configuration file)");
  }
  spec.model = std::string{rest};
  if (spec.model.empty()) {
    return make_error(errc::bad_config, "judge name '" + name
                                          + "' has an empty " + kind->model_word
                                          + " (" + std::string{name_help}
                                          + ")");
  }
  if (kind->knows_model && !kind->knows_model(spec.model)) {
    return make_error(errc::bad_config,
                      "unknown " + kind->unknown_model_word + " '" + spec.model
                        + "' in '" + name + "' (expected "
                        + (kind->name_models_text ? kind->name_models_text()
                                                  : kind->models_text())
                        + ")");
  }
  if (!kind->http && !spec.base_url.empty()) {
    return make_error(errc::bad_config,
                      kind->judge_word + " '" + name + "' takes no URL");
  }
  spec.name = name;
  return spec;
}

} // namespace ij
