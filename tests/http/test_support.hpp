#pragma once
// Helpers for the HTTP judge tests: blocking calls with a safety net, specs
// pointing at a fake server, environment variables set for one scope.
#include <cstdlib>
#include <future>
#include <optional>
#include <string>
#include <vector>

#include "adapters/http_backends.hpp"
#include "adapters/judge_adapter.hpp"

namespace ij::test {

/// The adapter built, or null when it could not be (the test's REQUIRE then
/// fails; tests of the reason ask make_http_adapter itself).
inline judge_adapter_ptr
adapter_or_null(caf::expected<judge_adapter_ptr> made) {
  return made ? std::move(*made) : nullptr;
}

/// Fast retries for tests: what is tested is the schedule, not its length.
inline http_tuning fast_tuning() {
  http_tuning t;
  t.connect_timeout = std::chrono::milliseconds(2000);
  t.retry_base_delay = std::chrono::milliseconds(20);
  t.retry_max_delay = std::chrono::milliseconds(100);
  t.success_run = 2;
  return t;
}

inline judge_spec spec_for(const std::string& type, const std::string& base_url,
                           const std::string& model = "judge-model") {
  judge_spec s;
  s.type = type;
  s.model = model;
  s.base_url = base_url;
  s.name = type + ":" + model;
  return s;
}

inline call_options
options_for(const judge_spec& spec,
            std::chrono::milliseconds timeout = std::chrono::seconds(20)) {
  call_options o;
  o.model = spec.model;
  o.temperature = 0.0;
  o.seed = 7;
  o.max_tokens = 64;
  o.timeout = timeout;
  return o;
}

/// Calls and waits; a reply that never comes shows up as a thrown
/// std::runtime_error instead of a hung test.
inline adapter_reply call_and_wait(judge_adapter& adapter,
                                   const std::string& prompt,
                                   const call_options& opts) {
  auto promise = std::make_shared<std::promise<adapter_reply>>();
  auto future = promise->get_future();
  adapter.call(prompt, opts, [promise](adapter_reply r) {
    promise->set_value(std::move(r));
  });
  if (future.wait_for(std::chrono::seconds(60)) != std::future_status::ready)
    throw std::runtime_error("no reply within 60 s");
  return future.get();
}

/// Starts `n` calls at once and waits for all replies, in call order.
inline std::vector<adapter_reply> call_many(judge_adapter& adapter,
                                            const std::string& prompt,
                                            const call_options& opts,
                                            std::size_t n) {
  std::vector<std::shared_ptr<std::promise<adapter_reply>>> promises;
  std::vector<std::future<adapter_reply>> futures;
  for (std::size_t i = 0; i < n; ++i) {
    promises.push_back(std::make_shared<std::promise<adapter_reply>>());
    futures.push_back(promises.back()->get_future());
  }
  for (std::size_t i = 0; i < n; ++i)
    adapter.call(prompt, opts, [p = promises[i]](adapter_reply r) {
      p->set_value(std::move(r));
    });
  std::vector<adapter_reply> out;
  for (auto& f : futures) {
    if (f.wait_for(std::chrono::seconds(60)) != std::future_status::ready)
      throw std::runtime_error("no reply within 60 s");
    out.push_back(f.get());
  }
  return out;
}

/// Sets (or unsets, for nullopt) an environment variable for one scope.
class scoped_env {
public:
  scoped_env(std::string name, std::optional<std::string> value)
      : name_(std::move(name)) {
    if (const char* old = std::getenv(name_.c_str()))
      old_ = old;
    if (value)
      ::setenv(name_.c_str(), value->c_str(), 1);
    else
      ::unsetenv(name_.c_str());
  }
  ~scoped_env() {
    if (old_)
      ::setenv(name_.c_str(), old_->c_str(), 1);
    else
      ::unsetenv(name_.c_str());
  }
  scoped_env(const scoped_env&) = delete;
  scoped_env& operator=(const scoped_env&) = delete;

private:
  std::string name_;
  std::optional<std::string> old_;
};

/// A prompt that a careless client would mangle: quotes, backslashes,
/// newlines, tabs, a control byte, non-ASCII text.
inline std::string tricky_prompt() {
  return "Compare A and B.\n\tA: \"$\\frac{1}{2}$\" \\boxed{0.5}\r\n"
         "B: one half — ½ (½ = 0,5) 答え\x01 end";
}

} // namespace ij::test
