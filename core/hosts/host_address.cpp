#include "core/hosts/host_address.hpp"

#include <cstdlib>

namespace ij {

caf::expected<host_address> parse_host_address(const std::string& text,
                                               bool allow_any_port) {
  auto colon = text.rfind(':');
  if (colon == std::string::npos) {
    return make_error(errc::bad_config,
                      "\"" + text + "\" is not ADDR:PORT (no port)");
  }
  host_address out;
  out.addr = text.substr(0, colon);
  if (out.addr.size() >= 2 && out.addr.front() == '[' && out.addr.back() == ']')
    out.addr = out.addr.substr(1, out.addr.size() - 2);
  else if (out.addr.find(':') != std::string::npos) {
    return make_error(errc::bad_config,
                      "\"" + text
                        + "\": write an IPv6 address in brackets, [ADDR]:PORT");
  }
  if (out.addr.empty() && !allow_any_port) {
    return make_error(errc::bad_config, "\"" + text + "\" has no address");
  }
  auto port = text.substr(colon + 1);
  if (port.empty() || port.size() > 5
      || port.find_first_not_of("0123456789") != std::string::npos) {
    return make_error(errc::bad_config,
                      "\"" + text + "\": the port must be a number from "
                        + (allow_any_port ? "0" : "1") + " to 65535");
  }
  auto n = std::strtoul(port.c_str(), nullptr, 10);
  if (n > 65535 || (n == 0 && !allow_any_port)) {
    return make_error(errc::bad_config,
                      "\"" + text + "\": the port must be a number from "
                        + (allow_any_port ? "0" : "1") + " to 65535");
  }
  out.port = static_cast<std::uint16_t>(n);
  return out;
}

std::string to_string(const host_address& a) {
  auto addr =
    a.addr.find(':') != std::string::npos ? "[" + a.addr + "]" : a.addr;
  return addr + ":" + std::to_string(a.port);
}

bool is_loopback(const std::string& addr) {
  return addr == "localhost" || addr == "::1" || addr.rfind("127.", 0) == 0;
}

} // namespace ij
