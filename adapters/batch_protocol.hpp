#pragma once
// The two batch APIs as data and pure functions, no I/O
// (reference/llm-batch-logprobs-constraints.md §1, §2):
//   Anthropic  POST /v1/messages/batches {"requests":[{custom_id, params}]},
//              a MessageBatch (processing_status in_progress / canceling /
//              ended), results as JSONL {custom_id, result{type, ...}}.
//   OpenAI     an input JSONL file {custom_id, method, url, body} uploaded to
//              /v1/files, a Batch (eight statuses), output and error files as
//              JSONL {custom_id, response{status_code, body}, error}.
// Each request's params / body is the synchronous request body
// chat_protocol writes, so a batched vote asks exactly what a synchronous one
// asks. Results come back in any order: they are matched by custom_id.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

#include <caf/error.hpp>
#include <caf/expected.hpp>

#include "adapters/chat_protocol.hpp"
#include "adapters/judge_adapter.hpp"

namespace ij {

enum class batch_api : std::uint8_t { anthropic, openai };

/// "anthropic" or "openai".
const char* to_string(batch_api api);

/// The batch API of a judge type ("anthropic", "openai"); bad_config for a
/// type without one (ollama, stubs).
caf::expected<batch_api> batch_api_for(const std::string& type);

/// The chat protocol whose request bodies and replies the API's batches
/// carry.
const chat_protocol& protocol_of(batch_api api);

// --- custom_id --------------------------------------------------------------

/// A vote of a run: the run's tag, the pair's sequence number and the
/// vote's index. The tag keeps ids unique when one batch holds several runs'
/// calls (workers are shared by runs in the daemon) and finds a run's batches.
struct vote_key {
  std::string tag;
  std::uint64_t seq = 0;
  std::uint32_t vote = 0;
  friend bool operator==(const vote_key& a, const vote_key& b) {
    return a.tag == b.tag && a.seq == b.seq && a.vote == b.vote;
  }
};

/// A run tag: [a-z0-9]{1,16}.
constexpr std::size_t max_run_tag_length = 16;
bool valid_run_tag(std::string_view tag);

/// Anthropic's syntax, the stricter of the two (OpenAI documents none):
/// ^[a-zA-Z0-9_-]{1,64}$.
constexpr std::size_t max_custom_id_length = 64;
bool valid_custom_id(std::string_view id);

/// "<tag>-p<seq>-v<vote>": at most 50 characters, valid when the tag is.
std::string make_custom_id(const vote_key& key);

/// The vote a custom_id names; bad_input for any text make_custom_id does
/// not write (a bad tag, leading zeros, signs, overflow, other characters).
caf::expected<vote_key> parse_custom_id(std::string_view id);

// --- limits -----------------------------------------------------------------

struct batch_limits {
  std::size_t max_requests;
  /// Bytes of the whole document: Anthropic's create body, OpenAI's file.
  std::size_t max_bytes;
};

/// ANT-DOC §2.3: 100,000 requests or 256 MB. OpenAI §1.4: 50,000 requests,
/// a 200 MB file. MB read as 10^6 bytes, the smaller reading.
constexpr batch_limits anthropic_batch_limits{100000, 256000000};
constexpr batch_limits openai_batch_limits{50000, 200000000};

batch_limits limits_of(batch_api api);

/// bad_input naming the limit exceeded (or an empty batch); none when the
/// batch may be sent.
caf::error check_batch(batch_api api, std::size_t requests, std::size_t bytes);

// --- the request document ---------------------------------------------------

/// A batch's document, built by appending to one buffer. Each add checks the
/// custom_id (syntax, uniqueness) and the limits; a request that does not
/// fit leaves the document unchanged, so the caller can send what it has
/// and start a new one.
class batch_document {
public:
  explicit batch_document(batch_api api);

  /// Appends the request the synchronous call `prompt` / `opts` would make.
  caf::error add(const std::string& custom_id, const std::string& prompt,
                 const call_options& opts);

  /// Appends a request whose JSON body (an object) is already written.
  caf::error add_body(const std::string& custom_id, std::string_view body);

  batch_api api() const { return api_; }
  std::size_t size() const { return ids_.size(); }
  /// Bytes of the finished document.
  std::size_t bytes() const;
  /// The custom_ids in the order they were added (to record before
  /// submitting).
  const std::vector<std::string>& custom_ids() const { return ids_; }

