#include "tools/unknown_subcommand.hpp"

#include <vector>

namespace ij {

std::string unknown_subcommand(CLI::App& app, int argc,
                               const char* const* argv) {
  CLI::App* level = &app;
  for (int i = 1; i < argc; ++i) {
    std::string word = argv[i];
    if (word.empty() || word[0] == '-')
      return {}; // an option: CLI11's own message is the right one
    auto subs = level->get_subcommands([](CLI::App*) { return true; });
    if (subs.empty())
      return {}; // a positional argument of a leaf subcommand
    CLI::App* next = nullptr;
    std::vector<std::string> shown;
    for (auto* s : subs) {
      if (s->check_name(word))
        next = s;
      if (!s->get_group().empty())
        shown.push_back(s->get_name());
    }
    if (next) {
      level = next;
      continue;
    }
    std::string list;
    for (std::size_t k = 0; k < shown.size(); ++k)
      list += (k == 0 ? "" : k + 1 == shown.size() ? " or " : ", ") + shown[k];
    return "unknown subcommand '" + word + "'"
           + (level == &app ? std::string{} : " of " + level->get_name())
           + " (expected " + list + ")";
  }
  return {};
}

} // namespace ij
