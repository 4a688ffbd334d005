#pragma once
// How an HTTP judge's reply is held to the format (issue 16 item 4): not at
// all, by a regular grammar that emits the canonical four lines, or by a
// JSON schema of the four fields (which the reply parser reads like the
// lines). The prompt is the same bytes in all three cases.
#include <cstdint>
#include <optional>
#include <string_view>

namespace ij {

enum class reply_constraint : std::uint8_t { none, grammar, json };

constexpr std::string_view to_string(reply_constraint c) {
  switch (c) {
    case reply_constraint::none: return "none";
    case reply_constraint::grammar: return "grammar";
    case reply_constraint::json: return "json";
  }
  return "none";
}

/// "none", "grammar" or "json"; nullopt for anything else.
constexpr std::optional<reply_constraint>
reply_constraint_of(std::string_view s) {
  if (s == "none")
    return reply_constraint::none;
  if (s == "grammar")
    return reply_constraint::grammar;
  if (s == "json")
    return reply_constraint::json;
  return std::nullopt;
}

} // namespace ij
