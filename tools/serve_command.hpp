#pragma once
// `invjudge serve`: the evaluation daemon (daemon/daemon_service.hpp) on an
// HTTP server, until SIGTERM or SIGINT: then it stops accepting, lets the
// requests in flight finish (grace period), ends every run so that it
// resumes at the next start, checkpoints the state and exits 0.
#include <string>

namespace ij {

struct serve_options {
  /// ADDR:PORT; port 0 picks a free one (printed).
  std::string listen = "127.0.0.1:8321";
  std::string state_dir;
  /// SERVE.json: cache, limits and timeouts (see README, "Running the
  /// daemon"); empty: defaults.
  std::string config_path;
  /// The bearer token's file; else $INVJUDGE_TOKEN; else none (loopback
  /// only).
  std::string token_file;
  /// HTTPS: the server's certificate chain and key (PEM); with tls_ca,
  /// clients must present a certificate that CA signed.
  std::string tls_cert, tls_key, tls_ca;
};

int serve_command(const serve_options& opts);

} // namespace ij
