#include "actors/local_workers.hpp"

#include <atomic>
#include <chrono>

#include <caf/scoped_actor.hpp>

#include "actors/judge_worker.hpp"
#include "messages/error.hpp"

namespace ij {

caf::expected<std::vector<judge_info>>
start_local_workers(caf::actor_system& sys,
                    const judge_directory_actor& directory,
                    std::vector<judge_binding> bindings,
                    const std::string& host, std::uint32_t queue_max) {
  static std::atomic<unsigned> counter{0};
  caf::scoped_actor self{sys};
  std::vector<judge_info> out;
  for (auto& b : bindings) {
    auto name =
      b.spec.name.empty() ? b.spec.type + ":" + b.spec.model : b.spec.name;
    auto id = name + "#" + std::to_string(++counter) + "@" + host;
    auto worker = spawn_judge_worker(sys, std::move(b), id, host, queue_max);
    caf::error failed;
    self->request(directory, std::chrono::seconds(30), join_atom::value, worker)
      .receive([&](judge_info& info) { out.push_back(std::move(info)); },
               [&](caf::error& err) { failed = std::move(err); });
    if (failed)
      return failed;
  }
  return out;
}

} // namespace ij
