#pragma once
// Audit trails for the verifier's tests, written with the real record bodies
// (core/audit/audit_record.hpp) and chained as the logger chains them, with a
// run_end whose totals agree with the records unless a test changes them.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "core/audit/audit_record.hpp"
#include "core/audit/canary_records.hpp"
#include "core/sha256.hpp"

namespace ij::test {

/// Chains (type, body) records into lines as the logger writes them.
inline std::vector<std::string>
chain(const std::vector<std::pair<std::string, std::string>>& recs) {
  std::vector<std::string> out;
  std::string prev{audit_genesis_hash};
  std::uint64_t seq = 0;
  for (auto& [type, body] : recs) {
    std::string line;
    append_audit_line(line, ++seq, type, "2026-01-01T00:00:00.000Z", prev,
                      body);
    prev = sha256_hex(line);
    out.push_back(line);
  }
  return out;
}

class audit_builder {
public:
  /// The manifest names one judge, "judge-a", served by adapter "stub:a",
  /// and one, "judge-b", by "stub:b".
  audit_builder() {
    recs_.push_back({"manifest",
                     R"({"prompt_id":"invariance-checker/judge/v1","judges":[)"
                     R"({"name":"judge-a","adapter_id":"stub:a"},)"
                     R"({"name":"judge-b","adapter_id":"stub:b"}]})"});
    summary_.usage = {judge_usage{"judge-a", 0, 0, 0, 0},
                      judge_usage{"judge-b", 0, 0, 0, 0}};
  }

  /// One judged pair: `calls` judge calls on judge-a (the first `failed` of
  /// them transport failures, 10 input and 2 output tokens each), then its
  /// vote and verdict records.
  audit_builder& pair(const std::string& id, const std::string& item,
                      verdict_rule rule, std::uint32_t calls = 1,
                      std::uint32_t failed = 0, std::uint32_t not_cast = 0) {
    answer_pair p{id, item, "1", "1", std::nullopt, ""};
    vote_result vr;
    vr.pair_id = id;
    vr.counts.votes = calls + not_cast;
    vr.counts.not_cast = not_cast;
    for (std::uint32_t i = 0; i < calls; ++i) {
      judge_record rec;
      rec.pair_id = id;
      rec.adapter_id = "stub:a";
      rec.worker_id = "judge-a#1@local";
      rec.vote_index = i;
      rec.transport_failed = i < failed;
      rec.input_tokens = 10;
      rec.output_tokens = 2;
      recs_.push_back({"judge_call", judge_call_body(rec)});
      vr.records.push_back(rec);
    }
    recs_.push_back({"vote", vote_body(p, vr)});
    single_verdict v;
    v.pair_id = id;
    v.item = item;
    v.rule = rule;
    recs_.push_back({"verdict", verdict_body(p, v)});
    ++summary_.pairs;
    ++summary_.by_rule[static_cast<int>(rule) - 1];
    summary_.judge_calls += calls;
    summary_.calls_sent += calls;
    summary_.calls_answered += calls;
    summary_.calls_skipped += not_cast;
    summary_.faults += failed;
    auto& u = summary_.usage[0];
    u.calls += calls;
    u.faults += failed;
    u.input_tokens += 10u * calls;
    u.output_tokens += 2u * calls;
    return *this;
  }

  /// One canary: `calls` judge calls on judge-a, then its canary record
  /// (counted in calls and canaries, never in pairs).
  audit_builder& canary(const std::string& id, std::uint32_t calls = 1,
                        std::uint32_t not_cast = 0) {
    canary_result c;
    c.id = id;
    c.kind = "mismatch";
    c.counts.votes = calls + not_cast;
    c.counts.not_cast = not_cast;
    for (std::uint32_t i = 0; i < calls; ++i) {
      judge_record rec;
      rec.pair_id = id;
      rec.adapter_id = "stub:a";
      rec.vote_index = i;
      recs_.push_back({"judge_call", judge_call_body(rec)});
    }
    recs_.push_back({"canary", canary_body(c, calls, {})});
    ++summary_.canaries;
    summary_.judge_calls += calls;
    summary_.calls_skipped += not_cast;
    summary_.usage[0].calls += calls;
    return *this;
  }

  /// One pair (rule I2) whose three votes on judge-a were never sent: the
  /// first two refused by the circuit breaker, the third at the budget.
  audit_builder& refused_pair(const std::string& id, const std::string& item) {
    answer_pair p{id, item, "1", "1", std::nullopt, ""};
    vote_result vr;
    vr.pair_id = id;
    vr.counts.votes = 3;
    for (std::uint32_t i = 0; i < 3; ++i) {
      judge_record rec;
      rec.pair_id = id;
      rec.adapter_id = "stub:a";
      rec.worker_id = "judge-a#1@local";
      rec.vote_index = i;
      rec.transport_failed = true;
      rec.refused_by_breaker = i < 2;
      rec.fault = i < 2 ? fault_kind::unavailable : fault_kind::budget;
      recs_.push_back({"judge_call", judge_call_body(rec)});
      vr.records.push_back(rec);
    }
    recs_.push_back({"vote", vote_body(p, vr)});
    single_verdict v;
    v.pair_id = id;
    v.item = item;
    v.rule = verdict_rule::i2;
    recs_.push_back({"verdict", verdict_body(p, v)});
    ++summary_.pairs;
    ++summary_.by_rule[1];
    summary_.judge_calls += 3;
    summary_.calls_refused_breaker += 2;
    summary_.calls_refused_budget += 1;
    summary_.faults += 3;
    summary_.usage[0].calls += 3;
    summary_.usage[0].faults += 3;
    return *this;
  }

  audit_builder& item(const std::string& name) {
    statistical_verdict v;
    v.item = name;
    recs_.push_back({"item_verdict", item_verdict_body(v)});
    ++summary_.items;
    return *this;
  }

  audit_builder& rejected(std::uint64_t line) {
    recs_.push_back({"rejected", rejected_body("p.jsonl", line, "bad")});
    ++summary_.rejected;
    return *this;
  }

  /// The totals run_end will carry; tests may change them.
  run_summary& summary() { return summary_; }
  std::vector<std::string>& unfinished() { return unfinished_; }
  std::uint32_t& open_items() { return open_items_; }

  /// Every line, run_end last.
  std::vector<std::string> lines() const {
    auto recs = recs_;
    recs.push_back(
      {"run_end", run_end_body(summary_, unfinished_, open_items_)});
    return chain(recs);
  }

private:
  std::vector<std::pair<std::string, std::string>> recs_;
  run_summary summary_;
  std::vector<std::string> unfinished_;
  std::uint32_t open_items_ = 0;
};

} // namespace ij::test
