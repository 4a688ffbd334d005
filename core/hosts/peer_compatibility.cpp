#include "core/hosts/peer_compatibility.hpp"

#include <algorithm>
#include <iterator>
#include <string>
#include <vector>

#include "messages/error.hpp"

namespace ij {

namespace {

caf::error differs(const std::string& who, const char* field,
                   const std::string& host, const std::string& here) {
  return make_error(errc::incompatible_peer, who + field
                                               + " differs (host: " + host
                                               + ", here: " + here + ")");
}

// "N type(s) only on the host, e.g. X; M only here, e.g. Y".
std::string type_difference(const std::vector<std::string>& theirs,
                            const std::vector<std::string>& own,
                            const std::string& noun = "type(s)") {
  std::vector<std::string> only_there, only_here;
  std::set_difference(theirs.begin(), theirs.end(), own.begin(), own.end(),
                      std::back_inserter(only_there));
  std::set_difference(own.begin(), own.end(), theirs.begin(), theirs.end(),
                      std::back_inserter(only_here));
  return std::to_string(only_there.size()) + " " + noun + " only on the host"
         + (only_there.empty() ? "" : ", e.g. " + only_there.front()) + "; "
         + std::to_string(only_here.size()) + " only here"
         + (only_here.empty() ? "" : ", e.g. " + only_here.front());
}

} // namespace

caf::error check_compatible(const host_hello& own, const host_hello& theirs) {
  if (theirs.prompt_id != own.prompt_id)
    return differs("", "prompt_id", theirs.prompt_id, own.prompt_id);
  if (theirs.prompt_sha256 != own.prompt_sha256)
    return differs("", "prompt_sha256", theirs.prompt_sha256,
                   own.prompt_sha256);
  if (theirs.built_in_prompts != own.built_in_prompts)
    return make_error(errc::incompatible_peer,
                      "built-in prompts differ ("
                        + type_difference(theirs.built_in_prompts,
                                          own.built_in_prompts, "prompt(s)")
                        + ")");
  if (theirs.message_types != own.message_types)
    return make_error(
      errc::incompatible_peer,
      "message-type set differs ("
        + type_difference(theirs.message_types, own.message_types) + ")");
  return {};
}

caf::error check_compatible(const host_hello& own, const judge_info& worker) {
  const auto who = "worker " + worker.worker_id + ": ";
  auto check = [&](const char* field, const std::string& id,
                   const std::string& sha) -> caf::error {
    // A built-in id must name this build's bytes (a declared prompt is
    // matched through the judge id instead).
    auto prefix = id + " ";
    for (auto& b : own.built_in_prompts)
      if (b.compare(0, prefix.size(), prefix) == 0
          && b.substr(prefix.size()) != sha)
        return differs(who, field, id + " " + sha, b);
    return {};
  };
  if (auto err = check("prompt_sha256", worker.prompt_id, worker.prompt_sha256))
    return err;
  return check("non_numeric_prompt_sha256", worker.non_numeric_prompt_id,
               worker.non_numeric_prompt_sha256);
}

} // namespace ij
