#include "core/audit/audit_record.hpp"

#include <cmath>
#include <cstdio>
#include <ctime>
#include <optional>

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include "core/agreement/cascade_tally.hpp"
#include "core/config/statistical_params_json.hpp"
#include "core/json_fields.hpp"
#include "core/session/call_route.hpp"

namespace ij {

namespace {

using json_writer = rapidjson::Writer<rapidjson::StringBuffer>;

} // namespace

void write_outcome(json_writer& w, const equivalence_outcome& o) {
  w.Key("outcome");
  w.StartObject();
  json::tri(w, "equivalent", o.equivalent);
  json::number(w, "confidence", o.confidence);
  json::string(w, "detail", o.detail);
  json::boolean(w, "fault", o.fault);
  w.EndObject();
}

void write_vote_counts(json_writer& w, const vote_counts& c, const char* key) {
  w.Key(key);
  w.StartObject();
  json::uint(w, "votes", c.votes);
  json::uint(w, "min_agreement", c.min_agreement);
  json::uint(w, "equivalent", c.equivalent);
  json::uint(w, "different", c.different);
  json::uint(w, "abstain", c.abstain);
  json::uint(w, "parse_error", c.parse_error);
  json::uint(w, "faults", c.faults);
  json::uint(w, "not_cast", c.not_cast);
  w.EndObject();
}

namespace {

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
    json::uint(w, "seq", seq);
    json::string(w, "type", type);
    json::string(w, "ts", ts);
    json::string(w, "prev", prev);
    out.append(sb.GetString(), sb.GetSize());
  }
  auto inner =
    body.size() >= 2 ? body.substr(1, body.size() - 2) : std::string_view{};
  if (!inner.empty()) {
    out += ',';
    out.append(inner.data(), inner.size());
  }
  out += '}';
}

void judge_call_body(rapidjson::StringBuffer& sb, const judge_record& rec) {
  json_writer w(sb);
  w.StartObject();
  json::string(w, "pair_id", rec.pair_id);
  json::uint(w, "vote_index", rec.vote_index);
  json::string(w, "prompt_id", rec.prompt_id);
  json::string(w, "adapter_id", rec.adapter_id);
  json::string_or_null(w, "worker", rec.worker_id);
  // The host that served the call ("local", a judge host's ADDR:PORT).
  json::string_or_null(w, "host", rec.host);
  json::string(w, "model", rec.model);
  json::number(w, "temperature", rec.temperature);
  w.Key("seed");
  if (rec.has_seed)
    w.Int64(rec.seed);
  else
    w.Null();
  json::boolean(w, "swapped", rec.swapped);
  json::string(w, "decision", to_string(rec.decision));
  json::string(w, "reason", rec.reason);
  json::string_or_null(w, "numeric_a", rec.numeric_a);
  json::string_or_null(w, "numeric_b", rec.numeric_b);
  json::boolean(w, "extra_text", rec.extra_text);
  json::boolean(w, "inconsistent", rec.inconsistent);
  json::boolean(w, "transport_failed", rec.transport_failed);
  json::string_or_null(w, "transport_error", rec.transport_error);
  json::string_or_null(w, "fault_kind",
                       rec.fault == fault_kind::none ? std::string_view{}
                                                     : to_string(rec.fault));
  json::uint(w, "attempts", rec.attempts);
  json::number(w, "latency_ms", rec.latency_ms);
  json::sint(w, "started_at_ms", rec.started_at_ms);
  json::sint(w, "finished_at_ms", rec.finished_at_ms);
  json::uint(w, "input_tokens", rec.input_tokens);
  json::uint(w, "output_tokens", rec.output_tokens);
  json::string(w, "raw_text", rec.raw_text);
  // Only on reused records, so that uncached records read as before.
  if (rec.cached)
    json::boolean(w, "cached", true);
  // Only on a call answered through a batch API (priced at the discount).
  if (rec.batched)
    json::boolean(w, "batched", true);
  // Only on a call the circuit breaker refused (never sent).
  if (rec.refused_by_breaker)
    json::string(w, "refused_by", refused_by_breaker_text);
  // The judge's own probabilities (issue 16) when it gave them (a backend
  // asked for log-probabilities, or a stub judge that has its own); null
  // when asked and the backend returned none. Written once: a duplicate
  // key would make the record ambiguous to every JSON reader.
  if (rec.logprobs_asked || rec.decision_probs.size() == 3) {
    w.Key("decision_probs");
    if (rec.decision_probs.size() == 3) {
      w.StartObject();
      json::number(w, "EQUIVALENT", rec.decision_probs[0]);
      json::number(w, "DIFFERENT", rec.decision_probs[1]);
      json::number(w, "ABSTAIN", rec.decision_probs[2]);
      w.EndObject();
    } else {
      w.Null();
    }
  }
  w.EndObject();
}

