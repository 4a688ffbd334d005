#include "core/audit_record.hpp"
#include "core/statistical_params_json.hpp"

#include <cmath>
#include <cstdio>
#include <ctime>
#include <optional>

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

namespace ij {

namespace {

using json_writer = rapidjson::Writer<rapidjson::StringBuffer>;

void str(json_writer& w, std::string_view key, std::string_view value) {
  w.Key(key.data(), static_cast<rapidjson::SizeType>(key.size()));
  w.String(value.data(), static_cast<rapidjson::SizeType>(value.size()));
}

// Empty means NULL / not given.
void str_or_null(json_writer& w, std::string_view key, std::string_view value) {
  w.Key(key.data(), static_cast<rapidjson::SizeType>(key.size()));
  if (value.empty())
    w.Null();
  else
    w.String(value.data(), static_cast<rapidjson::SizeType>(value.size()));
}

void boolean(json_writer& w, std::string_view key, bool value) {
  w.Key(key.data(), static_cast<rapidjson::SizeType>(key.size()));
  w.Bool(value);
}

void u64(json_writer& w, std::string_view key, std::uint64_t value) {
  w.Key(key.data(), static_cast<rapidjson::SizeType>(key.size()));
  w.Uint64(value);
}

void i64(json_writer& w, std::string_view key, std::int64_t value) {
  w.Key(key.data(), static_cast<rapidjson::SizeType>(key.size()));
  w.Int64(value);
}

// JSON has no NaN or infinity; RapidJSON refuses them, so they become null.
void num(json_writer& w, std::string_view key, double value) {
  w.Key(key.data(), static_cast<rapidjson::SizeType>(key.size()));
  if (std::isfinite(value))
    w.Double(value);
  else
    w.Null();
}

void tri(json_writer& w, std::string_view key, const std::optional<bool>& v) {
  w.Key(key.data(), static_cast<rapidjson::SizeType>(key.size()));
  if (v)
    w.Bool(*v);
  else
    w.Null();
}

void outcome(json_writer& w, const equivalence_outcome& o) {
  w.Key("outcome");
  w.StartObject();
  tri(w, "equivalent", o.equivalent);
  num(w, "confidence", o.confidence);
  str(w, "detail", o.detail);
  boolean(w, "fault", o.fault);
  w.EndObject();
}

void counts(json_writer& w, const vote_counts& c) {
  w.Key("counts");
  w.StartObject();
  u64(w, "votes", c.votes);
  u64(w, "min_agreement", c.min_agreement);
  u64(w, "equivalent", c.equivalent);
  u64(w, "different", c.different);
  u64(w, "abstain", c.abstain);
  u64(w, "parse_error", c.parse_error);
  u64(w, "faults", c.faults);
  u64(w, "not_cast", c.not_cast);
  w.EndObject();
}

// A buffer reused by every body rendered on this thread: bodies are written
// for every pair, and a fresh buffer would be allocated and grown each time.
rapidjson::StringBuffer& scratch() {
  thread_local rapidjson::StringBuffer sb;
  sb.Clear();
  return sb;
}

std::string item_of(const answer_pair& pair) {
  return pair.item.empty() ? pair.id : pair.item;
}

} // namespace

std::string iso8601_utc(std::int64_t unix_ms) {
  auto secs = static_cast<std::time_t>(unix_ms / 1000);
  auto ms = static_cast<int>(unix_ms % 1000);
  if (ms < 0) {
    ms += 1000;
    --secs;
  }
  std::tm tm{};
  gmtime_r(&secs, &tm);
  char buf[40];
  auto n = std::strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%S", &tm);
  std::string out(buf, n);
  char frac[8];
  std::snprintf(frac, sizeof(frac), ".%03dZ", ms);
  out += frac;
  return out;
}

namespace {

// True when `s` can stand in a JSON string as it is (no quote, backslash or
// control character): the header's type, time and hash always can.
bool json_plain(std::string_view s) {
  for (unsigned char c : s)
    if (c < 0x20 || c == '"' || c == '\\')
      return false;
  return true;
}

} // namespace

void append_audit_line(std::string& out, std::uint64_t seq,
                       std::string_view type, std::string_view ts,
                       std::string_view prev, std::string_view body) {
  // The header is left open and the body's members follow it: a body "{}"
  // adds nothing, any other "{...}" adds its members after a comma. Written
  // by hand: it runs for every line, and its fields need no escaping (the
  // bytes are the same as RapidJSON's; the fallback keeps them so if not).
  if (json_plain(type) && json_plain(ts) && json_plain(prev)) {
    char num[24];
    auto n = std::snprintf(num, sizeof num, "%llu",
                           static_cast<unsigned long long>(seq));
    out.reserve(out.size() + 48 + type.size() + ts.size() + prev.size()
                + body.size());
    out += "{\"seq\":";
    out.append(num, static_cast<std::size_t>(n));
    out += ",\"type\":\"";
    out.append(type.data(), type.size());
    out += "\",\"ts\":\"";
    out.append(ts.data(), ts.size());
    out += "\",\"prev\":\"";
    out.append(prev.data(), prev.size());
    out += '"';
  } else {
    rapidjson::StringBuffer sb;
    json_writer w(sb);
    w.StartObject();
    u64(w, "seq", seq);
    str(w, "type", type);
    str(w, "ts", ts);
    str(w, "prev", prev);
    out.append(sb.GetString(), sb.GetSize());
  }
  auto inner = body.size() >= 2 ? body.substr(1, body.size() - 2)
                                 : std::string_view{};
  if (!inner.empty()) {
    out += ',';
    out.append(inner.data(), inner.size());
  }
  out += '}';
}

void judge_call_body(rapidjson::StringBuffer& sb, const judge_record& rec) {
  json_writer w(sb);
  w.StartObject();
  str(w, "pair_id", rec.pair_id);
  u64(w, "vote_index", rec.vote_index);
  str(w, "prompt_id", rec.prompt_id);
  str(w, "adapter_id", rec.adapter_id);
  str_or_null(w, "worker", rec.worker_id);
  str(w, "model", rec.model);
  num(w, "temperature", rec.temperature);
  w.Key("seed");
  if (rec.has_seed)
    w.Int64(rec.seed);
  else
    w.Null();
  boolean(w, "swapped", rec.swapped);
  str(w, "decision", to_string(rec.decision));
  str(w, "reason", rec.reason);
  str_or_null(w, "numeric_a", rec.numeric_a);
  str_or_null(w, "numeric_b", rec.numeric_b);
  boolean(w, "extra_text", rec.extra_text);
  boolean(w, "inconsistent", rec.inconsistent);
  boolean(w, "transport_failed", rec.transport_failed);
  str_or_null(w, "transport_error", rec.transport_error);
  str_or_null(w, "fault_kind",
              rec.fault == fault_kind::none ? std::string_view{}
                                            : to_string(rec.fault));
  u64(w, "attempts", rec.attempts);
  num(w, "latency_ms", rec.latency_ms);
  i64(w, "started_at_ms", rec.started_at_ms);
  i64(w, "finished_at_ms", rec.finished_at_ms);
  u64(w, "input_tokens", rec.input_tokens);
  u64(w, "output_tokens", rec.output_tokens);
  str(w, "raw_text", rec.raw_text);
  w.EndObject();
}

std::string judge_call_body(const judge_record& rec) {
  auto& sb = scratch();
  judge_call_body(sb, rec);
  return {sb.GetString(), sb.GetSize()};
}

void vote_body(rapidjson::StringBuffer& sb, const answer_pair& pair, const vote_result& vr) {
  json_writer w(sb);
  w.StartObject();
  str(w, "pair_id", pair.id);
  str(w, "item", item_of(pair));
  str(w, "a", pair.a);
  str(w, "b", pair.b);
  boolean(w, "absent", vr.absent);
  outcome(w, vr.outcome);
  counts(w, vr.counts);
  u64(w, "judge_calls", vr.records.size());
  w.EndObject();
}

std::string vote_body(const answer_pair& pair, const vote_result& vr) {
  auto& sb = scratch();
  vote_body(sb, pair, vr);
  return {sb.GetString(), sb.GetSize()};
}

void verdict_body(rapidjson::StringBuffer& sb, const answer_pair& pair, const single_verdict& v) {
  json_writer w(sb);
  w.StartObject();
  str(w, "pair_id", v.pair_id);
  str(w, "item", v.item);
  str(w, "verdict", to_string(v.verdict));
  str(w, "rule", to_string(v.rule));
  outcome(w, v.outcome);
  tri(w, "label", pair.label);
  str_or_null(w, "transform", pair.transform);
  w.EndObject();
}

std::string verdict_body(const answer_pair& pair, const single_verdict& v) {
  auto& sb = scratch();
  verdict_body(sb, pair, v);
  return {sb.GetString(), sb.GetSize()};
}

std::string item_verdict_body(const statistical_verdict& v) {
  auto& sb = scratch();
  json_writer w(sb);
  w.StartObject();
  str(w, "item", v.item);
  str(w, "verdict", to_string(v.verdict));
  str(w, "rule", to_string(v.rule));
  u64(w, "c1", v.c1);
  u64(w, "c2", v.c2);
  u64(w, "c3", v.c3);
  u64(w, "c4", v.c4);
  u64(w, "c5", v.c5);
  u64(w, "n", v.n);
  u64(w, "decided", v.decided);
  num(w, "p", v.p);
  num(w, "lo", v.lo);
  num(w, "hi", v.hi);
  w.Key("params");
  write_statistical_params(w, v.params);
  w.EndObject();
  return {sb.GetString(), sb.GetSize()};
}

std::string rejected_body(std::string_view file, std::uint64_t line,
                          std::string_view reason) {
  auto& sb = scratch();
  json_writer w(sb);
  w.StartObject();
  str(w, "file", file);
  u64(w, "line", line);
  str(w, "reason", reason);
  w.EndObject();
  return {sb.GetString(), sb.GetSize()};
}

std::string run_end_body(const run_summary& s,
                         const std::vector<std::string>& unfinished_pairs,
                         std::uint32_t open_items) {
  auto& sb = scratch();
  json_writer w(sb);
  w.StartObject();
  boolean(w, "interrupted", s.interrupted);
  u64(w, "pairs", s.pairs);
  u64(w, "rejected", s.rejected);
  u64(w, "items", s.items);
  u64(w, "open_items", open_items);
  w.Key("by_rule");
  w.StartObject();
  for (int i = 0; i < 5; ++i)
    u64(w, to_string(static_cast<verdict_rule>(i + 1)), s.by_rule[i]);
  w.EndObject();
  u64(w, "judge_calls", s.judge_calls);
  u64(w, "calls_skipped", s.calls_skipped);
  u64(w, "faults", s.faults);
  w.Key("usage");
  w.StartArray();
  for (auto& u : s.usage) {
    w.StartObject();
    str(w, "judge", u.judge);
    u64(w, "calls", u.calls);
    u64(w, "faults", u.faults);
    u64(w, "input_tokens", u.input_tokens);
    u64(w, "output_tokens", u.output_tokens);
    w.EndObject();
  }
  w.EndArray();
  w.Key("unfinished_pairs");
  w.StartArray();
  for (auto& id : unfinished_pairs)
    w.String(id.data(), static_cast<rapidjson::SizeType>(id.size()));
  w.EndArray();
  w.EndObject();
  return {sb.GetString(), sb.GetSize()};
}

} // namespace ij
