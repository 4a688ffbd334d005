#pragma once
// What a run does when the bias alarm fires (core/canaries/bias_alarm.hpp): set
// in the configuration ("canaries": "on_alarm"), carried by the alarm
// (bias_alarm_event) and written in its audit record. to_string and
// alarm_action_from_string are the only places its texts are spelled.
#include <cstdint>
#include <optional>
#include <string_view>

#include "messages/enum_text.hpp"

namespace ij {

enum class alarm_action : std::uint8_t {
  /// A warning and an audit record; the judge goes on.
  warn,
  /// Also: the judge makes no more calls in this run; its votes become
  /// recorded faults (rule I2), never a guess.
  stop_judge,
  /// Also: the run ends at once (exit 5), marked interrupted.
  stop_run,
};

/// "warn", "stop-judge", "stop-run" (configuration and records alike).
constexpr std::string_view to_string(alarm_action a) {
  switch (a) {
    case alarm_action::warn: return "warn";
    case alarm_action::stop_judge: return "stop-judge";
    case alarm_action::stop_run: return "stop-run";
  }
  return "warn";
}

/// Every action, in declaration order.
inline constexpr alarm_action all_alarm_actions[] = {
  alarm_action::warn,
  alarm_action::stop_judge,
  alarm_action::stop_run,
};

/// Reads that spelling back; nullopt for anything else.
inline std::optional<alarm_action>
alarm_action_from_string(std::string_view s) {
  return enum_from_text(all_alarm_actions, s);
}

} // namespace ij
