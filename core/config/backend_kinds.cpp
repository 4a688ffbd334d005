#include "core/config/backend_kinds.hpp"

#include <algorithm>
#include <deque>
#include <mutex>
#include <utility>

#include "core/config/judge_spec.hpp"
#include "messages/error.hpp"

namespace ij {

namespace {

bool is_stub_kind(std::string_view kind) {
  const auto& kinds = stub_kinds();
  return std::find(kinds.begin(), kinds.end(), kind) != kinds.end()
         || noisy_stub_error(kind);
}

// The built-in kinds. Log-probabilities: Ollama's and OpenAI-compatible
// servers' (Anthropic's API returns none). Constraints: JSON everywhere
// over HTTP (ollama format, openai response_format json_schema, anthropic
// forced tool use); a regular grammar on OpenAI-compatible vLLM and
// llama.cpp servers only. Batch APIs: Anthropic's Message Batches
// (100,000 requests) and OpenAI's Batch API (50,000).
std::deque<backend_kind> built_in() {
  std::deque<backend_kind> out;
  backend_kind stub;
  stub.name = "stub";
  stub.judge_word = "stub judge";
  stub.model_word = "stub kind";
  stub.unknown_model_word = "stub kind";
  stub.knows_model = is_stub_kind;
  stub.models_text = stub_kinds_text;
  stub.model_gives_probs = [](std::string_view m) {
    return noisy_stub_error(m).has_value();
  };
  stub.rule_models = {"numeric"};
  out.push_back(std::move(stub));
  backend_kind rules;
  rules.name = "rules";
  rules.judge_word = "rule judge";
  rules.unknown_model_word = "rule judge";
  rules.takes_prompt = false;
  rules.knows_model = [](std::string_view m) { return m == "math"; };
  rules.models_text = [] { return std::string{"math"}; };
  rules.name_models_text = [] { return std::string{"rules:math"}; };
  rules.rule_models = {"math"};
  out.push_back(std::move(rules));
  auto http = [&](std::string name, bool logprobs, bool grammar,
                  std::uint32_t batch) {
    backend_kind k;
    k.name = std::move(name);
    k.judge_word = k.name + " judge";
    k.http = true;
    k.logprobs = logprobs;
    k.json_constraint = true;
    k.grammar_constraint = grammar;
    k.batch_limit = batch;
    out.push_back(std::move(k));
  };
  http("ollama", true, false, 0);
  http("anthropic", false, false, 100000);
  http("openai", true, true, 50000);
  return out;
}

// Read by every configuration check, added to by tests: a deque keeps the
// rows where they are, the mutex keeps a read from meeting an add.
struct kind_table {
  std::mutex mtx;
  std::deque<backend_kind> kinds = built_in();
};

kind_table& table() {
  static kind_table t;
  return t;
}

std::string as_words(const std::vector<std::string>& names,
                     std::string_view joiner) {
  std::string out;
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (i > 0)
      out += i + 1 == names.size() ? " " + std::string{joiner} + " " : ", ";
    out += names[i];
  }
  return out;
}

} // namespace

std::optional<backend_kind> find_backend_kind(std::string_view name) {
  auto& t = table();
  std::lock_guard<std::mutex> guard{t.mtx};
  for (auto& k : t.kinds)
    if (k.name == name)
      return k;
  return std::nullopt;
}

std::vector<std::string> backend_kind_names() {
  auto& t = table();
  std::lock_guard<std::mutex> guard{t.mtx};
  std::vector<std::string> out;
  for (auto& k : t.kinds)
    out.push_back(k.name);
  return out;
}

std::string backend_kinds_text() {
  return as_words(backend_kind_names(), "or");
}

std::string
backend_kinds_text(const std::function<bool(const backend_kind&)>& has,
                   std::string_view joiner) {
  std::vector<std::string> names;
  {
    auto& t = table();
    std::lock_guard<std::mutex> guard{t.mtx};
    for (auto& k : t.kinds)
      if (has(k))
        names.push_back(k.name);
  }
  return as_words(names, joiner);
}

caf::error add_backend_kind(backend_kind kind) {
  if (kind.name.empty())
    return make_error(errc::bad_config, "a backend kind needs a name");
  if (kind.judge_word.empty())
    kind.judge_word = kind.name + " judge";
  auto& t = table();
  std::lock_guard<std::mutex> guard{t.mtx};
  for (auto& k : t.kinds)
    if (k.name == kind.name)
      return make_error(errc::bad_config, "the backend kind '" + kind.name
                                            + "' is already declared");
  t.kinds.push_back(std::move(kind));
  return caf::error{};
}

caf::error unknown_backend_kind(const std::string& type,
                                const std::string& where) {
  return make_error(errc::bad_config, "unknown judge type '" + type + "'"
                                        + where + " (expected "
                                        + backend_kinds_text() + ")");
}

} // namespace ij
