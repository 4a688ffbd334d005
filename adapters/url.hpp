#pragma once
// A parsed base URL for an HTTP judge backend. Only what a client needs:
// scheme (http/https), host, port and path prefix. Credentials in the URL
// are refused so that a secret can never travel into an adapter id or log.
#include <cstdint>
#include <optional>
#include <string>

#include <caf/expected.hpp>

#include "messages/error.hpp"

namespace ij {

struct url {
  bool tls = false;
  std::string host; // without IPv6 brackets
  std::uint16_t port = 0;
  std::string path; // "" or "/prefix" without a trailing slash

  /// "http://host:port/path" (default ports left out, IPv6 hosts
  /// bracketed); the form used in adapter ids.
  std::string to_string() const;
  /// The Host header value ("host" or "host:port" for non-default ports).
  std::string host_header() const;
};

/// Parses `text`. A text without "scheme://" is accepted only when
/// `schemeless_port` is set (Ollama's OLLAMA_HOST allows "host:port" and
/// "host"): it then means http on that default port. Fails with bad_config
/// (a base URL comes from a configuration or its variable), the context
/// saying what is wrong and never quoting credentials.
caf::expected<url> parse_url(const std::string& text,
                             std::optional<std::uint16_t> schemeless_port = {});

} // namespace ij
