#include "adapters/url.hpp"

#include <cctype>

#include "messages/error.hpp"

namespace ij {

namespace {

std::string trim(const std::string& s) {
  auto b = s.find_first_not_of(" \t\r\n");
  if (b == std::string::npos)
    return {};
  auto e = s.find_last_not_of(" \t\r\n");
  return s.substr(b, e - b + 1);
}

std::string lower(std::string s) {
  for (auto& c : s)
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

bool all_digits(const std::string& s) {
  if (s.empty())
    return false;
  for (char c : s)
    if (!std::isdigit(static_cast<unsigned char>(c)))
      return false;
  return true;
}

} // namespace

std::string url::to_string() const {
  return (tls ? "https://" : "http://") + host_header() + path;
}

std::string url::host_header() const {
  std::string h = host.find(':') != std::string::npos ? "[" + host + "]" : host;
  if ((tls && port == 443) || (!tls && port == 80))
    return h;
  return h + ':' + std::to_string(port);
}

caf::expected<url> parse_url(const std::string& text,
                             std::optional<std::uint16_t> schemeless_port) {
  auto bad = [](std::string why) {
    return make_error(errc::bad_config, std::move(why));
  };
  std::string s = trim(text);
  if (s.empty()) {
    return bad("empty URL");
  }
  url out;
  std::uint16_t default_port = 0;
  auto sep = s.find("://");
  if (sep == std::string::npos) {
    if (!schemeless_port) {
      return bad("no scheme (http:// or https://)");
    }
    default_port = *schemeless_port;
  } else {
    auto scheme = lower(s.substr(0, sep));
    if (scheme == "http") {
      default_port = 80;
    } else if (scheme == "https") {
      out.tls = true;
      default_port = 443;
    } else {
      return bad("unsupported URL scheme '" + scheme + "' (use http or https)");
    }
    s = s.substr(sep + 3);
  }
  // Split authority and path; query and fragment make no sense for a base.
  auto slash = s.find('/');
  std::string authority = s.substr(0, slash);
  std::string path = slash == std::string::npos ? "" : s.substr(slash);
  if (path.find_first_of("?#") != std::string::npos) {
    return bad("a base URL may not have a query or fragment");
  }
  while (!path.empty() && path.back() == '/')
    path.pop_back();
  if (authority.find('@') != std::string::npos) {
    // Refused rather than parsed: the id and errors quote the URL.
    return bad("credentials in the URL are not supported; name the key's "
               "environment variable instead");
  }
  std::string port_text;
  if (!authority.empty() && authority.front() == '[') {
    auto close = authority.find(']');
    if (close == std::string::npos) {
      return bad("unterminated IPv6 address in URL");
    }
    out.host = authority.substr(1, close - 1);
    auto rest = authority.substr(close + 1);
    if (!rest.empty()) {
      if (rest.front() != ':') {
        return bad("malformed host in URL");
      }
      port_text = rest.substr(1);
    }
  } else {
    auto colon = authority.rfind(':');
    if (colon != std::string::npos) {
      out.host = authority.substr(0, colon);
      port_text = authority.substr(colon + 1);
    } else {
      out.host = authority;
    }
  }
  if (out.host.empty()) {
    return bad("URL has no host");
  }
  if (port_text.empty()) {
    out.port = default_port;
  } else {
    if (!all_digits(port_text) || port_text.size() > 5
        || std::stoul(port_text) == 0 || std::stoul(port_text) > 65535) {
      return bad("invalid port '" + port_text + "' in URL");
    }
    out.port = static_cast<std::uint16_t>(std::stoul(port_text));
  }
  out.path = path;
  return out;
}

} // namespace ij
