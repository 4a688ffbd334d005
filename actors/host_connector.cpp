#include "actors/host_connector.hpp"

#include <algorithm>
#include <cstdint>
#include <memory>
#include <utility>

#include <caf/io/middleman_actor.hpp>

#include "core/audit/run_manifest.hpp"
#include "core/hosts/peer_compatibility.hpp"
#include "messages/error.hpp"

namespace ij {

namespace {

using self_ptr = host_connector_actor::stateful_pointer<host_connector_state>;
using phase = host_connector_state::phase;

std::int64_t now_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
           std::chrono::system_clock::now().time_since_epoch())
    .count();
}

void start_attempt(self_ptr self, int early_drops_left = 3);

// Tells the directory (and through it every run) what happened.
void tell(self_ptr self, host_event_kind kind, std::string detail) {
  auto& st = self->state;
  host_event e{st.name_of_host, kind, std::move(detail), st.workers, now_ms()};
  st.last = e;
  self->send(st.directory, std::move(e));
}

void first_attempt_ended(self_ptr self) {
  auto& st = self->state;
  if (st.first_attempt_done)
    return;
  st.first_attempt_done = true;
  for (auto& p : st.waiting_ready)
    p.deliver(st.last);
  st.waiting_ready.clear();
}

// The next attempt after the backoff, which doubles up to retry_max.
void schedule_retry(self_ptr self, std::chrono::milliseconds wait) {
  auto& st = self->state;
  st.state = phase::cooling_down;
  self->delayed_send(self, wait, retry_atom::value, st.attempt);
}

void back_off(self_ptr self) {
  auto& st = self->state;
  auto first = std::max(st.settings.heartbeat, std::chrono::milliseconds{100});
  st.backoff = st.backoff.count() == 0
                 ? first
                 : std::min(st.backoff * 2, st.settings.retry_max);
  schedule_retry(self, st.backoff);
}

// An attempt failed (unreachable, timed out, still starting): try again.
void attempt_failed(self_ptr self, std::uint64_t attempt, std::string why) {
  auto& st = self->state;
  if (attempt != st.attempt || st.state != phase::connecting)
    return;
  ++st.attempt;
  st.last = host_event{st.name_of_host,
                       st.ever_connected ? host_event_kind::lost
                                         : host_event_kind::refused,
                       "host " + st.name_of_host + " not reachable: " + why,
                       {},
                       now_ms()};
  first_attempt_ended(self);
  back_off(self);
}

// The host cannot be used as it is: said once per reason, retried slowly
// (an operator may fix and restart it).
void refuse(self_ptr self, std::uint64_t attempt, std::string why) {
  auto& st = self->state;
  if (attempt != st.attempt)
    return;
  ++st.attempt;
  auto detail = "host " + st.name_of_host + " refused: " + why;
  if (detail != st.last_refusal) {
    st.last_refusal = detail;
    st.workers.clear();
    tell(self, host_event_kind::refused, detail);
  }
  first_attempt_ended(self);
  st.backoff = st.settings.retry_max;
  schedule_retry(self, st.backoff);
}

void tick(self_ptr self, std::uint64_t attempt);

// Every worker joined: the host is in service.
void on_joined(self_ptr self, std::uint64_t attempt) {
  auto& st = self->state;
  if (attempt != st.attempt)
    return;
  st.state = phase::connected;
  st.backoff = std::chrono::milliseconds{0};
  st.last_refusal.clear();
  st.last_answer = self->clock().now();
  self->monitor(st.host);
  tell(
    self,
    st.ever_connected ? host_event_kind::rejoined : host_event_kind::connected,
    "host " + st.name_of_host + " serves " + std::to_string(st.workers.size())
      + " worker(s), version " + st.own.version);
  st.ever_connected = true;
  st.lost_since_connected = false;
  first_attempt_ended(self);
  // The first ping at once: it tells the host the hello's round trip.
  self->send(self, host_tick_atom::value, st.attempt);
}

// Joins the host's workers to the directory, all or the attempt fails.
void join_workers(self_ptr self, std::uint64_t attempt,
                  std::vector<worker_entry>& all) {
  auto& st = self->state;
  st.workers.clear();
  auto left = std::make_shared<std::size_t>(all.size());
  for (auto& e : all) {
    st.workers.push_back(e.info.worker_id);
    self
      ->request(st.directory, st.settings.connect_timeout, join_atom::value,
                e.worker)
      .then(
        [=](judge_info&) {
          if (--*left == 0)
            on_joined(self, attempt);
        },
        [=](caf::error& err) {
          attempt_failed(self, attempt,
                         "its workers cannot join: " + render_error(err));
        });
  }
}

