#include "tools/host_command.hpp"

#include <chrono>
#include <cstdio>
#include <thread>
#include <vector>

#include <caf/actor_system.hpp>
#include <caf/actor_system_config.hpp>
#include <caf/scoped_actor.hpp>

#include "actors/judge_directory.hpp"
#include "actors/judge_host.hpp"
#include "actors/local_workers.hpp"
#include "actors/remoting.hpp"
#include "actors/system_config.hpp"
#include "adapters/adapter_factory.hpp"
#include "core/hosts/host_address.hpp"
#include "messages/error.hpp"
#include "tools/config_file.hpp"
#include "tools/exit_codes.hpp"
#include "tools/interrupt.hpp"

namespace ij {

namespace {

void say(const std::string& text) {
  std::fprintf(stderr, "invjudge host: %s\n", text.c_str());
}

/// What the host serves and how, checked before anything starts.
struct prepared_host {
  host_address listen;
  run_config config;
  std::vector<judge_binding> judges;
};

int prepare(const host_options& opts, prepared_host& h) {
  auto listen = parse_host_address(opts.listen, true);
  if (!listen) {
    say("--listen: " + context_of(listen.error()));
    return exit_code::bad_input;
  }
  h.listen = *listen;
  auto cfg = command_config(opts.config_path, opts.judge);
  if (!cfg) {
    say(context_of(cfg.error()));
    return exit_code::bad_config;
  }
  auto& c = cfg->connection;
  if (!opts.tls_cert.empty() || !opts.tls_key.empty() || !opts.tls_ca.empty())
    c = host_connection{opts.tls_cert,        opts.tls_key,      opts.tls_ca,
                        c.local_judges,       c.heartbeat,       c.lost_after,
                        c.connection_timeout, c.connect_timeout, c.retry_max,
                        c.queue_max};
  if (auto err = check_tls_files(c)) {
    say(context_of(err));
    return exit_code::bad_config;
  }
  if (!is_loopback(h.listen.addr) && !c.tls()) {
    if (!opts.insecure) {
      say("refusing to listen on " + opts.listen
          + " without TLS: anyone who reaches it could use this host's "
            "judges (and their keys' quota). Give --tls-cert, --tls-key and "
            "--tls-ca (scripts/make-certs), or --insecure on a network you "
            "trust");
      return exit_code::bad_config;
    }
    say("warning: listening on " + opts.listen
        + " WITHOUT TLS (--insecure): anyone who reaches it can use these "
          "judges");
  }
  auto judges = bind_judges(*cfg);
  if (!judges) {
    say(context_of(judges.error()));
    return exit_code::bad_config;
  }
  h.config = std::move(*cfg);
  h.judges = std::move(*judges);
  return exit_code::ok;
}

// Publishes the host actor; the port it got, or 0 with the reason said.
std::uint16_t publish(caf::scoped_actor& self, caf::actor_system& sys,
                      const prepared_host& h, const judge_host_actor& host) {
  std::uint16_t port = 0;
  auto mm = connection_manager(sys, h.config.connection.tls());
  self
    ->request(mm, std::chrono::seconds(30), caf::publish_atom::value,
              // The middleman publishes an untyped pointer (with the
              // interface's message types beside it).
              h.listen.port, caf::actor_cast<caf::strong_actor_ptr>(host),
              sys.message_types<judge_host_actor>(), h.listen.addr, true)
    .receive([&](std::uint16_t p) { port = p; },
             [&](caf::error& err) {
               say("cannot listen on " + to_string(h.listen) + ": "
                   + render_error(err));
             });
  return port;
}

// Waits (bounded by the judges' own timeouts) until no call is in flight.
void finish_calls(caf::scoped_actor& self, const std::vector<judge_info>& ws,
                  const judge_directory_actor& directory) {
  std::chrono::milliseconds bound{1000};
  for (auto& w : ws)
    bound = std::max(bound, std::chrono::milliseconds{w.timeout_ms}
                              * std::max<std::uint32_t>(w.max_attempts, 1));
  auto until = std::chrono::steady_clock::now() + bound;
  std::vector<worker_entry> all;
  self->request(directory, std::chrono::seconds(5), list_atom::value)
    .receive([&](std::vector<worker_entry>& xs) { all = std::move(xs); },
             [](caf::error&) {});
  while (std::chrono::steady_clock::now() < until) {
    std::uint32_t in_flight = 0;
    for (auto& e : all)
      self->request(e.worker, std::chrono::seconds(5), status_atom::value)
        .receive([&](worker_status& s) { in_flight += s.in_flight; },
                 [](caf::error&) {});
    if (in_flight == 0)
      return;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  say("calls still in flight after " + std::to_string(bound.count())
      + " ms; stopping anyway");
}

int serve(const host_options& opts, prepared_host& h) {
  caf::actor_system_config cfg;
  configure_actor_system(cfg);
  configure_remoting(cfg, h.config.connection);
  caf::actor_system sys{cfg};
  caf::scoped_actor self{sys};
  auto directory = spawn_judge_directory(sys);
  auto hello = describe_host(opts.listen);
  if (!opts.announce_prompt_id.empty())
    hello.prompt_id = opts.announce_prompt_id;
  auto impl = sys.spawn(judge_host, hello, directory, h.judges.size());
  judge_host_actor host = impl;
  // Workers known to coordinators are referenced from there: they are ended
  // explicitly, or the actor system would wait for them.
  auto stop = [&] {
    stop_local_workers(self, directory);
    self->send_exit(impl, caf::exit_reason::user_shutdown);
    self->send_exit(directory, caf::exit_reason::user_shutdown);
  };
  auto port = publish(self, sys, h, host);
  if (port == 0) {
    stop();
    return exit_code::bad_config;
  }
  auto name = to_string(
    host_address{h.listen.addr.empty() ? "0.0.0.0" : h.listen.addr, port});
  self->send(impl, host_atom::value, name);
  auto workers = start_local_workers(sys, directory, std::move(h.judges), name,
                                     h.config.connection.queue_max);
  if (!workers) {
    say("cannot start the judges: " + render_error(workers.error()));
    stop();
    return exit_code::bad_config;
  }
  for (auto& w : *workers)
    say("serving " + w.name + " as " + w.worker_id);
  say("listening on " + name);
  while (!interrupt_requested())
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  say("stopping: no new coordinators; finishing the calls in flight");
  auto mm = connection_manager(sys, h.config.connection.tls());
  self->send(mm, caf::close_atom::value, port);
  finish_calls(self, *workers, directory);
  stop();
  return exit_code::ok;
}

} // namespace

int host_command(const host_options& opts) {
  prepared_host h;
  if (auto code = prepare(opts, h); code != exit_code::ok)
    return code;
  return serve(opts, h);
}

} // namespace ij