std::string judge_call_body(const judge_record& rec) {
  auto& sb = scratch();
  judge_call_body(sb, rec);
  return {sb.GetString(), sb.GetSize()};
}

void vote_body(rapidjson::StringBuffer& sb, const answer_pair& pair,
               const vote_result& vr) {
  json_writer w(sb);
  w.StartObject();
  json::string(w, "pair_id", pair.id);
  json::string(w, "item", item_of(pair));
  json::string(w, "a", pair.a);
  json::string(w, "b", pair.b);
  json::boolean(w, "absent", vr.absent);
  write_outcome(w, vr.outcome);
  write_vote_counts(w, vr.counts);
  json::uint(w, "judge_calls", vr.records.size());
  // With a calibration map (issue 16): P(equivalent) and why voting stopped.
  if (vr.outcome.has_probability())
    json::number(w, "probability", vr.outcome.probability);
  if (!vr.stop.empty())
    json::string(w, "stop", vr.stop);
  // Issue 29, only when there: why no judge was asked, the planted-verdict
  // flags, the problem a declared prompt showed the judge.
  if (!vr.screened.empty())
    json::string(w, "screened", vr.screened);
  if (!vr.flags.empty()) {
    w.Key("flags");
    w.StartArray();
    for (auto& f : vr.flags)
      w.String(f.data(), static_cast<rapidjson::SizeType>(f.size()));
    w.EndArray();
  }
  if (!pair.problem.empty())
    json::string(w, "problem", pair.problem);
  if (!vr.parts.empty()) {
    json::string(w, "route", vr.route);
    w.Key("parts");
    w.StartArray();
    for (auto& p : vr.parts) {
      w.StartObject();
      json::string(w, "judge", p.judge);
      json::string(w, "role", p.role);
      write_outcome(w, p.outcome);
      write_vote_counts(w, p.counts);
      w.EndObject();
    }
    w.EndArray();
  }
  w.EndObject();
}

std::string vote_body(const answer_pair& pair, const vote_result& vr) {
  auto& sb = scratch();
  vote_body(sb, pair, vr);
  return {sb.GetString(), sb.GetSize()};
}

void verdict_body(rapidjson::StringBuffer& sb, const answer_pair& pair,
                  verdict_kind verdict, verdict_rule rule,
                  const equivalence_outcome& outcome) {
  json_writer w(sb);
  w.StartObject();
  json::string(w, "pair_id", pair.id);
  json::string(w, "item", pair.item);
  json::string(w, "verdict", to_string(verdict));
  json::string(w, "rule", to_string(rule));
  write_outcome(w, outcome);
  if (outcome.has_probability())
    json::number(w, "probability", outcome.probability);
  json::tri(w, "label", pair.label);
  json::string_or_null(w, "transform", pair.transform);
  w.EndObject();
}

std::string verdict_body(const answer_pair& pair, const single_verdict& v) {
  auto& sb = scratch();
  verdict_body(sb, pair, v.verdict, v.rule, v.outcome);
  return {sb.GetString(), sb.GetSize()};
}