void on_list(self_ptr self, std::uint64_t attempt,
             std::vector<worker_entry>& all) {
  auto& st = self->state;
  if (attempt != st.attempt)
    return;
  if (all.empty()) {
    refuse(self, attempt, "it serves no judge");
    return;
  }
  for (auto& e : all)
    if (auto err = check_compatible(st.own, e.info)) {
      refuse(self, attempt, context_of(err));
      return;
    }
  join_workers(self, attempt, all);
}

void on_hello(self_ptr self, std::uint64_t attempt, host_hello& hello) {
  auto& st = self->state;
  if (attempt != st.attempt)
    return;
  if (auto err = check_compatible(st.own, hello)) {
    refuse(self, attempt, context_of(err));
    return;
  }
  st.epoch = hello.epoch;
  self->request(st.host, st.settings.connect_timeout, list_atom::value)
    .then([=](std::vector<worker_entry>& all) { on_list(self, attempt, all); },
          [=](caf::error& err) {
            attempt_failed(self, attempt,
                           "it did not list its workers: " + render_error(err));
          });
}

// The middleman connected: is it a judge host at all?
void on_connected(self_ptr self, std::uint64_t attempt,
                  caf::strong_actor_ptr& ptr,
                  const std::set<std::string>& ifs) {
  auto& st = self->state;
  if (attempt != st.attempt)
    return;
  if (!ptr) {
    refuse(self, attempt, "nothing is published on that port");
    return;
  }
  if (ifs != self->system().message_types<judge_host_actor>()) {
    refuse(self, attempt,
           "message-type set: what it publishes is not this version's judge "
           "host interface");
    return;
  }
  // The middleman hands over an untyped pointer; its interface was compared
  // with judge_host_actor's just above.
  st.host = caf::actor_cast<judge_host_actor>(ptr);
  auto sent = self->clock().now();
  self->request(st.host, st.settings.connect_timeout, hello_atom::value)
    .then(
      [=](host_hello& h) {
        self->state.rtt = self->clock().now() - sent;
        on_hello(self, attempt, h);
      },
      [=](caf::error& err) {
        attempt_failed(self, attempt,
                       "no answer to hello: " + render_error(err));
      });
}

// CAF 0.17.6's BASP broker gives a new outgoing connection a last-seen
// time of the clock's epoch: a heartbeat tick that comes before the host's
// handshake drops it as `connection_timeout` (seen with TLS under load, and
// a 1 s heartbeat meets a 20 ms handshake one time in fifty). That is no
// answer from the host: the connection is tried again at once, a few times.
bool dropped_before_handshake(const caf::error& err) {
  return err.category() == caf::atom("system")
         && err.code()
              == static_cast<std::uint8_t>(caf::sec::connection_timeout);
}

void start_attempt(self_ptr self, int early_drops_left) {
  auto& st = self->state;
  st.state = phase::connecting;
  auto attempt = st.attempt;
  self
    ->request(st.middleman, st.settings.connect_timeout,
              caf::connect_atom::value, st.address.addr, st.address.port)
    .then(
      [=](caf::node_id&, caf::strong_actor_ptr& ptr,
          std::set<std::string>& ifs) {
        on_connected(self, attempt, ptr, ifs);
      },
      [=](caf::error& err) {
        auto& st = self->state;
        if (dropped_before_handshake(err) && early_drops_left > 0
            && attempt == st.attempt && st.state == phase::connecting)
          return start_attempt(self, early_drops_left - 1);
        attempt_failed(self, attempt,
                       connect_failure(err, self->state.settings));
      });
}

// A round trip in whole microseconds, as a ping carries it.
std::uint32_t round_trip_us(caf::actor_clock::duration_type rtt) {
  auto us = std::chrono::duration_cast<std::chrono::microseconds>(rtt).count();
  return static_cast<std::uint32_t>(
    std::clamp<std::int64_t>(us, 0, UINT32_MAX));
}

// The host is lost: its workers leave (their votes move), then cool down.
void lose(self_ptr self, const std::string& why) {
  auto& st = self->state;
  if (st.state != phase::connected)
    return;
  ++st.attempt;
  self->demonitor(st.host.address());
  auto reason = "host " + st.name_of_host + " lost: " + why;
  for (auto& id : st.workers)
    self->send(st.directory, leave_atom::value, id, reason);
  tell(self, host_event_kind::lost, reason);
  st.lost_since_connected = true;
  back_off(self);
}

