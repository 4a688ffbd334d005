#pragma once
// Why a served judge is not a configured one (issue 20, item 3): a judge
// host that serves another model or temperature is named with what it
// serves and the field that differs, instead of only "no worker serves
// judge X". Pure: compares a judge_spec (configuration) with a judge_info
// (what a worker says it serves).
#include <string>
#include <vector>

#include <caf/error.hpp>

#include "core/config/judge_spec.hpp"
#include "messages/error.hpp"
#include "messages/judge_info.hpp"

namespace ij {

/// The fields in which `served` differs from `spec`, each with both values:
/// "model differs (host: m2, here: m)", "temperature differs (host: 0.7,
/// here: 0)", joined by "; ". Empty when `served` serves that judge (the
/// same judge id).
std::string judge_difference(const judge_spec& spec, const judge_info& served);

/// What a worker serves, in words: "judge NAME (openai, model m2,
/// temperature 0.7)".
std::string served_judge_text(const judge_info& served);

/// The configured judge `served` differs least from (fewest differing
/// fields; the first on a tie); nullptr when `judges` is empty.
const judge_spec* closest_judge(const std::vector<judge_spec>& judges,
                                const judge_info& served);

} // namespace ij

namespace ij {

/// The first configured judge that no worker in `workers` serves, as
/// errc::no_worker naming what each judge host there serves and how it
/// differs ("no worker serves judge X (ID): host H serves judge Y (...):
/// model differs (host: m2, here: m)"); no error when every judge is served.
caf::error check_served(const std::vector<judge_spec>& judges,
                        const std::vector<judge_info>& workers);

/// A warning per judge host (a worker whose host is not "local") none of
/// whose judges is configured: what it serves and how it differs from the
/// closest configured judge; its workers are connected but not used.
std::vector<std::string>
unused_host_warnings(const std::vector<judge_spec>& judges,
                     const std::vector<judge_info>& workers);

} // namespace ij
