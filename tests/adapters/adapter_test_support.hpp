#pragma once
// Small helpers shared by the adapter tests.
#include <optional>
#include <stdexcept>
#include <string>

#include "adapters/judge_adapter.hpp"

namespace ij::test {

/// Calls a stub (which replies before returning) and hands back its reply.
inline adapter_reply call_now(judge_adapter& judge, const std::string& prompt,
                              const call_options& opts = {}) {
  std::optional<adapter_reply> got;
  int replies = 0;
  judge.call(prompt, opts, [&](adapter_reply r) {
    ++replies;
    got = std::move(r);
  });
  if (!got || replies != 1)
    throw std::logic_error("stub did not reply exactly once before returning");
  return *got;
}

/// An adapter that throws from call() without replying.
class throwing_judge : public judge_adapter {
public:
  std::string id() const override { return "test:throwing"; }
  void call(const std::string&, const call_options&, reply_handler) override {
    throw std::runtime_error("socket exploded");
  }
};

/// An adapter that keeps the handler and never replies (until told to).
class silent_judge : public judge_adapter {
public:
  std::string id() const override { return "test:silent"; }
  void call(const std::string&, const call_options&,
            reply_handler done) override {
    ++calls;
    pending = std::move(done);
  }
  int calls = 0;
  reply_handler pending;
};

} // namespace ij::test
