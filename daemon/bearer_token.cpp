#include "daemon/bearer_token.hpp"

#include <boost/beast/core/string.hpp>
#include <openssl/crypto.h>

namespace ij {

bool same_secret(std::string_view a, std::string_view b) {
  // The length is not the secret; the bytes are compared in constant time.
  return a.size() == b.size()
         && CRYPTO_memcmp(a.data(), b.data(), a.size()) == 0;
}

bool bearer_matches(std::string_view auth, const std::string& token) {
  // credentials = auth-scheme 1*SP token68; optional whitespace around the
  // field value is not part of it (RFC 7230 §3.2).
  auto space = auth.find(' ');
  if (space == std::string_view::npos
      || !boost::beast::iequals(boost::beast::string_view{auth.data(), space},
                                "bearer"))
    return false;
  auto rest = auth.substr(space);
  while (!rest.empty() && rest.front() == ' ')
    rest.remove_prefix(1);
  while (!rest.empty() && (rest.back() == ' ' || rest.back() == '\t'))
    rest.remove_suffix(1);
  return !rest.empty() && same_secret(rest, token);
}

} // namespace ij
