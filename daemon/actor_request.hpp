#pragma once
// Asking an actor from a thread that is not an actor's (an HTTP thread),
// without waiting for it (issue 26, item 4): a short-lived actor makes the
// request (`request(...).then`) and hands the answer — or the error, with
// CAF's request_timeout once the deadline has passed — to `done`, which
// runs on a scheduler thread and must not block (the daemon's HTTP side
// posts the rest of its work to the connection's strand).
#include <optional>
#include <string>
#include <utility>

#include <caf/actor_system.hpp>
#include <caf/event_based_actor.hpp>
#include <caf/expected.hpp>
#include <caf/sec.hpp>

#include "messages/interfaces.hpp"

namespace ij {

/// Whether `err` is CAF's `what` (a timeout, a receiver that ended).
inline bool is_sec(const caf::error& err, caf::sec what) {
  return err.category() == caf::atom("system")
         && err.code() == static_cast<std::uint8_t>(what);
}

template <class R>
using answer_fn = std::function<void(caf::expected<R>)>;

/// Asks `dest` `xs...`; `done` gets its one reply value or the error.
template <class R, class Handle, class... Ts>
void ask(caf::actor_system& sys, Handle dest, caf::timespan timeout,
         answer_fn<R> done, Ts... xs) {
  sys.spawn(
    [](caf::event_based_actor* self, Handle dest, caf::timespan timeout,
       answer_fn<R> done, Ts... xs) {
      self->request(dest, timeout, std::move(xs)...)
        .then([done](R& r) { done(std::move(r)); },
              [done](caf::error& err) { done(std::move(err)); });
    },
    std::move(dest), timeout, std::move(done), std::move(xs)...);
}

/// A live run's answer; nullopt when no run of that id is live (the run
/// registry knows none, or its actor ended meanwhile: its end is saved,
/// read it from the state).
template <class R>
using run_answer_fn = std::function<void(caf::expected<std::optional<R>>)>;

/// Finds run `id`'s actor through `registry`, then asks it `xs...`, both
/// within `timeout` in all.
template <class R, class... Ts>
void ask_run(caf::actor_system& sys, run_registry_actor registry,
             std::string id, caf::timespan timeout, run_answer_fn<R> done,
             Ts... xs) {
  sys.spawn(
    [](caf::event_based_actor* self, run_registry_actor registry,
       std::string id, caf::timespan timeout, run_answer_fn<R> done, Ts... xs) {
      auto until = self->clock().now() + timeout;
      self->request(registry, timeout, find_atom::value, std::move(id))
        .then(
          [self, until, done, xs...](daemon_run_actor& run) mutable {
            if (!run)
              return done(std::optional<R>{});
            auto left = until - self->clock().now();
            self
              ->request(run, left > caf::timespan{0} ? left : caf::timespan{1},
                        std::move(xs)...)
              .then([done](R& r) { done(std::optional<R>{std::move(r)}); },
                    [done](caf::error& err) {
                      if (is_sec(err, caf::sec::request_receiver_down))
                        return done(std::optional<R>{});
                      done(std::move(err));
                    });
          },
          [done](caf::error& err) { done(std::move(err)); });
    },
    std::move(registry), std::move(id), timeout, std::move(done),
    std::move(xs)...);
}

} // namespace ij
