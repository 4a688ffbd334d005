#pragma once
// When and how long to wait before retrying an HTTP judge call. Follows the
// behaviour of Anthropic's official SDK (reference/llm-http-apis.md §2):
// retry 408, 429, 5xx (incl. 529) and connection errors; `x-should-retry`
// overrides the status; `retry-after-ms` / `retry-after` (seconds or an HTTP
// date) in (0, 60] s are honoured exactly; otherwise exponential backoff
// min(base·2^n, max) scaled by a jitter factor in [0.75, 1]. No retry is
// planned that the call's deadline could not wait for.
//
// Pure functions: adapters/call_session.cpp asks them after each attempt.
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>

namespace ij {

/// Whether a status alone makes a call worth retrying.
bool retryable_status(unsigned status);

/// Whether a response is worth another attempt: the server's
/// `x-should-retry` header when it says true or false, else the status.
bool should_retry_response(unsigned status, const std::string& x_should_retry);

/// "true"/"false" (case-insensitive) from `x-should-retry`; nullopt if absent
/// or anything else.
std::optional<bool> parse_should_retry(const std::string& value);

/// The server's requested delay from `retry-after-ms` (preferred) or
/// `retry-after`, if it lies in (0, 60] seconds. `now` resolves HTTP dates.
std::optional<std::chrono::milliseconds>
server_retry_delay(const std::string& retry_after_ms,
                   const std::string& retry_after,
                   std::chrono::system_clock::time_point now);

/// Parses an IMF-fixdate ("Wed, 21 Oct 2015 07:28:00 GMT").
std::optional<std::chrono::system_clock::time_point>
parse_http_date(const std::string& value);

/// Backoff before retry number `retries_so_far + 1`; `jitter` in [0, 1]
/// picks the factor within [0.75, 1].
std::chrono::milliseconds backoff_delay(unsigned retries_so_far,
                                        std::chrono::milliseconds base,
                                        std::chrono::milliseconds max,
                                        double jitter);

/// The retry settings of one client.
struct retry_schedule {
  std::uint32_t max_attempts = 3;
  std::chrono::milliseconds base{500};
  std::chrono::milliseconds max{8000};
};

/// What follows a failed attempt.
struct retry_plan {
  bool retry = false;
  /// The wait before the next attempt (when retry).
  std::chrono::milliseconds delay{0};
  /// When no retry because the deadline leaves no room for the wait: why,
  /// in words. Empty when the attempts ran out.
  std::string no_time;
};

/// Plans the next attempt after `attempts_made` failed ones: none when the
/// attempts ran out, else after the server's delay (if it gave one) or the
/// backoff, unless that wait reaches past the call's deadline (`time_left`
/// from now; `call_timeout` is named in the reason). `jitter` in [0, 1].
retry_plan plan_retry(const retry_schedule& schedule,
                      std::uint32_t attempts_made,
                      std::optional<std::chrono::milliseconds> server_delay,
                      std::chrono::milliseconds time_left,
                      std::chrono::milliseconds call_timeout, double jitter);

} // namespace ij
