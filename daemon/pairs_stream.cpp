#include "daemon/pairs_stream.hpp"

#include <boost/beast/http.hpp>

#include "messages/error.hpp"

namespace ij {

namespace http = boost::beast::http;

namespace {

api_result answer_of(run_upload& up, const caf::error& err) {
  if (err)
    return error_reply{500, "state_failed", context_of(err)};
  return upload_view{up.accepted(), up.rejected()};
}

} // namespace

pairs_stream::pairs_stream(input_lease_ref lease)
    : lease_(std::move(lease)), upload_(*lease_.ptr->input, lease_.ptr->owner) {
}

pairs_stream::~pairs_stream() {
  if (!finished_)
    upload_.finish(false);
}

void pairs_stream::chunk(std::string_view data) {
  upload_.piece(data);
}

http_response pairs_stream::finish() {
  finished_ = true;
  auto err = upload_.finish(true);
  return std::get<http_response>(render_result(answer_of(upload_, err)));
}

api_result upload_whole(input_lease_ref lease, std::string_view body) {
  run_upload up{*lease.ptr->input, lease.ptr->owner};
  up.piece(body);
  auto err = up.finish(true);
  auto answer = answer_of(up, err);
  return answer; // the lease goes back as it leaves scope, before the reply
}

bool pairs_media_type(const http_request& req) {
  auto media = media_type(header_value(req, http::field::content_type));
  return media == "application/x-ndjson" || media == "application/jsonl"
         || media == "application/x-jsonlines" || media == "text/plain";
}

error_reply wrong_pairs_type(const http_request& req) {
  return {415,
          "unsupported_media_type",
          "pairs are JSON Lines: application/x-ndjson, not '"
            + std::string{req[http::field::content_type]} + "'",
          {}};
}

} // namespace ij
