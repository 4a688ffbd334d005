// The checks of validate(run_config): each part of a configuration, however
// it was made, against what a run needs.
#include <functional>
#include <set>

#include "core/config/backend_kinds.hpp"
#include "core/config/run_config.hpp"
#include "core/hosts/host_address.hpp"
#include "core/verdicts/verdict_table.hpp"

namespace ij {

namespace {

using fail_fn = std::function<caf::error(const std::string& pointer,
                                         const std::string& what)>;

caf::error validate_judges(const run_config& cfg, const fail_fn& fail) {
  if (cfg.judges.empty())
    return fail("/judges", "no judge configured");
  for (std::size_t i = 0; i < cfg.judges.size(); ++i)
    for (bool constrain : {false, true})
      if (auto err = judge_setting_problem(cfg.judges[i], constrain))
        return fail("/judges/" + std::to_string(i)
                      + (constrain ? "/constrain" : "/logprobs"),
                    context_of(err));
  for (std::size_t i = 0; i < cfg.judges.size(); ++i) {
    auto& j = cfg.judges[i];
    auto kind = find_backend_kind(j.type);
    if (kind && !kind->takes_prompt
        && (j.prompt != prompt_choice{} || j.non_numeric_prompt))
      return fail(
        "/judges/" + std::to_string(i)
          + (j.prompt != prompt_choice{} ? "/prompt" : "/non_numeric_prompt"),
        "a " + j.type
          + " judge reads the answers by rule and sends no prompt "
            "(remove \"prompt\", or give it to a model judge)");
  }
  if (auto err = validate(cfg.votes))
    return fail(cfg.votes.votes < 1 ? "/votes" : "/min_agreement",
                context_of(err));
  if (cfg.vote_deadline.count() <= 0)
    return fail("/vote_deadline_ms", "the vote deadline must be positive");
  return caf::error{};
}

// Batch settings (issue 17): only the APIs that have one, within its limit;
// the batch discount is a share of the price.
caf::error validate_batches(const run_config& cfg, const fail_fn& fail) {
  for (std::size_t i = 0; i < cfg.judges.size(); ++i) {
    auto& j = cfg.judges[i];
    auto at = "/judges/" + std::to_string(i);
    if (j.prices
        && !(j.prices->batch_discount >= 0.0
             && j.prices->batch_discount <= 1.0))
      return fail(at + "/prices/batch_discount",
                  "the batch discount is a share of the price, from 0 to 1");
    if (!j.batch.enabled)
      continue;
    auto kind = find_backend_kind(j.type);
    auto limit = kind ? kind->batch_limit : 0;
    if (limit == 0)
      return fail(
        at + "/batch",
        "judge \"" + j.name + "\" of type \"" + j.type
          + "\" has no batch API (batch is for "
          + backend_kinds_text([](auto& k) { return k.batch_limit > 0; }, "and")
          + " judges)");
    if (j.batch.max_requests < 1 || j.batch.max_requests > limit)
      return fail(at + "/batch/max_requests",
                  "must be from 1 to " + std::to_string(limit) + " (the "
                    + j.type + " API's requests per batch)");
    if (j.batch.on_failure != "sync" && j.batch.on_failure != "fault")
      return fail(at + "/batch/on_failure", "must be \"sync\" or \"fault\"");
  }
  return caf::error{};
}

caf::error validate_hosts(const run_config& cfg, const fail_fn& fail) {
  for (std::size_t i = 0; i < cfg.hosts.size(); ++i)
    if (auto a = parse_host_address(cfg.hosts[i], false); !a)
      return fail("/hosts/" + std::to_string(i), context_of(a.error()));
  auto& c = cfg.connection;
  auto given = !c.tls_cert.empty() + !c.tls_key.empty() + !c.tls_ca.empty();
  if (given != 0 && given != 3)
    return fail("/host_connection",
                "mutual TLS needs all three of tls_cert, tls_key and tls_ca");
  if (c.lost_after < c.heartbeat)
    return fail("/host_connection/lost_after_ms",
                "must be at least heartbeat_ms (a host is lost after missed "
                "pings)");
  return caf::error{};
}

caf::error validate_statistics(const run_config& cfg, const fail_fn& fail) {
  if (auto err = validate(cfg.stats))
    return fail("/statistics", context_of(err));
  if (!(cfg.canaries.rate >= 0.0 && cfg.canaries.rate <= 1.0))
    return fail("/canaries/rate", "must be between 0 and 1");
  if (auto err = validate(cfg.canaries.alarm))
    return fail("/canaries", context_of(err));
  if (cfg.stop_probability && cfg.calibration.empty())
    return fail("/stop/probability",
                "stopping on probability needs a calibration map "
                "(\"calibration\": \"MAP.json\", made by invjudge calibrate)");
  return caf::error{};
}

// A panel or cascade names configured judges; a calibration map is for
// pooled votes only.
caf::error validate_routes(const run_config& cfg, const fail_fn& fail) {
  if (cfg.panel && cfg.cascade)
    return fail("/cascade", "give either \"panels\" or \"cascade\", not both");
  if (cfg.panel && cfg.panel->judges.size() < 2)
    return fail("/panels", "a panel needs at least two judges ("
                             + std::to_string(cfg.panel->judges.size())
                             + " configured)");
  std::vector<std::string> names;
  if (cfg.panel)
    names = cfg.panel->judges;
  if (cfg.cascade)
    names = {cfg.cascade->rules, cfg.cascade->llm};
  for (auto& n : names)
    if (!find_judge(cfg, n))
      return fail(cfg.panel ? "/panels/judges" : "/cascade",
                  "the " + std::string{cfg.panel ? "panel" : "cascade"}
                    + " names judge \"" + n + "\", which is not configured");
  if (!cfg.calibration.empty() && (cfg.panel || cfg.cascade))
    return fail("/calibration",
                std::string{"a calibration map applies to pooled votes, not "
                            "to a "}
                  + (cfg.panel ? "panel" : "cascade"));
  return caf::error{};
}

// Budgets: a cost limit needs prices; judges sharing a judge id (one model on
// several endpoints) are one judge and cannot have two budgets.
caf::error validate_budgets(const run_config& cfg, const fail_fn& fail) {
  std::set<std::string> budgeted;
  for (std::size_t i = 0; i < cfg.judges.size(); ++i) {
    auto& j = cfg.judges[i];
    auto at = "/judges/" + std::to_string(i);
    if (j.budget.max_cost && !j.prices)
      return fail(at + "/budget/max_cost",
                  "a cost limit needs the judge's \"prices\" (per million "
                  "input and output tokens)");
    if (j.budget.any() && !budgeted.insert(judge_id_of(j)).second)
      return fail(at + "/budget", "judge \"" + j.name
                                    + "\" serves the same judge as another "
                                      "budgeted judge: give the budget once");
  }
  return caf::error{};
}

} // namespace

caf::error validate_judge_kinds(const run_config& cfg) {
  for (std::size_t i = 0; i < cfg.judges.size(); ++i) {
    auto& j = cfg.judges[i];
    auto at = "/judges/" + std::to_string(i);
    auto kind = find_backend_kind(j.type);
    if (!kind)
      return config_error(cfg.source, at + "/type",
                          context_of(unknown_backend_kind(j.type, "")));
  }
  return caf::error{};
}

caf::error validate(const run_config& cfg) {
  fail_fn fail = [&](const std::string& pointer, const std::string& what) {
    return config_error(cfg.source, pointer, what);
  };
  for (auto step : {validate_judges, validate_batches, validate_hosts,
                    validate_statistics, validate_routes, validate_budgets})
    if (auto err = step(cfg, fail))
      return err;
  return caf::error{};
}

} // namespace ij
