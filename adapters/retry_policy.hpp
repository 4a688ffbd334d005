#pragma once
// When and how long to wait before retrying an HTTP judge call. Follows the
// behaviour of Anthropic's official SDK (reference/llm-http-apis.md §2):
// retry 408, 429, 5xx (incl. 529) and connection errors; `x-should-retry`
// overrides the status; `retry-after-ms` / `retry-after` (seconds or an HTTP
// date) in (0, 60] s are honoured exactly; otherwise exponential backoff
// min(base·2^n, max) scaled by a jitter factor in [0.75, 1].
#include <chrono>
#include <optional>
#include <string>

namespace ij {

/// Whether a status alone makes a call worth retrying.
bool retryable_status(unsigned status);

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

} // namespace ij
