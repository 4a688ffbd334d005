#pragma once
// `invjudge submit`: creates a run on a daemon, uploads a pairs file, closes
// the run and, with --follow, prints its verdict lines as they come and its
// counts at the end. The token comes from $INVJUDGE_TOKEN. --out is claimed
// (tools/output_file) before the run is created, and refused without
// --follow; Ctrl-C stops following, never the run, and says how to cancel
// it.
#include <string>

namespace ij {

struct submit_options {
  std::string server; // http://HOST:PORT
  std::string pairs_path;
  std::string config_path; // empty: the daemon's embedded default
  bool follow = false;
  std::string out_path; // empty: standard output; needs follow
  bool force = false;   // replace an existing out_path with content
  /// https:// servers: the CA to verify the server with (empty: the
  /// system's); this client's certificate and key when the server asks.
  std::string tls_ca, tls_cert, tls_key;
};

int submit_command(const submit_options& opts);

} // namespace ij
