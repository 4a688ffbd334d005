#pragma once
// Keeps a secret out of text that leaves an adapter (errors, reply text): a
// server may echo a bad key back in its error message.
#include <string>

namespace ij {

/// `text` with every occurrence of `secret` replaced by "[redacted]".
/// An empty secret changes nothing.
std::string redact(std::string text, const std::string& secret);

} // namespace ij
