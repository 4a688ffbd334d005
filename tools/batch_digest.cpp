#include "tools/batch_digest.hpp"

#include <algorithm>

#include "core/audit/batch_record.hpp"

namespace ij {

std::optional<double> batch_row::seconds_to_end() const {
  auto from = submitted_ms != 0 ? submitted_ms : pending_ms;
  if (ended_ms == 0 || from == 0)
    return std::nullopt;
  return static_cast<double>(std::max<std::int64_t>(0, ended_ms - from))
         / 1000.0;
}

void batch_digest::add_batch(const rapidjson::Value& record) {
  auto read = read_batch_body(record);
  if (!read)
    return;
  auto& r = *read;
  auto [it, fresh] = by_key_.emplace(r.key, rows_.size());
  if (fresh) {
    rows_.emplace_back();
    rows_.back().judge = r.judge;
    rows_.back().key = r.key;
  }
  auto& row = rows_[it->second];
  row.requests = std::max<std::uint64_t>(row.requests, r.entries.size());
  for (auto& e : r.entries)
    holder_[{e.pair_id, e.vote}] = it->second;
  if (!r.batch_id.empty())
    row.batch_id = r.batch_id;
  switch (r.step) {
    case batch_step::pending:
      row.pending_ms = r.at_ms;
      row.state = std::string{to_string(r.step)};
      break;
    case batch_step::submitted:
      row.submitted_ms = r.at_ms;
      row.state = std::string{to_string(r.step)};
      break;
    case batch_step::ended: // the provider's final state, when it gave one
      row.ended_ms = r.at_ms;
      row.state = r.state.empty() ? std::string{to_string(r.step)} : r.state;
      break;
  }
}

void batch_digest::add_call(const std::string& pair_id, std::uint32_t vote,
                            std::uint64_t input_tokens,
                            std::uint64_t output_tokens) {
  auto it = holder_.find({pair_id, vote});
  if (it == holder_.end())
    return;
  auto& row = rows_[it->second];
  ++row.answered;
  row.input_tokens += input_tokens;
  row.output_tokens += output_tokens;
}

} // namespace ij
