#include "adapters/adapter_factory.hpp"

#include <utility>

#include "adapters/backend_makers.hpp"
#include "adapters/batch_judge.hpp"
#include "adapters/circuit_breaker.hpp"
#include "adapters/http_backends.hpp"
#include "core/config/backend_kinds.hpp"
#include "core/config/batch_settings.hpp"
#include "messages/error.hpp"

namespace ij {

namespace {

// A batched judge: the provider's batch API in front of the judge's
// ordinary adapter (breaker included), which answers the votes a batch did
// not when on_failure is "sync". Not wrapped in a breaker itself: a batch
// fails as a whole, and its votes go per on_failure.
caf::expected<judge_adapter_ptr>
make_batched(const judge_spec& spec, judge_adapter_ptr fallback,
             std::shared_ptr<batch_journal> journal) {
  if (!journal)
    return make_error(
      errc::bad_config,
      "judge '" + spec.name
        + "': batched votes need a journal for their batches: a run's "
          "audit (invjudge run) or the daemon's state (invjudge serve); "
          "a judge host or selftest does not batch (remove batch.enabled)");
  auto client_cfg = batch_client_config_for(spec);
  if (!client_cfg)
    return std::move(client_cfg.error());
  batch_judge_config cfg;
  cfg.api = client_cfg->api;
  cfg.max_requests = spec.batch.max_requests;
  cfg.max_wait = spec.batch.max_wait;
  cfg.poll = spec.batch.poll;
  cfg.on_failure = spec.batch.on_failure == "fault"
                     ? batch_failure_policy::fault
                     : batch_failure_policy::sync;
  auto client = batch_client::create(std::move(*client_cfg));
  if (!client)
    return std::move(client.error());
  auto judge = make_batch_judge(cfg, std::move(*client), std::move(fallback),
                                std::move(journal));
  if (!judge)
    return std::move(judge.error());
  return judge_adapter_ptr{std::move(*judge)};
}

} // namespace

caf::expected<judge_adapter_ptr>
make_adapter(const judge_spec& spec, std::shared_ptr<batch_journal> journal) {
  // The kind's row (core/config/backend_kinds) says what it is; its maker
  // (adapters/backend_makers) builds it.
  auto kind = find_backend_kind(spec.type);
  auto make = maker_of(spec.type);
  if (!kind)
    return unknown_backend_kind(spec.type, "");
  if (!make)
    return make_error(errc::bad_config,
                      "judge type '" + spec.type
                        + "' has no adapter (adapters/backend_makers)");
  if (!kind->http) {
    if (kind->knows_model && !kind->knows_model(spec.model))
      return make_error(errc::bad_config, "unknown " + kind->unknown_model_word
                                            + " '" + spec.model + "' (expected "
                                            + kind->models_text() + ")");
    return make(spec);
  }
  if (spec.model.empty())
    return make_error(errc::bad_config, "judge '" + spec.name + "' of type '"
                                          + spec.type + "' names no model");
  auto adapter = make(spec);
  // A dead or misconfigured backend must not cost its timeouts and
  // retries on every vote.
  if (adapter && spec.breaker.enabled)
    *adapter = std::make_shared<circuit_breaker>(
      std::move(*adapter), spec.breaker, credentials_hint(spec));
  if (adapter && spec.batch.enabled)
    return make_batched(spec, std::move(*adapter), std::move(journal));
  return adapter;
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

caf::expected<std::vector<judge_binding>>
bind_judges(const run_config& cfg, std::shared_ptr<batch_journal> journal) {
  std::vector<judge_binding> out;
  for (std::size_t i = 0; i < cfg.judges.size(); ++i) {
    // A declared prompt is read before any judge is built
    // (runio/prompt_file): a judge never calls without its template.
    auto prompts = prompts_of(cfg.judges[i]);
    if (!prompts.numeric || !prompts.non_numeric)
      return make_error(errc::bad_config,
                        cfg.source + ": /judges/" + std::to_string(i) + " ("
                          + cfg.judges[i].name
                          + "): its prompt file was not read");
    auto adapter = make_adapter(cfg.judges[i], journal);
    if (!adapter) {
      // The same code, its context saying which judge of which file.
      auto& err = adapter.error();
      return caf::error{
        err.code(), err.category(),
        caf::make_message(cfg.source + ": /judges/" + std::to_string(i) + " ("
                          + cfg.judges[i].name + "): " + context_of(err))};
    }
    auto batch = std::dynamic_pointer_cast<batch_judge>(*adapter);
    out.push_back(
      judge_binding{cfg.judges[i], std::move(*adapter), std::move(batch)});
  }
  return out;
}

} // namespace ij
