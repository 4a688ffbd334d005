#pragma once
// Builds the adapter a judge_spec names (a stub, or an HTTP backend), and
// the call options a spec implies.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <caf/expected.hpp>

#include "adapters/batch_journal.hpp"
#include "adapters/judge_adapter.hpp"
#include "core/config/judge_spec.hpp"
#include "core/config/run_config.hpp"
#include "messages/error.hpp"

namespace ij {

class batch_judge;

/// A judge as configured, with its adapter built.
struct judge_binding {
  judge_spec spec;
  judge_adapter_ptr adapter;
  /// A batched judge (spec.batch.enabled): the same adapter, for the run's
  /// adopt, cancel and progress (adapters/batch_judge); null otherwise.
  std::shared_ptr<batch_judge> batch = nullptr;
};

/// Builds the adapter a spec names. Fails with bad_config (unknown type,
/// missing key, bad URL), the context a message fit for the user. A judge
/// with batch.enabled needs `journal` (where its batches are recorded).
caf::expected<judge_adapter_ptr>
make_adapter(const judge_spec& spec,
             std::shared_ptr<batch_journal> journal = nullptr);

/// The call options a spec implies for vote `vote_index`.
call_options call_options_for(const judge_spec& spec, std::uint32_t vote_index);

/// Builds every judge's adapter. Fails (make_adapter's error, its context
/// prefixed with file and pointer) when one cannot be built, e.g. its API
/// key variable is unset.
caf::expected<std::vector<judge_binding>>
bind_judges(const run_config& cfg,
            std::shared_ptr<batch_journal> journal = nullptr);

} // namespace ij
