#pragma once
// Why a judge call failed, classified, so that metrics, monitors, retries and
// circuit breakers reason on kinds, not on the words of an error message.
// Carried by every judge_record next to its error text.
#include <cstdint>
#include <optional>
#include <string_view>

#include "messages/enum_text.hpp"

namespace ij {

enum class fault_kind : std::uint8_t {
  /// The call did not fail.
  none,
  /// HTTP 429 / 529: the backend is overloaded or rationing us.
  rate_limited,
  /// The call's own time limit ran out (connect, read, the whole call).
  timeout,
  /// No answer could be had from the backend: resolve, connect, TLS, reset.
  connection,
  /// HTTP 5xx (529 excepted): the backend failed.
  server_error,
  /// HTTP 4xx other than 401/403/429: the request itself is wrong (an
  /// unknown model, a body the API refuses).
  bad_request,
  /// HTTP 401 / 403: the key is missing, wrong or not allowed.
  auth,
  /// A 2xx reply whose body is not the API's reply shape.
  unreadable_reply,
  /// The vote coordinator's deadline passed before the judge answered.
  deadline,
  /// No worker could take the call: the judge is gone, its circuit is open,
  /// or the host serving it was lost.
  unavailable,
  /// The judge reached its budget for the run (calls, tokens or cost): the
  /// vote was not made (core/budgets/judge_budget.hpp).
  budget,
  /// The call was aborted because its run was cancelled (issue 26): not a
  /// fault of the backend, and never a record of a run (the cancel counts
  /// it: sent or not).
  aborted,
};

constexpr std::string_view to_string(fault_kind k) {
  switch (k) {
    case fault_kind::none: return "none";
    case fault_kind::rate_limited: return "rate_limited";
    case fault_kind::timeout: return "timeout";
    case fault_kind::connection: return "connection";
    case fault_kind::server_error: return "server_error";
    case fault_kind::bad_request: return "bad_request";
    case fault_kind::auth: return "auth";
    case fault_kind::unreadable_reply: return "unreadable_reply";
    case fault_kind::deadline: return "deadline";
    case fault_kind::unavailable: return "unavailable";
    case fault_kind::budget: return "budget";
    case fault_kind::aborted: return "aborted";
  }
  return "none";
}

/// Every kind, in declaration order (for metrics and summaries).
inline constexpr fault_kind all_fault_kinds[] = {
  fault_kind::none,         fault_kind::rate_limited,
  fault_kind::timeout,      fault_kind::connection,
  fault_kind::server_error, fault_kind::bad_request,
  fault_kind::auth,         fault_kind::unreadable_reply,
  fault_kind::deadline,     fault_kind::unavailable,
  fault_kind::budget,       fault_kind::aborted,
};

/// Reads a name written by to_string back; nullopt for anything else.
inline std::optional<fault_kind> fault_kind_from_string(std::string_view s) {
  return enum_from_text(all_fault_kinds, s);
}

} // namespace ij
