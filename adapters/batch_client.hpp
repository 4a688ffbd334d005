#pragma once
// A client of the batch endpoints of one provider (adapters/batch_protocol):
// Beast over Asio on the client's own I/O thread, plain HTTP or HTTPS, the
// key in the header its chat protocol names (never in an error or a log).
//
//   submit   Anthropic: POST {base}/v1/messages/batches with the document.
//            OpenAI: POST {base}/files (multipart/form-data, purpose=batch,
//            the JSONL as file "batch.jsonl"), then POST {base}/batches
//            {input_file_id, endpoint "/v1/chat/completions",
//            completion_window "24h"}.
//   status   GET the batch.
//   results  GET the batch; once it has ended, every result line
//            (Anthropic: its results_url; OpenAI: the output file and the
//            error file via GET {base}/files/{id}/content).
//   cancel   POST {batch}/cancel.
//   list     GET {base}/v1/messages/batches?limit=100 (Anthropic) or
//            {base}/batches?limit=100 (OpenAI): the newest batches, to find
//            one whose create answer was lost in a crash.
// The base URL is the judge's: Anthropic "https://api.anthropic.com",
// OpenAI-compatible ".../v1".
//
// Each operation answers exactly once, on the I/O thread, with a
// caf::expected. A non-2xx answer is an error naming the request, the HTTP
// status and the API's own message: bad_config for 401/403, unreachable for
// 408, 429 and 5xx (worth trying later), bad_input for other statuses (the
// request was refused: a batch rejected whole). No answer at all is
// unreachable; an unreadable one bad_reply. The destructor answers what is
// pending ("shut down"), then joins the thread.
#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <caf/expected.hpp>

#include "adapters/batch_protocol.hpp"
#include "adapters/url.hpp"

namespace ij {

struct batch_client_config {
  batch_api api = batch_api::anthropic;
  url base;
  /// The API key; empty: none sent (a local OpenAI-compatible server).
  std::string key;
  /// PEM CA bundle for private deployments; empty: the system store.
  std::string ca_file;
  /// Deadline of one HTTP exchange (an upload of 200 MB included).
  std::chrono::milliseconds timeout{300000};
  std::chrono::milliseconds connect_timeout{5000};
  /// The largest response read (a results file of a full batch).
  std::size_t max_response_bytes = std::size_t{1} << 30;
};

using batch_status_handler = std::function<void(caf::expected<batch_status>)>;
using batch_list_handler =
  std::function<void(caf::expected<std::vector<batch_status>>)>;
using batch_results_handler =
  std::function<void(caf::expected<std::vector<batch_result>>)>;

class batch_client {
public:
  /// bad_config when the TLS setup cannot be made (an unreadable CA file).
  static caf::expected<std::unique_ptr<batch_client>>
  create(batch_client_config config);

  ~batch_client();
  batch_client(const batch_client&) = delete;
  batch_client& operator=(const batch_client&) = delete;

  /// Sends a finished document (batch_document::finish()); answers the
  /// batch as the provider accepted it (its id to record first). OpenAI:
  /// a non-empty `batch_key` goes as metadata {"ij_batch_key": key}, so the
  /// batch can be found by listing (Anthropic has no metadata).
  void submit(std::string document, batch_status_handler done,
              std::string batch_key = {});
  /// The newest batches (at most 100), newest first.
  void list(batch_list_handler done);
  void status(const std::string& id, batch_status_handler done);
  /// Every result line of an ended batch, in the provider's order (match
  /// them by custom_id); bad_input when the batch has not ended. Requests
  /// without a line (an OpenAI batch cancelled) are the caller's to find.
  void results(const std::string& id, batch_results_handler done);
  void cancel(const std::string& id, batch_status_handler done);

  batch_api api() const;

  struct core;

private:
  explicit batch_client(std::shared_ptr<core> c);
  std::shared_ptr<core> core_;
};

} // namespace ij