void tick(self_ptr self, std::uint64_t attempt) {
  auto& st = self->state;
  if (attempt != st.attempt || st.state != phase::connected)
    return;
  auto silent = self->clock().now() - st.last_answer;
  if (silent > st.settings.lost_after) {
    lose(
      self,
      "no answer to pings for "
        + std::to_string(
          std::chrono::duration_cast<std::chrono::milliseconds>(silent).count())
        + " ms");
    return;
  }
  // Each ping carries the round trip the last one took: the host's workers
  // size their queues for our votes to it (issue 31).
  auto sent = self->clock().now();
  self
    ->request(st.host, st.settings.heartbeat, ping_atom::value,
              round_trip_us(st.rtt))
    .then(
      [=](std::uint64_t epoch) {
        auto& st = self->state;
        if (attempt != st.attempt)
          return;
        if (epoch != st.epoch) {
          lose(self, "it restarted");
          return;
        }
        st.last_answer = self->clock().now();
        st.rtt = st.last_answer - sent;
      },
      [](caf::error&) {
        // Counted by the silence: lost_after decides, not one ping.
      });
  self->delayed_send(self, st.settings.heartbeat, host_tick_atom::value,
                     attempt);
}

void on_retry(self_ptr self, std::uint64_t attempt) {
  auto& st = self->state;
  if (attempt != st.attempt || st.state != phase::cooling_down)
    return;
  if (st.lost_since_connected) {
    st.lost_since_connected = false;
    tell(self, host_event_kind::cooled_down,
         "host " + st.name_of_host + ": reconnecting after "
           + std::to_string(st.backoff.count()) + " ms");
  }
  start_attempt(self);
}

} // namespace

// What CAF 0.17.6 lets a coordinator observe of a failed connect (each
// seen in tests/hosts): a refused TCP connection is cannot_connect_to_node
// with the context ("ip_connect failed", addr, port); a TLS handshake that
// fails is cannot_connect_to_node without that context (a TLS coordinator,
// a host without TLS or with another CA) or disconnect_during_handshake (a
// plain coordinator, a host with TLS); a listener that never answers the
// handshake is connection_timeout (the middleman drops it) or our own
// request_timeout (connect_timeout).
std::string connect_failure(const caf::error& err, const host_connection& c) {
  auto code = [&](caf::sec s) {
    return err.category() == caf::atom("system")
           && err.code() == static_cast<std::uint8_t>(s);
  };
  auto tls_words =
    c.tls()
      ? "the host does not speak TLS, or its certificate is not signed by "
        "this coordinator's --tls-ca (with TLS both ends need a certificate "
        "signed by the same CA)"
      : "the host likely requires TLS, which this coordinator does not use "
        "(give it --tls-cert, --tls-key and --tls-ca signed by the host's CA)";
  if (code(caf::sec::cannot_connect_to_node)) {
    if (caf::to_string(err.context()).find("ip_connect failed")
        != std::string::npos)
      return "connection refused: nothing accepts TCP connections on that "
             "address and port (is `invjudge host` running there?)";
    if (c.tls())
      return std::string{"TLS handshake failed: "} + tls_words;
  }
  if (code(caf::sec::disconnect_during_handshake))
    return std::string{c.tls() ? "TLS handshake failed: "
                               : "the host closed the connection during "
                                 "the handshake: "}
           + tls_words;
  if (code(caf::sec::connection_timeout) || code(caf::sec::request_timeout))
    return "timed out: the host did not complete the handshake in time "
           "(connect_timeout_ms "
           + std::to_string(c.connect_timeout.count())
           + "): a host that hangs, a port that is not an invjudge host, "
             "or a network that drops the connection";
  return render_error(err);
}

host_connector_actor::behavior_type host_connector(
  host_connector_actor::stateful_pointer<host_connector_state> self,
  std::string host, host_connection settings, judge_directory_actor directory,
  caf::io::middleman_actor middleman, host_hello own) {
  auto& st = self->state;
  st.name_of_host = std::move(host);
  if (auto a = parse_host_address(st.name_of_host, false))
    st.address = *a;
  st.settings = settings;
  st.directory = std::move(directory);
  st.middleman = std::move(middleman);
  st.own = std::move(own);
  st.last = host_event{st.name_of_host,
                       host_event_kind::refused,
                       "host " + st.name_of_host + ": connecting",
                       {},
                       now_ms()};
  self->set_down_handler([=](caf::down_msg& dm) {
    if (self->state.host && dm.source == self->state.host.address())
      lose(self, "connection lost (" + render_error(dm.reason) + ")");
  });
  start_attempt(self);
  return {
    [=](ready_atom) -> caf::result<host_event> {
      auto& st = self->state;
      if (st.first_attempt_done)
        return st.last;
      auto p = self->make_response_promise<host_event>();
      st.waiting_ready.push_back(p);
      return p;
    },
    [=](status_atom) { return self->state.last; },
    [=](retry_atom, std::uint64_t attempt) { on_retry(self, attempt); },
    [=](host_tick_atom, std::uint64_t attempt) { tick(self, attempt); },
  };
}

} // namespace ij
