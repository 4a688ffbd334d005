#pragma once
// The batches of a run as its audit records them (issue 17's `batch`
// records, issue 27's report section): per batch, its judge, how many
// requests it carried, the state it reached, when it was recorded, submitted
// and ended, and the tokens of the batched judge calls that answered its
// requests. Read from the audit alone (tools/audit_digest feeds it).
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <rapidjson/document.h>

namespace ij {

struct batch_row {
  /// The judge's adapter id as the batch record names it.
  std::string judge;
  /// The adapter's key, and the provider's id once submitted.
  std::string key;
  std::string batch_id;
  /// "pending" (recorded, never submitted), "submitted" (not ended when the
  /// audit ends), or the state it ended in ("ended", "expired",
  /// "cancelled", ...).
  std::string state;
  std::uint64_t requests = 0;
  /// Batched judge calls recorded for its requests, and their tokens.
  std::uint64_t answered = 0;
  std::uint64_t input_tokens = 0;
  std::uint64_t output_tokens = 0;
  /// Wall-clock milliseconds of its steps; 0: not recorded.
  std::int64_t pending_ms = 0;
  std::int64_t submitted_ms = 0;
  std::int64_t ended_ms = 0;

  /// Seconds from submission (else from being recorded) to the end;
  /// nullopt while it has not ended.
  std::optional<double> seconds_to_end() const;
};

class batch_digest {
public:
  /// A `batch` audit record; one that is not well formed is skipped.
  void add_batch(const rapidjson::Value& record);
  /// A judge_call record marked batched: its tokens go to the batch that
  /// holds its request (pair id, vote index), if any.
  void add_call(const std::string& pair_id, std::uint32_t vote,
                std::uint64_t input_tokens, std::uint64_t output_tokens);

  /// The batches in the order they were first recorded.
  const std::vector<batch_row>& rows() const { return rows_; }

private:
  std::vector<batch_row> rows_;
  std::map<std::string, std::size_t> by_key_;
  /// (pair id, vote index) -> the batch that last held that request.
  std::map<std::pair<std::string, std::uint32_t>, std::size_t> holder_;
};

} // namespace ij
