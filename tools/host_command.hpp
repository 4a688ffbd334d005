#pragma once
// `invjudge host`: serves this machine's judges to coordinators on other
// machines (SPEC §10, "Distribution"). Spawns the judges named, publishes a
// judge host actor on ADDR:PORT through CAF's middleman (with OpenSSL and
// mutual certificate authentication when TLS files are given), prints
// `listening on ADDR:PORT` on stderr when ready, and serves until SIGTERM or
// SIGINT, finishing the calls in flight first. A cloud judge's key is read
// here, from this host's environment, and never sent anywhere.
#include <optional>
#include <string>

namespace ij {

struct host_options {
  /// ADDR:PORT; port 0 picks a free one (printed).
  std::string listen;
  /// Judges to serve: a configuration file, or a short name (--judge).
  std::string config_path;
  std::optional<std::string> judge;
  /// Mutual TLS (all three or none); they override host_connection.
  std::string tls_cert;
  std::string tls_key;
  std::string tls_ca;
  /// Listen on a non-loopback address without TLS (warned about).
  bool insecure = false;
  /// Test hook: announce this prompt id instead of the built-in one, as a
  /// host built with another prompt would (coordinators refuse it).
  std::string announce_prompt_id;
};

/// Serves until interrupted; returns the exit code (tools/exit_codes.hpp).
int host_command(const host_options& opts);

} // namespace ij
