#pragma once
// What the daemon's handlers return: a typed result per kind of answer,
// rendered to HTTP (JSON, JSON Lines, Prometheus text or a file) in one
// place, render_result. Every error is {"error": {"code", "message"}}.
#include <chrono>
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "daemon/http_message.hpp"
#include "messages/run_row.hpp"

namespace ij {

struct error_reply {
  error_reply() = default;
  error_reply(unsigned s, std::string c, std::string m, std::string a = {})
      : status(s), code(std::move(c)), message(std::move(m)),
        allow(std::move(a)) {}
  unsigned status = 500;
  std::string code;
  std::string message;
  /// 405: the methods the path takes (the Allow header).
  std::string allow;
};

/// One run: its state and counts (201 when just created).
struct run_view {
  run_row row;
  unsigned status = 200;
};

/// A page of runs; `next`: the cursor of the next page (empty: none).
struct run_list {
  std::vector<run_row> rows;
  std::string next;
};

/// An upload's answer: {"accepted", "rejected": [{"line", "reason"}]}.
struct upload_view {
  std::uint64_t accepted = 0;
  std::vector<std::pair<std::uint64_t, std::string>> rejected;
};

/// Verdict lines (JSON Lines, "seq" first) and the run's state then.
struct verdict_lines {
  std::vector<std::string> lines;
  run_state state = run_state::open;
};

/// A file sent as it is read (an audit trail).
struct file_view {
  std::string path;
  std::string what; // for the error when it cannot be opened
};

/// Prometheus text exposition.
struct metrics_text {
  std::string text;
};

/// GET /healthz.
struct health_view {};

struct deferred_result;

using api_result =
  std::variant<error_reply, run_view, run_list, upload_view, verdict_lines,
               file_view, metrics_text, health_view, deferred_result>;

/// What comes later (an actor's answer, a follower's next verdicts): the
/// http_deferred of render_result, in results: `start(answer)` once,
/// `answer(next)` from any thread, `next()` then on the connection's
/// strand; `late()` when no answer came within `at_most`.
struct deferred_result {
  std::chrono::milliseconds at_most{0};
  std::function<void(std::function<void(std::function<api_result()>)> answer)>
    start;
  std::function<api_result()> late;
  /// A follower's wait (a stopping server does not wait for it).
  bool idle = false;
};

/// The one renderer of every result.
http_reply render_result(const api_result& result);

/// A run as the API shows it (GET /v1/runs/{id}, the list, POST's 201).
std::string run_json(const run_row& r);

} // namespace ij