std::string item_verdict_body(const statistical_verdict& v) {
  auto& sb = scratch();
  json_writer w(sb);
  w.StartObject();
  json::string(w, "item", v.item);
  json::string(w, "verdict", to_string(v.verdict));
  json::string(w, "rule", to_string(v.rule));
  json::uint(w, "c1", v.c1);
  json::uint(w, "c2", v.c2);
  json::uint(w, "c3", v.c3);
  json::uint(w, "c4", v.c4);
  json::uint(w, "c5", v.c5);
  json::uint(w, "n", v.n);
  json::uint(w, "decided", v.decided);
  json::number(w, "p", v.p);
  json::number(w, "lo", v.lo);
  json::number(w, "hi", v.hi);
  w.Key("params");
  write_statistical_params(w, v.params);
  if (v.probability >= 0)
    json::number(w, "probability", v.probability);
  w.EndObject();
  return {sb.GetString(), sb.GetSize()};
}

std::string cascade_disagreement_body(const answer_pair& pair,
                                      const vote_result& vr) {
  auto& sb = scratch();
  json_writer w(sb);
  w.StartObject();
  json::string(w, "pair_id", pair.id);
  json::string(w, "item", item_of(pair));
  json::string(w, "a", pair.a);
  json::string(w, "b", pair.b);
  json::tri(w, "label", pair.label);
  for (auto& p : vr.parts) {
    w.Key(p.role == "rules" ? "rules" : "llm");
    w.StartObject();
    json::string(w, "judge", p.judge);
    write_outcome(w, p.outcome);
    w.EndObject();
  }
  w.EndObject();
  return {sb.GetString(), sb.GetSize()};
}

std::string rejected_body(std::string_view file, std::uint64_t line,
                          std::string_view reason) {
  auto& sb = scratch();
  json_writer w(sb);
  w.StartObject();
  json::string(w, "file", file);
  json::uint(w, "line", line);
  json::string(w, "reason", reason);
  w.EndObject();
  return {sb.GetString(), sb.GetSize()};
}

