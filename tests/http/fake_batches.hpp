#pragma once
// Protocol-faithful fakes of the two batch APIs (reference/
// llm-batch-logprobs-constraints.md §1–2), on fake_server (127.0.0.1, a
// free port, optionally TLS):
//   Anthropic  POST /v1/messages/batches, GET .../{id}, POST .../{id}/cancel,
//              GET .../{id}/results (JSONL; results_url is absolute).
//   OpenAI     POST /v1/files (multipart/form-data, purpose=batch),
//              POST /v1/batches, GET /v1/batches/{id}, POST .../cancel,
//              GET /v1/files/{id}/content (output and error files).
//   Both       GET the batch list (?limit=N, newest first, the API's page
//              shape); OpenAI keeps a batch's metadata (ij_batch_key).
// Each request is checked as the API would (key and version headers, body
// shape, custom_id syntax and uniqueness); breaches are 400s with the API's
// error JSON and are listed in violations().
//
// The test drives the statuses: each GET of a batch moves it one step along
// its path (unless held); advance(), expire() and cancel move it explicitly.
// When a batch ends, its results are made: requests before the "done" mark
// succeed (or fail, per fail_request), the rest are expired or canceled;
// every results file comes in a shuffled order. OpenAI puts successes in the
// output file and failures (an error status, batch_expired) in the error
// file; a cancelled OpenAI batch has no lines for its unfinished requests
// (OpenAI documents none).
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "tests/http/fake_apis.hpp"
#include "tests/http/fake_server.hpp"

namespace ij::test {

struct fake_batch_options {
  /// anthropic or openai.
  api_kind kind = api_kind::openai;
  /// The key every request must carry (x-api-key / bearer); empty: any.
  std::string api_key;
  /// Put the key the client sent into authentication errors (a careless
  /// server), to show the client redacts it.
  bool echo_key_in_errors = false;
  std::shared_ptr<boost::asio::ssl::context> tls;
  /// The statuses (the API's words) a new batch goes through, one per poll;
  /// empty: the default (OpenAI validating, in_progress, finalizing,
  /// completed; Anthropic in_progress, ended). The last must be terminal.
  std::vector<std::string> path;
  /// Seed of the results' shuffle.
  std::uint32_t shuffle_seed = 17;
  /// Keep each request's body (request_body()) and the uploaded input
  /// files. Off for the benchmark: copies of 100,000 request bodies would
  /// only take the bench's memory.
  bool keep_documents = true;
};

class fake_batches {
public:
  explicit fake_batches(fake_batch_options options);
  ~fake_batches();

  /// What a client is configured with: the server, plus "/v1" for OpenAI
  /// (its base URL convention, as for chat calls).
  std::string base_url() const;
  fake_server& server() { return *server_; }

  /// This fake's answer to `req`, for a server of the test's own that puts
  /// several fakes behind one address (a chat API and a batch API).
  planned_reply respond(const fake_request& req) { return handle(req); }

  // --- what happens -------------------------------------------------------
  /// The text each succeeded request answers (default: the four lines,
  /// EQUIVALENT).
  void
  set_reply(std::function<std::string(const std::string& custom_id)> reply);
  /// This request fails when its batch ends: an error with `status`
  /// (OpenAI: in the error file with response.status_code; Anthropic: an
  /// errored result).
  void fail_request(const std::string& custom_id, unsigned status,
                    const std::string& message);
  /// The next batch create is rejected whole: `status` with the API's error.
  void reject_next_batch(unsigned status, const std::string& message);
  /// The next request of any kind answers `status` with the API's error.
  void fail_next_request(unsigned status, const std::string& message);
  /// OpenAI: the next batch fails validation (status "failed", errors.data
  /// with `code` and `message` for line 1).
  void fail_next_validation(const std::string& code,
                            const std::string& message);
  /// Polls no longer move batches (true) or do again (false).
  void hold(bool held);
  /// Moves a batch one step along its path.
  void advance(const std::string& id);
  /// Ends a batch as expired with only its first `done` requests (in input
  /// order) processed; the rest expire.
  void expire(const std::string& id, std::size_t done);
  /// How many requests (in input order) are done when a batch is cancelled;
  /// default all.
  void set_done_at_cancel(std::size_t done);

  // --- what was seen ------------------------------------------------------
  /// How many batches created so far carried this custom_id.
  std::size_t times_sent(const std::string& custom_id) const;
  /// The last request body (Anthropic params, OpenAI body) sent under this
  /// custom_id, as received.
  std::string request_body(const std::string& custom_id) const;
  std::size_t batches_created() const;
  /// The requests of each batch created, in creation order.
  std::vector<std::size_t> batch_sizes() const;
  std::size_t files_uploaded() const;
  std::size_t cancels() const;
  std::size_t polls() const;
  /// GETs of the batch list.
  std::size_t lists() const;
  /// The batches' ids, in creation order.
  std::vector<std::string> batch_ids() const;
  /// The status (the API's word) a batch has now.
  std::string status_of(const std::string& id) const;
  /// Every way a request broke the protocol (empty for a correct client).
  std::vector<std::string> violations() const;

  struct batch;

private:
  planned_reply handle(const fake_request& req);
  planned_reply handle_anthropic(const fake_request& req,
                                 const std::string& target);
  planned_reply handle_openai(const fake_request& req,
                              const std::string& target);
  planned_reply create_anthropic(const fake_request& req);
  planned_reply upload_file(const fake_request& req);
  planned_reply create_openai(const fake_request& req);
  planned_reply error(unsigned status, const std::string& type,
                      const std::string& message);
  planned_reply reject(unsigned status, const std::string& type,
                       const std::string& message);
  planned_reply batch_reply(batch& b);
  planned_reply list(const std::string& target);
  batch* find(const std::string& id);
  void start(batch& b);
  void step(batch& b);
  void end(batch& b, const std::string& status, std::size_t done, bool expired);
  std::string batch_json(const batch& b);
  std::string success_line(const batch& b, const std::string& custom_id,
                           const std::string& text);

  fake_batch_options opt_;
  mutable std::mutex mtx_;
  std::function<std::string(const std::string&)> reply_;
  std::map<std::string, std::pair<unsigned, std::string>> failing_;
  std::deque<std::pair<unsigned, std::string>> next_errors_;
  std::deque<std::pair<unsigned, std::string>> next_rejections_;
  std::deque<std::pair<std::string, std::string>> next_invalid_;
  bool held_ = false;
  std::size_t done_at_cancel_ = SIZE_MAX;
  std::map<std::string, std::size_t> sent_;
  std::map<std::string, std::string> bodies_;
  std::map<std::string, std::string> files_;
  std::vector<std::unique_ptr<batch>> batches_;
  std::size_t files_uploaded_ = 0;
  std::size_t cancels_ = 0;
  std::size_t polls_ = 0;
  std::size_t lists_ = 0;
  std::uint64_t next_id_ = 1;
  std::vector<std::string> violations_;
  std::unique_ptr<fake_server> server_;
};

} // namespace ij::test
