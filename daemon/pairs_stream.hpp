#pragma once
// POST /v1/runs/{id}/pairs: JSON Lines of pairs into a run's input, held
// by the upload through its lease (daemon/input_lease) while it reads the
// body — streamed, each piece as it arrives (pairs_stream), or whole
// (upload_whole). The input goes back when the upload's lease is dropped,
// before its answer is written, so that the run has the lines' counts
// before the client can ask.
#include <string_view>

#include "daemon/api_result.hpp"
#include "daemon/http_server.hpp"
#include "daemon/input_lease.hpp"

namespace ij {

class pairs_stream : public body_stream {
public:
  explicit pairs_stream(input_lease_ref lease);
  /// A body cut off keeps its complete lines; nobody to tell.
  ~pairs_stream() override;
  void chunk(std::string_view data) override;
  http_response finish() override;

private:
  input_lease_ref lease_; // declared first: given back last
  run_upload upload_;
  bool finished_ = false;
};

/// A whole body into the leased input: the upload's answer.
api_result upload_whole(input_lease_ref lease, std::string_view body);

/// Whether a request's Content-Type is one pairs are sent as (JSON Lines).
bool pairs_media_type(const http_request& req);

/// 415 naming the type sent.
error_reply wrong_pairs_type(const http_request& req);

} // namespace ij