  /// The document to send (Anthropic: the create body; OpenAI: the JSONL
  /// file); bad_input for an empty batch. Leaves this document empty.
  caf::expected<std::string> finish();

private:
  batch_api api_;
  std::string buf_;
  std::vector<std::string> ids_;
  std::unordered_set<std::string> seen_;
};

// --- batch status -----------------------------------------------------------

/// Every status of both APIs. `ended` is Anthropic's "ended" and OpenAI's
/// "completed"; Anthropic reports cancelled and expired batches as ended
/// (their requests say canceled / expired).
enum class batch_state : std::uint8_t {
  validating,
  in_progress,
  finalizing,
  ended,
  failed,
  expired,
  cancelling,
  cancelled,
};

const char* to_string(batch_state state);

/// Whether the batch will not change any more (ended, failed, expired,
/// cancelled): its results, if any, can be fetched.
bool is_terminal(batch_state state);

struct batch_request_counts {
  std::uint64_t total = 0;
  std::uint64_t processing = 0;
  std::uint64_t succeeded = 0;
  std::uint64_t errored = 0;
  /// Anthropic only (OpenAI counts these as failed).
  std::uint64_t canceled = 0;
  std::uint64_t expired = 0;
};

struct batch_status {
  std::string id;
  batch_state state = batch_state::validating;
  batch_request_counts counts;
  /// Unix seconds (Anthropic's RFC 3339 converted); 0 when unknown.
  std::int64_t created_at = 0;
  std::int64_t expires_at = 0;
  /// Anthropic: where the results are (null until the batch ends).
  std::string results_url;
  /// OpenAI: the output file (successes) and the error file (failures).
  std::string output_file_id;
  std::string error_file_id;
  /// OpenAI, a failed batch: "line N: code: message" per validation error.
  std::vector<std::string> errors;
  /// OpenAI: metadata.ij_batch_key, the key the submitter gave the batch
  /// (found again by listing after a crash); empty when none.
  std::string batch_key;
};

/// Reads a MessageBatch (Anthropic) or a Batch (OpenAI) object; bad_reply
/// when the body is not one.
caf::expected<batch_status> parse_batch_status(batch_api api,
                                               std::string_view body);

/// A page of GET /v1/batches (OpenAI {object:"list", data, first_id,
/// last_id, has_more}) or GET /v1/messages/batches (Anthropic {data,
/// has_more, first_id, last_id}): the batches, newest first as listed.
caf::expected<std::vector<batch_status>>
parse_batch_list(batch_api api, std::string_view body);

/// Unix seconds of an RFC 3339 time ("2024-08-20T18:37:24.100435Z",
/// "...+02:00"); bad_reply when it is not one.
caf::expected<std::int64_t> parse_rfc3339(std::string_view text);

// --- result lines -----------------------------------------------------------

enum class result_kind : std::uint8_t { succeeded, errored, expired, canceled };

const char* to_string(result_kind kind);

struct batch_result {
  std::string custom_id;
  result_kind kind = result_kind::errored;
  /// succeeded: the reply as read_chat_reply reads a synchronous one (ok).
  adapter_reply reply;
  /// Not succeeded: the API's words, its error type or code
  /// ("invalid_request_error", "batch_expired"), and the request's HTTP
  /// status when the API gave one (OpenAI), else 0.
  std::string error;
  std::string error_type;
  unsigned status = 0;
};

/// One line of Anthropic's results or of OpenAI's output or error file.
/// bad_reply when the line is not one (no custom_id, unknown shape); a
/// succeeded request whose message cannot be read is an errored result.
caf::expected<batch_result> parse_result_line(batch_api api,
                                              std::string_view line);

/// Every line of a JSONL text (split on \r and \n, blank lines skipped, a
/// last line without a newline read too); bad_reply naming the first line
/// that is not a result.
caf::expected<std::vector<batch_result>>
parse_result_lines(batch_api api, std::string_view jsonl);

/// The custom_ids of `sent` that have no line in `results`: an OpenAI
/// batch cancelled (or a provider's mistake) leaves some out; they are the
/// caller's to send again or to fault, never a silent gap.
std::vector<std::string>
missing_results(const std::vector<std::string>& sent,
                const std::vector<batch_result>& results);

} // namespace ij
