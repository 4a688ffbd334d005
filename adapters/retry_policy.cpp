#include "adapters/retry_policy.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <ctime>
#include <iomanip>
#include <sstream>

namespace ij {

namespace {

constexpr std::chrono::milliseconds max_server_delay{60000};

std::string trim_lower(const std::string& s) {
  std::string out;
  for (char c : s)
    if (!std::isspace(static_cast<unsigned char>(c)))
      out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::optional<double> parse_number(const std::string& s) {
  if (s.empty())
    return std::nullopt;
  std::istringstream in(s);
  in.imbue(std::locale::classic());
  double v = 0;
  in >> v;
  if (in.fail() || !in.eof() || !std::isfinite(v))
    return std::nullopt;
  return v;
}

std::optional<std::chrono::milliseconds> in_range(double ms) {
  if (ms <= 0 || ms > static_cast<double>(max_server_delay.count()))
    return std::nullopt;
  return std::chrono::milliseconds(static_cast<long long>(std::ceil(ms)));
}

} // namespace

bool retryable_status(unsigned status) {
  return status == 408 || status == 429 || status >= 500;
}

bool should_retry_response(unsigned status, const std::string& x_should_retry) {
  if (auto told = parse_should_retry(x_should_retry))
    return *told;
  return retryable_status(status);
}

std::optional<bool> parse_should_retry(const std::string& value) {
  auto v = trim_lower(value);
  if (v == "true")
    return true;
  if (v == "false")
    return false;
  return std::nullopt;
}

std::optional<std::chrono::system_clock::time_point>
parse_http_date(const std::string& value) {
  std::tm tm{};
  std::istringstream in(value);
  in.imbue(std::locale::classic());
  in >> std::get_time(&tm, "%a, %d %b %Y %H:%M:%S");
  if (in.fail())
    return std::nullopt;
  std::string zone;
  in >> zone;
  if (zone != "GMT" && zone != "UTC")
    return std::nullopt;
  auto t = timegm(&tm);
  if (t == static_cast<std::time_t>(-1))
    return std::nullopt;
  return std::chrono::system_clock::from_time_t(t);
}

std::optional<std::chrono::milliseconds>
server_retry_delay(const std::string& retry_after_ms,
                   const std::string& retry_after,
                   std::chrono::system_clock::time_point now) {
  if (auto ms = parse_number(trim_lower(retry_after_ms)))
    return in_range(*ms);
  if (retry_after.empty())
    return std::nullopt;
  if (auto s = parse_number(trim_lower(retry_after)))
    return in_range(*s * 1000.0);
  if (auto when = parse_http_date(retry_after)) {
    auto d = std::chrono::duration_cast<std::chrono::milliseconds>(*when - now);
    return in_range(static_cast<double>(d.count()));
  }
  return std::nullopt;
}

std::chrono::milliseconds backoff_delay(unsigned retries_so_far,
                                        std::chrono::milliseconds base,
                                        std::chrono::milliseconds max,
                                        double jitter) {
  double d = static_cast<double>(base.count())
             * std::pow(2.0, std::min(retries_so_far, 30u));
  d = std::min(d, static_cast<double>(max.count()));
  jitter = std::clamp(jitter, 0.0, 1.0);
  d *= 0.75 + 0.25 * jitter;
  return std::chrono::milliseconds(static_cast<long long>(d));
}

retry_plan plan_retry(const retry_schedule& schedule,
                      std::uint32_t attempts_made,
                      std::optional<std::chrono::milliseconds> server_delay,
                      std::chrono::milliseconds time_left,
                      std::chrono::milliseconds call_timeout, double jitter) {
  retry_plan plan;
  if (attempts_made >= schedule.max_attempts)
    return plan;
  auto retries_so_far = attempts_made == 0 ? 0u : attempts_made - 1;
  plan.delay = server_delay ? *server_delay
                            : backoff_delay(retries_so_far, schedule.base,
                                            schedule.max, jitter);
  if (plan.delay >= time_left) {
    plan.no_time = "no time left before the call's deadline of "
                   + std::to_string(call_timeout.count())
                   + " ms for a retry in " + std::to_string(plan.delay.count())
                   + " ms";
    return plan;
  }
  plan.retry = true;
  return plan;
}

} // namespace ij
