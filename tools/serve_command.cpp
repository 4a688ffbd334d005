#include "tools/serve_command.hpp"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/address.hpp>
#include <boost/asio/signal_set.hpp>
#include <caf/actor_system.hpp>
#include <caf/actor_system_config.hpp>
#include <rapidjson/document.h>
#include <rapidjson/error/en.h>

#include "actors/system_config.hpp"
#include "core/config/serve_settings.hpp"
#include "daemon/daemon_service.hpp"
#include "daemon/http_server.hpp"
#include "messages/error.hpp"
#include "tools/exit_codes.hpp"
#include "tools/heap_arenas.hpp"

namespace ij {

namespace {

void say(const std::string& text) {
  std::fprintf(stderr, "invjudge serve: %s\n", text.c_str());
}

struct serve_settings {
  http_server_options http;
  std::chrono::milliseconds grace{10000};
  cache_config cache;
  std::chrono::milliseconds reply_timeout{10000};
  std::uint64_t keep_days = 0;
  std::uint64_t keep_runs = 0;
};

// SERVE.json, validated against configs/serve.schema.json and read by core
// (core/config/serve_settings.hpp) over the current settings.
caf::error read_settings(const std::string& path, serve_settings& s) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  if (!in || !(text << in.rdbuf()))
    return make_error(errc::io_failed, path + ": cannot open");
  serve_file_settings base{
    s.cache,    s.http.max_body_bytes, s.http.io_timeout, s.http.idle_timeout,
    s.grace,    s.http.threads,        s.reply_timeout,   s.keep_days,
    s.keep_runs};
  auto read = parse_serve_settings(text.str(), path, base);
  if (!read)
    return read.error();
  s.cache = read->cache;
  s.http.max_body_bytes = read->max_body_bytes;
  s.http.io_timeout = read->io_timeout;
  s.http.idle_timeout = read->idle_timeout;
  s.grace = read->grace;
  s.http.threads =
    static_cast<unsigned>(std::min<std::uint64_t>(read->threads, 64));
  s.reply_timeout = read->reply_timeout;
  s.keep_days = read->keep_days;
  s.keep_runs = read->keep_runs;
  return caf::error{};
}

// The token: --token-file, else $INVJUDGE_TOKEN (never printed; empty:
// none).
caf::expected<std::string> read_token(const std::string& file) {
  if (file.empty()) {
    auto env = std::getenv("INVJUDGE_TOKEN");
    return std::string{env ? env : ""};
  }
  std::ifstream in(file, std::ios::binary);
  if (!in)
    return make_error(errc::bad_config, "cannot read the token file " + file);
  std::string token;
  std::getline(in, token);
  while (!token.empty() && (token.back() == '\r' || token.back() == ' '))
    token.pop_back();
  if (token.empty())
    return make_error(errc::bad_config, "the token file " + file + " is empty");
  return token;
}

caf::error split_listen(const std::string& listen, http_server_options& http) {
  auto colon = listen.rfind(':');
  if (colon == std::string::npos || colon + 1 == listen.size()
      || listen.find_first_not_of("0123456789", colon + 1) != std::string::npos
      || listen.size() - colon - 1 > 5)
    return make_error(errc::bad_config,
                      "--listen takes ADDR:PORT, e.g. 127.0.0.1:8321, not '"
                        + listen + "'");
  auto port = std::stoul(listen.substr(colon + 1));
  if (port > 65535)
    return make_error(errc::bad_config, "--listen: port " + std::to_string(port)
                                          + " is over 65535");
  http.address = colon == 0 ? "127.0.0.1" : listen.substr(0, colon);
  http.port = static_cast<std::uint16_t>(port);
  return caf::none;
}

// --state: never empty (the state would land in the filesystem root), and
// made absolute, so that a relative one is where it was meant (the working
// directory at start) and the operator sees where the state is.
caf::expected<std::string> resolve_state_dir(const std::string& given) {
  if (given.find_first_not_of(" \t") == std::string::npos)
    return make_error(errc::bad_config,
                      "--state: the state directory is empty; give a "
                      "directory, e.g. --state /var/lib/invjudge");
  std::error_code ec;
  auto path = std::filesystem::absolute(given, ec).lexically_normal();
  if (ec)
    return make_error(errc::bad_config, "--state: cannot resolve '" + given
                                          + "': " + ec.message());
  auto dir = path.string();
  while (dir.size() > 1 && dir.back() == '/')
    dir.pop_back();
  if (dir == "/")
    return make_error(errc::bad_config,
                      "--state: the filesystem root is not a state directory");
  std::filesystem::create_directories(dir, ec); // "created if absent"
  if (ec)
    return make_error(errc::bad_config,
                      "--state: cannot create " + dir + ": " + ec.message());
  return dir;
}

daemon_options daemon_options_of(const serve_settings& s, std::string state_dir,
                                 std::string token) {
  daemon_options d;
  d.state_dir = std::move(state_dir);
  d.token = std::move(token);
  d.cache = s.cache;
  d.reply_timeout = s.reply_timeout;
  d.keep_ms = static_cast<std::int64_t>(s.keep_days) * 24 * 3600 * 1000;
  d.keep_runs = s.keep_runs;
  d.log = [](const std::string& line) { say(line); };
  d.idle = [] { give_back_free_memory(); };
  return d;
}

// Where the daemon listens: an IP address; off the loopback only with a
// token (anyone on the network could submit runs), and a warning without TLS.
caf::error check_listen(const http_server_options& http, bool has_token) {
  boost::system::error_code ec;
  auto addr = boost::asio::ip::make_address(http.address, ec);
  if (ec)
    return make_error(errc::bad_config,
                      "--listen: '" + http.address + "' is not an IP address");
  if (!has_token && !addr.is_loopback())
    return make_error(errc::bad_config,
                      "refusing to listen on " + http.address
                        + " without a token: anyone on the network could "
                          "submit runs; give --token-file FILE or "
                          "INVJUDGE_TOKEN");
  if (!addr.is_loopback() && http.tls_cert.empty())
    say("warning: listening on " + http.address
        + " without TLS: the bearer token travels in clear text on the "
          "network; give --tls-cert and --tls-key (or put a TLS proxy in "
          "front)");
  return caf::error{};
}

} // namespace

