#include "core/session/run_warnings.hpp"

namespace ij {

std::vector<std::string> run_warnings(const run_config& config,
                                      const std::vector<judge_info>& judges) {
  std::vector<std::string> out;
  if (config.votes.votes <= 1)
    return out;
  for (auto& j : judges)
    if (j.temperature == 0.0 && !j.supports_seed)
      out.push_back("judge " + j.name + ": "
                    + std::to_string(config.votes.votes)
                    + " votes at temperature 0 on a backend without seed "
                      "support will likely all repeat the first answer "
                      "(wasted calls)");
  return out;
}

} // namespace ij
