#pragma once
// The step a batched judge's batch has reached (issue 17): the adapters'
// journal marks it, the audit's `batch` record and the daemon's batch journal
// write it as text. to_string and batch_step_from_string are the only places
// the texts are spelled.
#include <cstdint>
#include <optional>
#include <string_view>

#include "messages/enum_text.hpp"

namespace ij {

enum class batch_step : std::uint8_t {
  /// About to be submitted: the provider may or may not have it.
  pending,
  /// The provider accepted it: `batch_id` is its id.
  submitted,
  /// Its results were delivered (or it was cancelled, rejected, abandoned).
  ended,
};

constexpr std::string_view to_string(batch_step step) {
  switch (step) {
    case batch_step::pending: return "pending";
    case batch_step::submitted: return "submitted";
    case batch_step::ended: return "ended";
  }
  return "pending";
}

/// Every step, in order.
inline constexpr batch_step all_batch_steps[] = {
  batch_step::pending, batch_step::submitted, batch_step::ended};

/// Reads a text written by to_string back; nullopt for anything else.
inline std::optional<batch_step> batch_step_from_string(std::string_view s) {
  return enum_from_text(all_batch_steps, s);
}

} // namespace ij