int serve_command(const serve_options& opts) {
  serve_settings s;
  if (auto err = split_listen(opts.listen, s.http)) {
    say(context_of(err));
    return exit_code::bad_config;
  }
  if (!opts.config_path.empty())
    if (auto err = read_settings(opts.config_path, s)) {
      say(context_of(err));
      return exit_code::bad_config;
    }
  auto state_dir = resolve_state_dir(opts.state_dir);
  auto token = state_dir ? read_token(opts.token_file) : std::string{};
  if (!state_dir || !token) {
    say(context_of(state_dir ? token.error() : state_dir.error()));
    return exit_code::bad_config;
  }
  auto d = daemon_options_of(s, std::move(*state_dir), std::move(*token));
  s.http.tls_cert = opts.tls_cert;
  s.http.tls_key = opts.tls_key;
  s.http.tls_ca = opts.tls_ca;
  if (auto err = check_listen(s.http, !d.token.empty())) {
    say(context_of(err));
    return exit_code::bad_config;
  }
  // SIGINT and SIGTERM are the signal set's (below), from before anything
  // starts: a signal during the start stops the daemon once it listens.
  boost::asio::io_context signals_io;
  boost::asio::signal_set signals{signals_io, SIGINT, SIGTERM};
  caf::actor_system_config cfg;
  configure_actor_system(cfg);
  caf::actor_system sys{cfg};
  auto opened = daemon_service::open(sys, d);
  if (!opened) {
    say(context_of(opened.error()));
    return exit_code::bad_config;
  }
  auto service = std::move(*opened);
  say("state directory " + d.state_dir);
  if (service->resumed() > 0)
    say("resumed " + std::to_string(service->resumed()) + " unfinished run(s)");
  for (auto& f : service->resume_failures())
    say(f);
  // Pair uploads are streamed: memory stays bounded whatever their size.
  s.http.streams = [&service](const http_request& req) {
    return service->open_stream(req);
  };
  auto server = http_server::start(s.http, [&service](const http_request& req) {
    return service->handle(req);
  });
  if (!server) {
    say(context_of(server.error()));
    return exit_code::bad_config;
  }
  std::fprintf(stderr, "listening on %s:%u%s\n", s.http.address.c_str(),
               static_cast<unsigned>((*server)->port()),
               opts.tls_cert.empty() ? "" : " (https)");
  std::fflush(stderr);
  // The main thread sleeps in the signal set's wait (no polling).
  signals.async_wait([](const boost::system::error_code&, int) {});
  signals_io.run();
  say("stopping: no new connections; requests in flight finish (grace "
      + std::to_string(s.grace.count()) + " ms)");
  (*server)->stop(s.grace);
  service->shutdown(s.grace);
  say("stopped; unfinished runs resume at the next start");
  return exit_code::ok;
}

} // namespace ij
