#pragma once
// The daemon's authentication: "Authorization: Bearer TOKEN" (RFC 6750),
// the scheme compared without regard to case (RFC 7235 §2.1), the token in
// constant time.
#include <string>
#include <string_view>

namespace ij {

/// True when `authorization` (the header's value) carries `token` with the
/// Bearer scheme.
bool bearer_matches(std::string_view authorization, const std::string& token);

/// A constant-time comparison (a token is not guessed byte by byte).
bool same_secret(std::string_view a, std::string_view b);

} // namespace ij
