#pragma once
// The judge backend kinds (a judge's "type"), each declared once, with what
// it supports: the configuration checks (core/config/judge_spec,
// run_config_checks, calibration), the short judge names and the adapter
// factory (adapters/adapter_factory, which pairs each kind with its maker) read
// this table; nothing else spells a kind's name.
//
// The table can be extended at run time (add_backend_kind, before any
// configuration is read: a test's fake backend, issue 30), so
// configs/schema.json leaves "type" a string and the checks here give the
// unknown kind's error with the file and field, naming the known kinds
// (tests/core/config/config_schema_test.cpp holds the schema to that).
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <caf/error.hpp>

namespace ij {

struct backend_kind {
  /// The "type" of a judge and the prefix of its short name ("ollama").
  std::string name;
  /// A model behind an HTTP API: base_url, an API key, retries and a
  /// circuit breaker. False: it judges in process (stub, rules), never
  /// fails to connect and takes no URL.
  bool http = false;
  /// Returns the reply tokens' log-probabilities ("logprobs").
  bool logprobs = false;
  /// Holds the reply to the format: JSON ("constrain": "json"), a regular
  /// grammar ("grammar").
  bool json_constraint = false;
  bool grammar_constraint = false;
  /// Requests per batch of its batch API (issue 17); 0: it has none.
  std::uint32_t batch_limit = 0;
  /// Sends a prompt; false: it reads the answers by rule ("prompt" refused).
  bool takes_prompt = true;
  /// The judge in messages ("stub judge 'stub:x@URL' takes no URL").
  std::string judge_word;
  /// What an empty model is called ("has an empty stub kind").
  std::string model_word = "model";
  /// What an unknown model is called ("unknown stub kind 'x'").
  std::string unknown_model_word = "model";
  /// In-process kinds: whether `model` is one it has; null: any model.
  std::function<bool(std::string_view model)> knows_model;
  /// Its models as words for messages ("numeric, ... or gullible").
  std::function<std::string()> models_text;
  /// The same in a short judge name's error ("rules:math"); null: as
  /// models_text.
  std::function<std::string()> name_models_text;
  /// In-process kinds: whether a model gives decision probabilities without
  /// "logprobs" (stub:noisy:ERR); null: none does.
  std::function<bool(std::string_view model)> model_gives_probs;
  /// Its models that read the answers by rule and follow the run's answer
  /// policy (rules:math, stub:numeric).
  std::vector<std::string> rule_models;
};

/// The kind named `name`; nullopt for a name not in the table.
std::optional<backend_kind> find_backend_kind(std::string_view name);

/// The kinds' names in table order: stub, rules, ollama, anthropic, openai,
/// then any added.
std::vector<std::string> backend_kind_names();

/// The names as words for messages: "stub, rules, ollama, anthropic or
/// openai".
std::string backend_kinds_text();

/// The names of the kinds for which `has` holds, as words ("anthropic and
/// openai" with `joiner` "and").
std::string
backend_kinds_text(const std::function<bool(const backend_kind&)>& has,
                   std::string_view joiner);

/// Adds a kind (a test's fake backend; a new backend is a row of the
/// built-in table instead). bad_config if the name is empty or taken.
/// Call it before configurations are read: the checks read the table then.
caf::error add_backend_kind(backend_kind kind);

/// "unknown judge type 'x'<where> (expected stub, rules, ...)" as
/// bad_config; `where` such as " in 'x:y'" or empty.
caf::error unknown_backend_kind(const std::string& type,
                                const std::string& where);

} // namespace ij
