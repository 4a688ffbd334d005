#include "adapters/judge_spec.hpp"

namespace ij {

call_options call_options_for(const judge_spec& spec,
                              std::uint32_t vote_index) {
  call_options opts;
  opts.model = spec.model;
  opts.temperature = spec.temperature;
  if (spec.seed)
    opts.seed = *spec.seed + static_cast<std::int64_t>(vote_index);
  opts.max_tokens = spec.max_tokens;
  opts.timeout = spec.timeout;
  return opts;
}

} // namespace ij
