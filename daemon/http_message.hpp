#pragma once
// The daemon's HTTP messages (Boost.Beast): requests, replies (a string, a
// file sent as it is read, or a reply that waits for an event), and the
// helpers every layer uses on them: a header's value, a media type, and the
// one JSON error body.
#include <chrono>
#include <functional>
#include <string>
#include <string_view>
#include <variant>

#include <boost/beast/http/field.hpp>
#include <boost/beast/http/file_body.hpp>
#include <boost/beast/http/message.hpp>
#include <boost/beast/http/string_body.hpp>

namespace ij {

using http_request =
  boost::beast::http::request<boost::beast::http::string_body>;
using http_response =
  boost::beast::http::response<boost::beast::http::string_body>;
/// A file sent as it is read (an audit trail of any size, never held in
/// memory): the bytes it had when opened.
using http_file_response =
  boost::beast::http::response<boost::beast::http::file_body>;
/// A reply ready to be written.
using http_ready_reply = std::variant<http_response, http_file_response>;

struct http_deferred;

using http_reply =
  std::variant<http_response, http_file_response, http_deferred>;

/// The rest of a request's answer: run on its connection's strand (it may
/// block briefly: SQLite, a file), its reply written (or waited for again).
using http_continuation = std::function<http_reply()>;

/// A reply that comes later (an actor's answer, a follower's next verdict):
/// the server calls `start(answer)` once and holds no thread while it
/// waits; `answer(next)` may be called from any thread, at most once, and
/// `next` then runs on the connection's strand. If `answer` has not been
/// called within `at_most`, `late()` answers instead (503 busy, or what a
/// follower has) and a later answer is dropped unrun. `idle`: a follower's
/// wait, which a stopping server does not wait for.
struct http_deferred {
  std::chrono::milliseconds at_most{0};
  std::function<void(std::function<void(http_continuation)> answer)> start;
  http_continuation late;
  bool idle = false;
};

/// `reply` as it is when ready; a deferred one is a 500 (for the places a
/// reply may not wait).
http_ready_reply ready_reply(http_reply reply);

/// A header's value ("" when absent).
inline std::string_view header_value(const http_request& req,
                                     boost::beast::http::field name) {
  auto v = req[name];
  return {v.data(), v.size()};
}

/// A Content-Type's media type without parameters, lower case
/// ("Application/JSON; charset=utf-8" -> "application/json").
std::string media_type(std::string_view content_type);

/// `{"error": {"code": code, "message": message}}` with `status`.
http_response json_error(unsigned status, const std::string& code,
                         const std::string& message, unsigned version = 11);

} // namespace ij
