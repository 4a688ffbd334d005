#include "adapters/http_backends.hpp"

#include <cstdint>
#include <cstdlib>

#include "adapters/batch_protocol.hpp"
#include "adapters/chat_protocol.hpp"
#include "adapters/http_client.hpp"
#include "adapters/http_judge.hpp"
#include "adapters/url.hpp"
#include "core/config/backend_kinds.hpp"
#include "messages/error.hpp"

namespace ij {

namespace {

std::string env(const std::string& name) {
  if (name.empty())
    return {};
  const char* v = std::getenv(name.c_str());
  return v ? std::string(v) : std::string{};
}

// Where an HTTP kind's endpoint and key come from when the configuration
// does not say: the adapter half of its row in core/config/backend_kinds.
struct backend_defaults {
  const char* type;
  const char* url_env;
  const char* url;
  const char* key_env; // nullptr: no key
  bool key_required;
  /// The URL variable may be "host[:port]" without a scheme (Ollama's own
  /// rule for OLLAMA_HOST: http on this port); 0: a URL.
  std::uint16_t schemeless_port;
  /// The path a base URL without one means ("http://host:8000" is the usual
  /// "/v1" of OpenAI-compatible servers); nullptr: none.
  const char* default_path;
};

constexpr backend_defaults http_defaults[] = {
  {"ollama", "OLLAMA_HOST", "http://127.0.0.1:11434", nullptr, false, 11434,
   nullptr},
  {"anthropic", "ANTHROPIC_BASE_URL", "https://api.anthropic.com",
   "ANTHROPIC_API_KEY", true, 0, nullptr},
  {"openai", "OPENAI_BASE_URL", "https://api.openai.com/v1", "OPENAI_API_KEY",
   false, 0, "/v1"},
};

std::optional<backend_defaults> defaults_for(const std::string& type) {
  for (auto& d : http_defaults)
    if (type == d.type)
      return d;
  return std::nullopt;
}

caf::expected<url> resolve(const judge_spec& spec) {
  auto d = defaults_for(spec.type);
  if (!d)
    return make_error(
      errc::bad_config,
      "'" + spec.type
        + "' is not an HTTP judge type (ollama, anthropic, openai)");
  std::string text = spec.base_url;
  std::string origin = "base_url";
  std::optional<std::uint16_t> schemeless;
  if (text.empty()) {
    text = env(d->url_env);
    origin = std::string("$") + d->url_env;
    // OLLAMA_HOST may be "host:port" or "host" (Ollama's own rule: no
    // scheme means http on port 11434); a configured base_url is a URL.
    if (d->schemeless_port)
      schemeless = d->schemeless_port;
  }
  if (text.empty()) {
    text = d->url;
    origin = "the default URL";
  }
  auto u = parse_url(text, schemeless);
  if (!u) {
    // The value is quoted unless it may hold credentials (user:key@host).
    bool quotable = text.find('@') == std::string::npos;
    return make_error(errc::bad_config,
                      spec.type + " judge: " + origin
                        + (quotable ? " '" + text + "'" : std::string{})
                        + " is not a usable URL: " + context_of(u.error()));
  }
  // "http://host:8000" means the usual "/v1" of OpenAI-compatible servers.
  if (d->default_path && u->path.empty())
    u->path = d->default_path;
  return u;
}

} // namespace

std::string credentials_hint(const judge_spec& spec) {
  auto d = defaults_for(spec.type);
  if (!d || !d->key_env)
    return "check who may call the server (a proxy in front of it?)";
  std::string var = spec.api_key_env.empty() ? d->key_env : spec.api_key_env;
  return "check the API key in $" + var + (env(var).empty() ? " (not set)" : "")
         + " and the model's access";
}

caf::expected<std::string> resolve_base_url(const judge_spec& spec) {
  auto u = resolve(spec);
  if (!u)
    return std::move(u.error());
  return u->to_string();
}

caf::expected<judge_adapter_ptr> make_http_adapter(const judge_spec& spec) {
  return make_http_adapter(spec, http_tuning{});
}

caf::expected<batch_client_config>
batch_client_config_for(const judge_spec& spec) {
  auto api = batch_api_for(spec.type);
  if (!api)
    return make_error(
      errc::bad_config,
      spec.type + " judge: no batch API (batch is for "
        + backend_kinds_text([](auto& k) { return k.batch_limit > 0; }, "and")
        + " judges)");
  auto base = resolve(spec);
  if (!base)
    return std::move(base.error());
  auto d = *defaults_for(spec.type);
  batch_client_config cfg;
  cfg.api = *api;
  cfg.base = *base;
  cfg.ca_file = spec.ca_file;
  if (d.key_env) {
    std::string var = spec.api_key_env.empty() ? d.key_env : spec.api_key_env;
    cfg.key = env(var);
    if (cfg.key.empty() && d.key_required)
      return make_error(errc::bad_config,
                        spec.type + " judge: the API key variable " + var
                          + " is not set (export " + var + "=...)");
  }
  return cfg;
}

caf::expected<judge_adapter_ptr> make_http_adapter(const judge_spec& spec,
                                                   const http_tuning& tuning) {
  auto base = resolve(spec);
  if (!base)
    return std::move(base.error());
  if (spec.model.empty())
    return make_error(errc::bad_config, spec.type + " judge: no model given");
  auto d = *defaults_for(spec.type);
  std::string key;
  if (d.key_env) {
    std::string var = spec.api_key_env.empty() ? d.key_env : spec.api_key_env;
    key = env(var);
    if (key.empty() && d.key_required)
      return make_error(errc::bad_config,
                        spec.type + " judge: the API key variable " + var
                          + " is not set (export " + var + "=...)");
  }
  http_client_config cfg;
  cfg.base = *base;
  cfg.ca_file = spec.ca_file;
  cfg.max_in_flight = spec.max_in_flight;
  cfg.queue_max = spec.queue_max;
  cfg.max_attempts = spec.max_attempts;
  cfg.max_response_bytes = spec.max_response_bytes;
  cfg.connect_timeout = tuning.connect_timeout;
  cfg.retry_base_delay = tuning.retry_base_delay;
  cfg.retry_max_delay = tuning.retry_max_delay;
  cfg.success_run = tuning.success_run;
  cfg.secret = key;
  auto client = http_client::create(std::move(cfg));
  if (!client)
    return make_error(errc::bad_config,
                      spec.type + " judge: " + context_of(client.error()));
  return judge_adapter_ptr{std::make_shared<http_judge>(
    *chat_protocol_for(spec.type), std::move(key), std::move(*client))};
}

} // namespace ij
