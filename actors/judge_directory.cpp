#include "actors/judge_directory.hpp"

#include <algorithm>
#include <utility>

#include <caf/actor_system.hpp>
#include <caf/typed_event_based_actor.hpp>

#include "messages/error.hpp"

namespace ij {

namespace {

using self_ptr = judge_directory_actor::stateful_pointer<judge_directory_state>;

std::vector<worker_entry> listing(const judge_directory_state& st) {
  std::vector<worker_entry> out;
  out.reserve(st.workers.size());
  for (auto& kv : st.workers)
    out.push_back(kv.second);
  // In worker id order: the same workers always list the same way.
  std::sort(out.begin(), out.end(), [](const auto& x, const auto& y) {
    return x.info.worker_id < y.info.worker_id;
  });
  return out;
}

void on_down(self_ptr self, const caf::down_msg& dm) {
  auto& st = self->state;
  auto i = st.ids.find(dm.source);
  if (i == st.ids.end()) {
    // A subscriber ended.
    st.subscribers.erase(std::remove_if(st.subscribers.begin(),
                                        st.subscribers.end(),
                                        [&](const directory_listener_actor& s) {
                                          return s.address() == dm.source;
                                        }),
                         st.subscribers.end());
    return;
  }
  auto id = i->second;
  st.ids.erase(i);
  st.workers.erase(id);
  auto why = "the worker ended: " + render_error(dm.reason);
  for (auto& s : st.subscribers)
    self->send(s, left_atom::value, id, why);
}

// A worker whose host was declared lost: its actor may live on (a hung
// host), so its monitor stays; the entry goes, and a later join (the host
// rejoined) registers it again.
void leave(self_ptr self, const std::string& id, const std::string& why) {
  auto& st = self->state;
  auto i = st.workers.find(id);
  if (i == st.workers.end())
    return;
  st.ids.erase(i->second.worker.address());
  self->demonitor(i->second.worker.address());
  st.workers.erase(i);
  for (auto& s : st.subscribers)
    self->send(s, left_atom::value, id, why);
}

caf::result<judge_info> join(self_ptr self, judge_worker_actor worker) {
  auto promise = self->make_response_promise<judge_info>();
  self->request(worker, self->state.describe_timeout, info_atom::value)
    .then(
      [=](judge_info& info) mutable {
        auto& st = self->state;
        auto known = st.workers.find(info.worker_id);
        if (known != st.workers.end() && known->second.worker != worker) {
          promise.deliver(
            make_error(errc::bad_config, "worker id " + info.worker_id
                                           + " is taken by another worker"));
          return;
        }
        if (known == st.workers.end()) {
          self->monitor(worker);
          st.ids[worker.address()] = info.worker_id;
        }
        worker_entry entry{worker, info};
        st.workers[info.worker_id] = entry;
        for (auto& s : st.subscribers)
          self->send(s, joined_atom::value, entry);
        promise.deliver(std::move(info));
      },
      [=](caf::error& err) mutable {
        promise.deliver(
          make_error(errc::unreachable, "the worker did not describe itself: "
                                          + render_error(err)));
      });
  return promise;
}

} // namespace

judge_directory_actor::behavior_type judge_directory(
  judge_directory_actor::stateful_pointer<judge_directory_state> self,
  std::chrono::milliseconds describe_timeout) {
  self->state.describe_timeout = describe_timeout;
  self->set_down_handler([=](caf::down_msg& dm) { on_down(self, dm); });
  return {
    [=](join_atom, judge_worker_actor& worker) -> caf::result<judge_info> {
      return join(self, std::move(worker));
    },
    [=](list_atom) { return listing(self->state); },
    [=](shutdown_atom) {
      std::uint32_t ended = 0;
      for (auto& [id, w] : self->state.workers)
        if (w.worker.node() == self->node()) {
          self->send_exit(w.worker, caf::exit_reason::user_shutdown);
          ++ended;
        }
      return ended;
    },
    [=](leave_atom, std::string& id, std::string& why) {
      leave(self, id, why);
    },
    [=](host_event& e) {
      for (auto& s : self->state.subscribers)
        self->send(s, e);
      self->state.hosts[e.host] = std::move(e);
    },
    [=](subscribe_atom, directory_listener_actor& s) {
      auto& st = self->state;
      if (std::find(st.subscribers.begin(), st.subscribers.end(), s)
          == st.subscribers.end()) {
        self->monitor(s);
        st.subscribers.push_back(s);
        for (auto& kv : st.hosts)
          self->send(s, kv.second);
      }
      return listing(st);
    },
  };
}

judge_directory_actor
spawn_judge_directory(caf::actor_system& sys,
                      std::chrono::milliseconds describe_timeout) {
  return sys.spawn(judge_directory, describe_timeout);
}

std::uint32_t stop_local_workers(caf::scoped_actor& self,
                                 const judge_directory_actor& directory,
                                 caf::timespan timeout) {
  std::uint32_t ended = 0;
  self->request(directory, timeout, shutdown_atom::value)
    .receive([&](std::uint32_t n) { ended = n; }, [](caf::error&) {});
  return ended;
}

} // namespace ij
