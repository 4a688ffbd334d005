#pragma once
// "ADDR:PORT" as judge hosts are named on the command line and in
// configuration ("127.0.0.1:7000", "gpu1.lan:7000", "[::1]:7000"). Pure.
#include <cstdint>
#include <optional>
#include <string>

#include <caf/expected.hpp>

#include "messages/error.hpp"

namespace ij {

struct host_address {
  std::string addr;
  std::uint16_t port = 0;
};

/// Parses ADDR:PORT; port 0 only when `allow_any_port` (a host's --listen
/// :0 picks a free port). An empty ADDR (":7000") means every interface
/// only when `allow_any_port` is set too (listening). On failure
/// errc::bad_config saying why.
caf::expected<host_address> parse_host_address(const std::string& text,
                                               bool allow_any_port);

/// "ADDR:PORT", brackets around an IPv6 address.
std::string to_string(const host_address& a);

/// True for 127.0.0.0/8, ::1 and "localhost": a host listening there is
/// reachable from this machine only, so it may go without TLS.
bool is_loopback(const std::string& addr);

} // namespace ij
