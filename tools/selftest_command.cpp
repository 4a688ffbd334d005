#include "tools/selftest_command.hpp"

#include <cstdio>
#include <iostream>

#include "adapters/adapter_factory.hpp"
#include "adapters/llm_judge_comparator.hpp"
#include "adapters/self_test.hpp"
#include "tools/config_file.hpp"
#include "tools/exit_codes.hpp"

namespace ij {

int selftest_command(const std::string& config_path,
                     const std::optional<std::string>& judge) {
  auto cfg = command_config(config_path, judge);
  if (!cfg) {
    std::fprintf(stderr, "invjudge: %s\n", context_of(cfg.error()).c_str());
    return exit_code::bad_config;
  }
  auto judges = bind_judges(*cfg);
  if (!judges) {
    std::fprintf(stderr, "invjudge: %s\n", context_of(judges.error()).c_str());
    return exit_code::bad_config;
  }
  bool all_passed = true;
  for (auto& j : *judges) {
    std::cout << "judge " << j.spec.name << " (" << j.adapter->id() << ")\n";
    // Every prompt the judge would send (issue 29): its prompt, and its
    // non-numeric one when it is another and used (a cascade's LLM judge,
    // or one declared).
    auto opts = judge_options_for(j.spec, 0);
    bool sends_other = j.spec.non_numeric_prompt
                       || (cfg->cascade && cfg->cascade->llm == j.spec.name);
    for (bool non_numeric : {false, true}) {
      if (non_numeric
          && (!sends_other || opts.prompts.non_numeric == opts.prompts.numeric))
        continue;
      auto report =
        run_self_test(*j.adapter, opts, negative_controls(), {}, non_numeric);
      print_self_test_report(std::cout, report);
      all_passed = all_passed && report.passed();
    }
  }
  std::cout.flush();
  return all_passed ? exit_code::ok : exit_code::failed_check;
}

} // namespace ij
