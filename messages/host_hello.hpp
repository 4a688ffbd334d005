#pragma once
// What a judge host says about itself before a coordinator uses its workers
// (SPEC §10, "Distribution"): enough for the coordinator to refuse a host it
// cannot work with, naming the field — another software version is only
// recorded, another prompt or message-type set is refused.
#include <cstdint>
#include <string>
#include <vector>

#include <caf/meta/type_name.hpp>

namespace ij {

struct host_hello {
  /// The address the host listens on, as it was started ("ADDR:PORT").
  std::string host;
  /// Changes with every start of the host process: a coordinator tells a
  /// host that came back (a new epoch) from one that only answered late.
  std::uint64_t epoch = 0;
  /// The software version of the host process.
  std::string version;
  /// The canonical judge prompt of this build (core/prompts/prompt.hpp).
  std::string prompt_id;
  std::string prompt_sha256;
  /// Every message type the host's actor system knows, sorted: both ends
  /// must read the same types the same way.
  std::vector<std::string> message_types;
  /// Every built-in prompt of this build, "ID SHA256", sorted: a host
  /// whose built-in prompt of an id has other bytes is refused (issue 29).
  std::vector<std::string> built_in_prompts{};
};

inline bool operator==(const host_hello& x, const host_hello& y) {
  return x.host == y.host && x.epoch == y.epoch && x.version == y.version
         && x.prompt_id == y.prompt_id && x.prompt_sha256 == y.prompt_sha256
         && x.message_types == y.message_types
         && x.built_in_prompts == y.built_in_prompts;
}

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, host_hello& x) {
  return f(caf::meta::type_name("ij.host_hello2"), x.host, x.epoch, x.version,
           x.prompt_id, x.prompt_sha256, x.message_types, x.built_in_prompts);
}

} // namespace ij
