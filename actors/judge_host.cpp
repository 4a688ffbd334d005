#include "actors/judge_host.hpp"

#include <algorithm>
#include <chrono>
#include <random>

#include "core/audit/run_manifest.hpp"
#include "core/prompts/prompt.hpp"
#include "messages/error.hpp"
#include "messages/registration.hpp"

namespace ij {

host_hello describe_host(const std::string& host) {
  host_hello h;
  h.host = host;
  h.version = software_version();
  h.prompt_id = std::string{judge_prompt_id};
  h.prompt_sha256 = judge_prompt_template_sha256();
  for (auto& p : built_in_prompts())
    h.built_in_prompts.push_back(p->id() + " " + p->sha256());
  std::sort(h.built_in_prompts.begin(), h.built_in_prompts.end());
  return h;
}

namespace {

// The sender's node is rtt_us away: every worker of the host hears so (they
// are few; a ping comes every heartbeat).
void tell_round_trip(
  judge_host_impl_actor::stateful_pointer<judge_host_state> self,
  std::uint32_t rtt_us) {
  auto sender = self->current_sender();
  if (!sender)
    return;
  auto node = sender->node();
  self
    ->request(self->state.directory, std::chrono::seconds(10), list_atom::value)
    .then(
      [=](std::vector<worker_entry>& all) {
        for (auto& e : all)
          self->send(e.worker, rtt_atom::value, node, rtt_us);
      },
      [](caf::error&) {});
}

} // namespace

judge_host_impl_actor::behavior_type
judge_host(judge_host_impl_actor::stateful_pointer<judge_host_state> self,
           host_hello hello, judge_directory_actor directory,
           std::size_t expected_workers) {
  auto& st = self->state;
  st.hello = std::move(hello);
  st.hello.message_types = registered_message_types(self->system().config());
  // The start time and a random part: a restarted host has a new epoch.
  std::random_device rd;
  st.hello.epoch =
    static_cast<std::uint64_t>(
      std::chrono::system_clock::now().time_since_epoch().count())
    ^ (static_cast<std::uint64_t>(rd()) << 20);
  st.directory = std::move(directory);
  st.expected_workers = expected_workers;
  return {
    [=](hello_atom) { return self->state.hello; },
    [=](ping_atom, std::uint32_t rtt_us) {
      if (rtt_us > 0)
        tell_round_trip(self, rtt_us);
      return self->state.hello.epoch;
    },
    [=](host_atom, std::string& name) { self->state.hello.host = name; },
    [=](list_atom) -> caf::result<std::vector<worker_entry>> {
      auto promise = self->make_response_promise<std::vector<worker_entry>>();
      self
        ->request(self->state.directory, std::chrono::seconds(10),
                  list_atom::value)
        .then(
          [=](std::vector<worker_entry>& all) mutable {
            if (all.size() < self->state.expected_workers)
              promise.deliver(make_error(errc::unreachable,
                                         "the host is still starting its "
                                         "judges"));
            else
              promise.deliver(std::move(all));
          },
          [=](caf::error& err) mutable { promise.deliver(std::move(err)); });
      return promise;
    },
  };
}

} // namespace ij
