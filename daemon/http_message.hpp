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

/// A reply that waits for an event (a follower asking for verdicts not yet
/// released): the server calls `wait(wake)` once, without holding a thread;
/// when `wake` is called (from any thread, at most once) or `at_most` has
/// passed, whichever comes first, it answers with `ready()`, which is never
/// deferred again.
struct http_deferred {
  std::chrono::milliseconds at_most{0};
  std::function<void(std::function<void()> wake)> wait;
  std::function<http_ready_reply()> ready;
};

using http_reply =
  std::variant<http_response, http_file_response, http_deferred>;

/// `reply` as it is when ready; a deferred one is a 500 (for the places a
/// reply may not wait: a deferred reply's own answer).
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
