#pragma once
// SHA-256 (OpenSSL) as lower-case hex: the audit chain hashes every line.
#include <string>
#include <string_view>

namespace ij {

/// Lower-case hex SHA-256 of `data`.
std::string sha256_hex(std::string_view data);

/// The same, written into `out` (64 characters) without allocating: the
/// audit logger hashes every line it writes.
void sha256_hex_into(std::string_view data, std::string& out);

} // namespace ij
