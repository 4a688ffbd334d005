#include "core/judge_spec.hpp"

#include "core/number_text.hpp"
#include "core/prompt.hpp"

#include <algorithm>
#include <cstdlib>
#include <string_view>

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

bool is_stub_kind(const std::string& kind) {
  const auto& kinds = stub_kinds();
  return std::find(kinds.begin(), kinds.end(), kind) != kinds.end()
         || noisy_stub_error(kind);
}

} // namespace

const std::vector<std::string>& stub_kinds() {
  static const std::vector<std::string> kinds{
    "numeric", "equivalent", "different", "abstain", "malformed", "failing"};
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
  return spec.type == "rules" || (spec.type == "stub" && spec.model == "numeric");
}

void set_answer_policy(std::vector<judge_spec>& judges,
                       const answer_policy& policy) {
  for (auto& j : judges)
    if (follows_answer_policy(j))
      j.policy = policy;
}

judge_prompt prompt_of(const judge_spec&) {
  return {std::string{judge_prompt_id}, judge_prompt_template_sha256()};
}

std::string judge_id_of(const judge_spec& spec) {
  auto prompt = prompt_of(spec);
  std::string id = spec.type + ":" + spec.model + " t=" + number_text(spec.temperature) + " prompt="
                   + prompt.id + "#" + prompt.template_sha256.substr(0, 8);
  // The default policy keeps the ids every earlier run recorded.
  if (follows_answer_policy(spec) && !spec.policy.is_default())
    id += " policy=" + policy_text(spec.policy);
  return id;
}

caf::error judge_setting_problem(const judge_spec& spec, bool constrain_field) {
  auto bad = [](std::string what) {
    return make_error(errc::bad_config, std::move(what));
  };
  if (!constrain_field) {
    if (!spec.logprobs || spec.type == "ollama" || spec.type == "openai")
      return caf::error{};
    if (spec.type == "anthropic")
      return bad("the anthropic API returns no log-probabilities (use an "
                 "ollama or openai judge, or remove \"logprobs\")");
    return bad("a " + spec.type + " judge has no log-probabilities (HTTP judges only)");
  }
  if (spec.constrain == reply_constraint::none)
    return caf::error{};
  if (!is_backend_type(spec.type))
    return bad("a " + spec.type + " judge takes no constraint (HTTP judges only)");
  if (spec.constrain == reply_constraint::grammar && spec.type != "openai")
    return bad("the " + spec.type
               + " API accepts no regular grammar (grammar: openai-compatible "
                 "vLLM or llama.cpp servers); use \"json\"");
  return caf::error{};
}

bool is_backend_type(const std::string& type) {
  return type == "ollama" || type == "anthropic" || type == "openai";
}

caf::expected<judge_spec> parse_judge_name(const std::string& name) {
  if (name.empty()) {
    return make_error(errc::bad_config,
                      "empty judge name (" + std::string{name_help} + ")");
  }
  auto colon = name.find(':');
  if (colon == std::string::npos) {
    return make_error(errc::bad_config,
                      "judge name '" + name + "' has no type ("
            + std::string{name_help} + ")");
  }
  auto type = name.substr(0, colon);
  if (type != "stub" && type != "rules" && !is_backend_type(type)) {
    return make_error(errc::bad_config,
                      "unknown judge type '" + type + "' in '" + name
            + "' (expected stub, rules, ollama, anthropic or openai)");
  }
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
    return make_error(errc::bad_config,
                      "judge name '" + name + "': '" + std::string{rest.substr(last + 1)}
            + "' after the '@' is not an http:// or https:// URL (a model "
              "whose name has an '@' takes a URL after it, or goes in a "
              "configuration file)");
  }
  spec.model = std::string{rest};
  if (spec.model.empty()) {
    return make_error(errc::bad_config,
                      "judge name '" + name + "' has an empty "
            + (type == "stub" ? std::string{"stub kind"}
                              : std::string{"model"})
            + " (" + std::string{name_help} + ")");
  }
  if (type == "rules" && spec.model != "math") {
    return make_error(errc::bad_config,
                      "unknown rule judge '" + spec.model + "' in '" + name
            + "' (expected rules:math)");
  }
  if (type == "rules" && !spec.base_url.empty()) {
    return make_error(errc::bad_config,
                      "rule judge '" + name + "' takes no URL");
  }
  if (type == "stub") {
    if (!is_stub_kind(spec.model)) {
      return make_error(errc::bad_config,
                        "unknown stub kind '" + spec.model + "' in '" + name
              + "' (expected " + stub_kinds_text() + ")");
    }
    if (!spec.base_url.empty()) {
      return make_error(errc::bad_config,
                        "stub judge '" + name + "' takes no URL");
    }
  }
  spec.name = name;
  return spec;
}

} // namespace ij
