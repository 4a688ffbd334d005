#include "adapters/adapter_factory.hpp"

#include <utility>

#include "adapters/circuit_breaker.hpp"
#include "adapters/http_backends.hpp"
#include "adapters/stub_judges.hpp"
#include "messages/error.hpp"

namespace ij {

caf::expected<judge_adapter_ptr> make_adapter(const judge_spec& spec) {
  if (spec.type == "stub") {
    if (auto adapter = make_stub_judge(spec.model, spec.policy))
      return adapter;
    return make_error(errc::bad_config, "unknown stub kind '" + spec.model
                                          + "' (expected " + stub_kinds_text() + ")");
  }
  if (spec.type == "rules") {
    if (auto adapter = make_rule_judge(spec.model, spec.policy))
      return adapter;
    return make_error(errc::bad_config,
                      "unknown rule judge '" + spec.model + "' (expected math)");
  }
  if (is_backend_type(spec.type)) {
    if (spec.model.empty())
      return make_error(errc::bad_config, "judge '" + spec.name + "' of type '"
                                            + spec.type + "' names no model");
    auto adapter = make_http_adapter(spec);
    // A dead or misconfigured backend must not cost its timeouts and
    // retries on every vote.
    if (adapter && spec.breaker.enabled)
      *adapter = std::make_shared<circuit_breaker>(std::move(*adapter), spec.breaker,
                                                   credentials_hint(spec));
    return adapter;
  }
  return make_error(errc::bad_config,
                    "unknown judge type '" + spec.type
                      + "' (expected stub, rules, ollama, anthropic or openai)");
}

call_options call_options_for(const judge_spec& spec,
                              std::uint32_t vote_index) {
  call_options opts;
  opts.model = spec.model;
  opts.temperature = spec.temperature;
  if (spec.seed)
    opts.seed = *spec.seed + static_cast<std::int64_t>(vote_index);
  opts.max_tokens = spec.max_tokens;
  opts.timeout = spec.timeout;
  opts.vote_index = vote_index;
  opts.logprobs = spec.logprobs;
  opts.constrain = spec.constrain;
  return opts;
}

caf::expected<std::vector<judge_binding>> bind_judges(const run_config& cfg) {
  std::vector<judge_binding> out;
  for (std::size_t i = 0; i < cfg.judges.size(); ++i) {
    auto adapter = make_adapter(cfg.judges[i]);
    if (!adapter) {
      // The same code, its context saying which judge of which file.
      auto& err = adapter.error();
      return caf::error{err.code(), err.category(),
                        caf::make_message(cfg.source + ": /judges/" + std::to_string(i)
                                          + " (" + cfg.judges[i].name
                                          + "): " + context_of(err))};
    }
    out.push_back(judge_binding{cfg.judges[i], std::move(*adapter)});
  }
  return out;
}

} // namespace ij
