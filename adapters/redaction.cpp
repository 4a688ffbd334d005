#include "adapters/redaction.hpp"

namespace ij {

std::string redact(std::string text, const std::string& secret) {
  if (secret.empty())
    return text;
  static const std::string mark = "[redacted]";
  for (auto pos = text.find(secret); pos != std::string::npos;
       pos = text.find(secret, pos + mark.size()))
    text.replace(pos, secret.size(), mark);
  return text;
}

} // namespace ij
