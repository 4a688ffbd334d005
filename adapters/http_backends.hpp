#pragma once
// Builds the HTTP judge adapters ("ollama", "anthropic", "openai") from a
// judge_spec: resolves the base URL (spec, then the ecosystem's variable,
// then the public default), reads the key from the named environment
// variable and sets up the client. Configuration errors (missing key, bad
// URL, unreadable CA file) are reported here, before any call, as
// bad_config; they name the variable, never its value.
#include <chrono>
#include <cstdint>
#include <string>

#include <caf/expected.hpp>

#include "adapters/adapter_factory.hpp"
#include "adapters/batch_client.hpp"

namespace ij {

/// Knobs below the judge_spec level; the defaults suit real backends.
struct http_tuning {
  std::chrono::milliseconds connect_timeout{5000};
  /// First backoff step; later ones double, up to retry_max_delay.
  std::chrono::milliseconds retry_base_delay{500};
  std::chrono::milliseconds retry_max_delay{8000};
  /// Successes in a row that raise a lowered in-flight cap by one.
  std::uint32_t success_run = 8;
};

caf::expected<judge_adapter_ptr> make_http_adapter(const judge_spec& spec);

caf::expected<judge_adapter_ptr> make_http_adapter(const judge_spec& spec,
                                                   const http_tuning& tuning);

/// What to check when the backend refuses the credentials (HTTP 401/403):
/// the key's variable, by name.
std::string credentials_hint(const judge_spec& spec);

/// The base URL a spec resolves to (bad_config when it is not usable).
caf::expected<std::string> resolve_base_url(const judge_spec& spec);

/// The batch client of an anthropic or openai judge (issue 17): the same
/// URL, key and CA as its synchronous adapter.
caf::expected<batch_client_config>
batch_client_config_for(const judge_spec& spec);

} // namespace ij