namespace {

void panel_fields(json_writer& w, const panel_summary& p) {
  w.Key("panel");
  w.StartObject();
  w.Key("judges");
  w.StartArray();
  for (auto& j : p.judges)
    w.String(j.data(), static_cast<rapidjson::SizeType>(j.size()));
  w.EndArray();
  json::string(w, "rule", p.rule);
  json::uint(w, "pairs", p.pairs);
  json::uint(w, "all", p.all);
  json::uint(w, "majority", p.majority);
  json::uint(w, "split", p.split);
  json::uint(w, "rated", p.rated);
  json::number(w, "confidence", p.confidence);
  json::number(w, "raw_agreement", p.raw);
  w.Key("raw_agreement_interval");
  w.StartArray();
  w.Double(p.raw_lo);
  w.Double(p.raw_hi);
  w.EndArray();
  json::string(w, "kappa_kind", p.kappa_kind);
  w.Key("kappa");
  if (p.kappa_defined)
    w.Double(p.kappa);
  else
    w.Null();
  w.Key("kappa_interval");
  if (p.kappa_interval) {
    w.StartArray();
    w.Double(p.kappa_lo);
    w.Double(p.kappa_hi);
    w.EndArray();
  } else {
    w.Null();
  }
  w.Key("confusion");
  w.StartArray();
  for (auto& c : p.confusion) {
    w.StartObject();
    json::string(w, "judge", c.judge);
    static const char* rows[3] = {"equivalent", "different", "neither"};
    for (std::size_t r = 0; r < 3; ++r) {
      w.Key(rows[r]);
      w.StartObject();
      json::uint(w, "label_true", c.cells[2 * r]);
      json::uint(w, "label_false", c.cells[2 * r + 1]);
      w.EndObject();
    }
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
}

void cascade_fields(json_writer& w, const cascade_summary& c) {
  w.Key("cascade");
  w.StartObject();
  json::string(w, "rules", c.rules);
  json::string(w, "llm", c.llm);
  json::number(w, "audit_rate", c.audit_rate);
  json::uint(w, "pairs", c.pairs);
  json::uint(w, "rules_decided", c.rules_decided);
  json::uint(w, "fallback", c.fallback);
  json::uint(w, "audited", c.audited);
  json::uint(w, "audit_agree", c.audit_agree);
  json::uint(w, "audit_disagree", c.audit_disagree);
  json::uint(w, "audit_undecided", c.audit_undecided);
  json::uint(w, "equivalent_confirmed", c.equivalent_confirmed);
  json::uint(w, "equivalent_checked", c.equivalent_checked);
  json::uint(w, "different_confirmed", c.different_confirmed);
  json::uint(w, "different_checked", c.different_checked);
  json::uint(w, "rules_calls", c.rules_calls);
  json::uint(w, "llm_calls", c.llm_calls);
  json::uint(w, "llm_input_tokens", c.llm_input_tokens);
  json::uint(w, "llm_output_tokens", c.llm_output_tokens);
  json::uint(w, "llm_pairs", c.llm_pairs);
  auto e = estimate_llm_only(c);
  w.Key("llm_only_estimate");
  if (e.known) {
    w.StartObject();
    json::number(w, "calls", e.calls);
    json::number(w, "input_tokens", e.input_tokens);
    json::number(w, "output_tokens", e.output_tokens);
    json::number(w, "saved_calls", e.saved_calls);
    json::number(w, "saved_input_tokens", e.saved_input_tokens);
    json::number(w, "saved_output_tokens", e.saved_output_tokens);
    w.EndObject();
  } else {
    w.Null();
  }
  w.EndObject();
}

void spend_fields(json_writer& w, const std::vector<judge_spend>& spend) {
  w.Key("spend");
  w.StartArray();
  for (auto& s : spend) {
    w.StartObject();
    json::string(w, "judge", s.judge);
    json::uint(w, "calls", s.calls);
    json::uint(w, "input_tokens", s.input_tokens);
    json::uint(w, "output_tokens", s.output_tokens);
    w.Key("cost");
    if (s.priced)
      w.Double(s.cost);
    else
      w.Null();
    json::uint(w, "budget_faults", s.budget_faults);
    w.Key("budget");
    w.StartObject();
    auto limit = [&](const char* k, bool has, std::uint64_t v) {
      w.Key(k);
      if (has)
        w.Uint64(v);
      else
        w.Null();
    };
    limit("max_calls", s.has_max_calls, s.max_calls);
    limit("max_input_tokens", s.has_max_input_tokens, s.max_input_tokens);
    limit("max_output_tokens", s.has_max_output_tokens, s.max_output_tokens);
    w.Key("max_cost");
    if (s.has_max_cost)
      w.Double(s.max_cost);
    else
      w.Null();
    w.EndObject();
    w.EndObject();
  }
  w.EndArray();
}

// Canaries, alarms and position bias (issue 10): what the run learnt about
// its judges.
void write_judge_watch(json_writer& w, const run_summary& s) {
  json::uint(w, "canaries", s.canaries);
  json::boolean(w, "stopped_by_alarm", s.stopped_by_alarm);
  w.Key("canary_tallies");
  w.StartArray();
  for (auto& t : s.canary_tallies) {
    w.StartObject();
    json::string(w, "judge", t.judge);
    json::uint(w, "canaries", t.canaries);
    json::uint(w, "failed", t.failed);
    json::uint(w, "false_equivalent", t.false_equivalent);
    json::uint(w, "decided_abstain", t.decided_abstain);
    json::uint(w, "failed_identity", t.failed_identity);
    json::boolean(w, "alarmed", t.alarmed);
    w.EndObject();
  }
  w.EndArray();
  w.Key("alarms");
  w.StartArray();
  for (auto& a : s.alarms) {
    w.StartObject();
    json::string(w, "judge", a.judge);
    json::string(w, "mode", a.mode);
    json::string(w, "action", to_string(a.action));
    json::uint(w, "at_canary", a.at_canary);
    w.EndObject();
  }
  w.EndArray();
  w.Key("position_bias");
  w.StartArray();
  for (auto& p : s.position_bias) {
    w.StartObject();
    json::string(w, "judge", p.judge);
    json::uint(w, "comparisons", p.comparisons);
    json::uint(w, "changed", p.changed);
    json::number(w, "rate", p.rate);
    json::number(w, "lo", p.lo);
    json::number(w, "hi", p.hi);
    w.EndObject();
  }
  w.EndArray();
}

} // namespace

std::string run_end_body(const run_summary& s,
                         const std::vector<std::string>& unfinished_pairs,
                         std::uint32_t open_items) {
  auto& sb = scratch();
  json_writer w(sb);
  w.StartObject();
  json::boolean(w, "interrupted", s.interrupted);
  // Why (Ctrl-C, a cancel through the daemon, SIGTERM), when interrupted.
  if (s.interrupted && !s.stop_reason.empty())
    json::string(w, "stop_reason", s.stop_reason);
  json::uint(w, "pairs", s.pairs);
  json::uint(w, "rejected", s.rejected);
  json::uint(w, "items", s.items);
  json::uint(w, "open_items", open_items);
  w.Key("by_rule");
  w.StartObject();
  for (int i = 0; i < 5; ++i)
    json::uint(w, to_string(static_cast<verdict_rule>(i + 1)), s.by_rule[i]);
  w.EndObject();
  json::uint(w, "judge_calls", s.judge_calls);
  json::uint(w, "calls_skipped", s.calls_skipped);
  json::uint(w, "faults", s.faults);
  // Issue 29: pairs screened, pairs with planted-verdict flags.
  json::uint(w, "screened", s.screened);
  json::uint(w, "flagged", s.flagged);
  if (s.cached > 0) // judge_call records marked cached (absent: none)
    json::uint(w, "cached", s.cached);
  // Where the calls went (core/session/call_route.hpp): sent on to the backend,
  // refused by a circuit breaker, refused at a budget.
  json::uint(w, "calls_sent", s.calls_sent);
  json::uint(w, "calls_refused_breaker", s.calls_refused_breaker);
  json::uint(w, "calls_refused_budget", s.calls_refused_budget);
  // Issue 26: what became of the calls sent (answered, or aborted by a
  // cancel), and those no judge_call record shows (calls_sent counts them).
  json::uint(w, "calls_answered", s.calls_answered);
  json::uint(w, "calls_aborted", s.calls_aborted);
  json::uint(w, "calls_unrecorded", s.calls_unrecorded);
  w.Key("usage");
  w.StartArray();
  for (auto& u : s.usage) {
    w.StartObject();
    json::string(w, "judge", u.judge);
    json::uint(w, "calls", u.calls);
    json::uint(w, "faults", u.faults);
    json::uint(w, "input_tokens", u.input_tokens);
    json::uint(w, "output_tokens", u.output_tokens);
    w.EndObject();
  }
  w.EndArray();
  // Failover: votes moved to another worker of the same judge, and late
  // replies dropped; per host, who served what.
  json::uint(w, "votes_moved", s.votes_moved);
  json::uint(w, "late_replies", s.late_replies);
  w.Key("hosts");
  w.StartArray();
  for (auto& h : s.hosts) {
    w.StartObject();
    json::string(w, "host", h.host);
    json::uint(w, "calls", h.calls);
    json::uint(w, "faults", h.faults);
    json::uint(w, "votes_moved", h.votes_moved);
    json::uint(w, "late_replies", h.late_replies);
    json::uint(w, "lost", h.lost);
    w.EndObject();
  }
  w.EndArray();
  w.Key("unfinished_pairs");
  w.StartArray();
  for (auto& id : unfinished_pairs)
    w.String(id.data(), static_cast<rapidjson::SizeType>(id.size()));
  w.EndArray();
  if (s.panel.enabled)
    panel_fields(w, s.panel);
  if (s.cascade.enabled)
    cascade_fields(w, s.cascade);
  if (!s.spend.empty())
    spend_fields(w, s.spend);
  write_judge_watch(w, s);
  w.EndObject();
  return {sb.GetString(), sb.GetSize()};
}

} // namespace ij
