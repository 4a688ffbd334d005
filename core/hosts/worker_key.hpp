#pragma once
// Which worker may serve a configured judge (issue 26, item 2): one worker
// serves one exact set of call settings. The key is every setting that
// changes what a call sends or how its reply is read, one table of them
// (call_settings()), so that a setting is listed once and the daemon's
// worker sharing, a run's choice of workers and a judge host's refusal all
// follow it.
//
// Two kinds of settings. Those a vote depends on (adapter, model,
// temperature, seed, max tokens, prompt, log-probabilities, constraint,
// batch settings, answer policy) must be equal wherever a vote is cast. The
// host-local ones (display name, endpoint, key variable, CA file, timeout,
// attempts, in-flight cap, reply size limit, circuit breaker) say how one
// process reaches its backend: each GPU machine of a judge host has its own
// endpoint and key, and the votes it casts are the same. A local worker
// serves a judge only when every setting is equal; a judge host's worker
// when every vote setting is.
#include <string>
#include <vector>

#include "core/config/judge_spec.hpp"
#include "messages/judge_info.hpp"

namespace ij {

/// One setting of the key.
struct call_setting {
  /// As the configuration names it ("base_url", "seed", ...; "adapter" for
  /// the judge's type, "prompt" and "non_numeric_prompt" for their ids and
  /// template SHA-256s).
  const char* name;
  /// A judge host's own: not compared for a host's workers.
  bool host_local;
  /// The value as the key writes it (exact: two values that differ never
  /// write the same text).
  std::string (*text)(const judge_spec&);
};

/// Every setting of the key, in the key's order (vote settings first).
const std::vector<call_setting>& call_settings();

/// The key of `spec`: one "name=value" line per setting of call_settings(),
/// in order. Two judges share a worker exactly when their keys are equal.
std::string worker_key_of(const judge_spec& spec);

/// Whether `worker` serves `spec`: the same judge id, and every setting
/// equal (a local worker) or every vote setting equal (a judge host's).
bool serves(const judge_spec& spec, const judge_info& worker);

/// The settings in which `worker` differs from `spec` (host-local ones
/// skipped for a judge host's worker), each with both values, in the
/// table's order: "seed differs (host: 3, here: none)".
std::vector<std::string> setting_differences(const judge_spec& spec,
                                             const judge_info& worker);

/// Whether `worker` is a judge host's (not this process's own).
bool is_host_worker(const judge_info& worker);

/// The judges a vote coordinator takes workers for: those of `judges`'
/// ids whose settings match (serves()). Pure data the coordinator carries.
struct judge_selection {
  std::vector<judge_spec> judges;
  /// Whether some judge of the selection is served by `worker`.
  bool takes(const judge_info& worker) const;
  /// The judge ids, once each, in order.
  std::vector<std::string> judge_ids() const;
};

} // namespace ij
