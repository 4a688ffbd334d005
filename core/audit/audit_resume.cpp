#include "core/audit/audit_resume.hpp"

#include <functional>
#include <iterator>
#include <optional>
#include <utility>
#include <vector>

#include <rapidjson/document.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include "core/audit/audit_record.hpp"
#include "core/audit/canary_records.hpp"
#include "core/json_fields.hpp"
#include "core/session/call_route.hpp"
#include "core/sha256.hpp"
#include "messages/fault_kind.hpp"

namespace ij {

namespace {

using rapidjson::Value;

std::string_view str(const Value& obj, const char* name) {
  auto it = obj.FindMember(name);
  if (it == obj.MemberEnd() || !it->value.IsString())
    return {};
  return {it->value.GetString(), it->value.GetStringLength()};
}

std::uint64_t u64(const Value& obj, const char* name) {
  auto it = obj.FindMember(name);
  return it != obj.MemberEnd() && it->value.IsUint64() ? it->value.GetUint64()
                                                       : 0;
}

bool flag(const Value& obj, const char* name) {
  auto it = obj.FindMember(name);
  return it != obj.MemberEnd() && it->value.IsBool() && it->value.GetBool();
}

// Removes null and empty-string members, at every depth.
void drop_unset(Value& v) {
  if (v.IsArray()) {
    for (auto& x : v.GetArray())
      drop_unset(x);
    return;
  }
  if (!v.IsObject())
    return;
  for (auto m = v.MemberBegin(); m != v.MemberEnd();) {
    if (m->value.IsNull()
        || (m->value.IsString() && m->value.GetStringLength() == 0)) {
      m = v.EraseMember(m);
      continue;
    }
    drop_unset(m->value);
    ++m;
  }
}

// A type no writer has (nullopt) ends nothing and is passed over.
bool ends_pair_or_run(std::optional<audit_type> type) {
  return type != audit_type::judge_call && type != audit_type::vote;
}

/// Adds the kept records to the totals, in the order the logger wrote them.
class reader {
public:
  explicit reader(resume_point& p) : p_(p) {
    p_.totals.faults_by_kind.assign(std::size(all_fault_kinds), 0);
  }

  caf::error add(audit_type type, const Value& r) {
    switch (type) {
      case audit_type::manifest: return manifest(r);
      case audit_type::judge_call: judge_call(r); break;
      case audit_type::vote: vote(r); break;
      case audit_type::verdict: return verdict(r);
      case audit_type::canary: canary(r); break;
      case audit_type::item_verdict:
        p_.closed_items.emplace(str(r, "item"));
        ++p_.totals.items;
        break;
      case audit_type::rejected:
        p_.rejected_lines.insert(u64(r, "line"));
        ++p_.totals.rejected;
        break;
      case audit_type::resumed: ++p_.resumes; break;
      case audit_type::run_end: run_end(r); break;
      case audit_type::batch: {
        auto b = read_batch_body(r);
        if (!b)
          return make_error(errc::bad_input,
                            "a batch record lacks its step, judge or key");
        p_.batches.push_back(std::move(*b));
        break;
      }
      default: break; // the run's notes, canary alarms: nothing to resume
    }
    return {};
  }

private:
  caf::error manifest(const Value& r) {
    p_.run_id = std::string{str(r, "run_id")};
    auto cfg = r.FindMember("config");
    if (cfg == r.MemberEnd() || !cfg->value.IsObject())
      return make_error(errc::bad_input, "the manifest holds no configuration");
    // The manifest writes every setting, unset ones as null or "", and
    // where the values came from; as a configuration those are left out.
    rapidjson::Document copy;
    copy.CopyFrom(cfg->value, copy.GetAllocator());
    copy.RemoveMember("source");
    drop_unset(copy);
    rapidjson::StringBuffer sb;
    rapidjson::Writer<rapidjson::StringBuffer> w(sb);
    copy.Accept(w);
    p_.config_json.assign(sb.GetString(), sb.GetSize());
    auto judges = r.FindMember("judges");
    if (judges != r.MemberEnd() && judges->value.IsArray())
      for (auto& j : judges->value.GetArray())
        if (j.IsObject())
          names_.emplace(std::string{str(j, "adapter_id")},
                         std::string{str(j, "name")});
    return {};
  }

  void judge_call(const Value& r) {
    auto& t = p_.totals;
    std::string adapter{str(r, "adapter_id")};
    auto named = names_.find(adapter);
    const std::string& name =
      named != names_.end() && !named->second.empty() ? named->second : adapter;
    auto u = usage_.find(name);
    if (u == usage_.end()) {
      u = usage_.emplace(name, t.usage.size()).first;
      t.usage.push_back(judge_usage{name, 0, 0, 0, 0});
    }
    auto& usage = t.usage[u->second];
    bool failed = flag(r, "transport_failed");
    ++t.judge_calls;
    t.cached += flag(r, "cached");
    auto kind = fault_kind_from_string(str(r, "fault_kind"));
    call_facts facts{
      flag(r, "cached"), str(r, "refused_by") == refused_by_breaker_text,
      kind.value_or(fault_kind::none), !str(r, "worker").empty()};
    switch (route_of(facts)) {
      case call_route::sent:
        ++t.calls_sent;
        ++t.calls_answered;
        break;
      case call_route::refused_breaker: ++t.calls_refused_breaker; break;
      case call_route::refused_budget: ++t.calls_refused_budget; break;
      default: break;
    }
    ++usage.calls;
    usage.input_tokens += u64(r, "input_tokens");
    usage.output_tokens += u64(r, "output_tokens");
    if (flag(r, "batched")) {
      usage.batched_input_tokens += u64(r, "input_tokens");
      usage.batched_output_tokens += u64(r, "output_tokens");
    }
    if (kind != fault_kind::budget) {
      auto& spent = p_.spent[name];
      ++spent.calls;
      spent.input_tokens += u64(r, "input_tokens");
      spent.output_tokens += u64(r, "output_tokens");
      if (flag(r, "batched")) {
        spent.batched_input_tokens += u64(r, "input_tokens");
        spent.batched_output_tokens += u64(r, "output_tokens");
      }
    }
    if (failed) {
      ++t.faults;
      ++usage.faults;
      if (auto k = fault_kind_from_string(str(r, "fault_kind")))
        ++t.faults_by_kind[static_cast<std::size_t>(*k)];
    }
  }

  // An interrupted run's end (the run resumes after it): its counts of the
  // calls no record shows (issue 26) are the file's so far, so its call
  // counts are taken whole; records after it add to them.
  void run_end(const Value& r) {
    auto& t = p_.totals;
    if (!r.HasMember("calls_unrecorded"))
      return; // written before issue 26: the records' counts stand
    t.calls_sent = u64(r, "calls_sent");
    t.calls_answered = u64(r, "calls_answered");
    t.calls_aborted = u64(r, "calls_aborted");
    t.calls_unrecorded = u64(r, "calls_unrecorded");
  }

  // A canary record stands for its vote (its judge calls precede it): it
  // counts in canaries and its votes not cast in calls_skipped, never in
  // pairs.
  void canary(const Value& r) {
    p_.canaries.emplace(str(r, "canary_id"));
    ++p_.totals.canaries;
    auto c = r.FindMember("counts");
    if (c != r.MemberEnd() && c->value.IsObject())
      p_.totals.calls_skipped += u64(c->value, "not_cast");
  }

  // The vote record precedes its pair's verdict record.
  void vote(const Value& r) {
    answers_ = answers_fingerprint(str(r, "a"), str(r, "b"));
    counts_ = vote_counts{};
    auto c = r.FindMember("counts");
    if (c == r.MemberEnd() || !c->value.IsObject())
      return;
    auto& v = c->value;
    auto n = [&](const char* name) {
      return static_cast<std::uint32_t>(u64(v, name));
    };
    counts_ = vote_counts{n("votes"),     n("min_agreement"), n("equivalent"),
                          n("different"), n("abstain"),       n("parse_error"),
                          n("faults"),    n("not_cast")};
    p_.totals.calls_skipped += counts_.not_cast;
    p_.totals.screened += r.HasMember("screened") ? 1 : 0;
    p_.totals.flagged += r.HasMember("flags") ? 1 : 0;
  }

  static std::optional<bool> tri(const Value& obj, const char* name) {
    auto it = obj.FindMember(name);
    if (it == obj.MemberEnd() || !it->value.IsBool())
      return std::nullopt;
    return it->value.GetBool();
  }

  caf::error verdict(const Value& r) {
    auto rule = str(r, "rule");
    if (rule.size() != 2 || rule[0] != 'I' || rule[1] < '1' || rule[1] > '5')
      return make_error(errc::bad_input, "a verdict record lacks its rule");
    auto n = rule[1] - '0';
    ++p_.totals.pairs;
    ++p_.totals.by_rule[n - 1];
    single_verdict v;
    v.pair_id = std::string{str(r, "pair_id")};
    v.item = std::string{str(r, "item")};
    v.verdict = verdict_kind_from_string(str(r, "verdict"))
                  .value_or(verdict_kind::neither);
    v.rule = static_cast<verdict_rule>(n);
    auto o = r.FindMember("outcome");
    if (o != r.MemberEnd() && o->value.IsObject()) {
      auto& ov = o->value;
      v.outcome.equivalent = tri(ov, "equivalent");
      auto conf = ov.FindMember("confidence");
      if (conf != ov.MemberEnd() && conf->value.IsNumber())
        v.outcome.confidence = conf->value.GetDouble();
      v.outcome.detail = std::string{str(ov, "detail")};
      v.outcome.fault = flag(ov, "fault");
    }
    // The calibrated probability, when the run had a map (issue 16).
    if (auto pr = r.FindMember("probability");
        pr != r.MemberEnd() && pr->value.IsNumber())
      v.outcome.probability = pr->value.GetDouble();
    v.counts = counts_;
    v.label = tri(r, "label");
    auto id = v.pair_id;
    if (answers_)
      p_.answers[id] = *answers_;
    answers_.reset();
    p_.pairs[id] = std::move(v);
    return {};
  }

  resume_point& p_;
  std::unordered_map<std::string, std::string> names_; // adapter id -> name
  std::unordered_map<std::string, std::size_t> usage_; // name -> index
  vote_counts counts_;                                 // the last vote's
  std::optional<std::uint64_t> answers_;               // the last vote's
};

} // namespace

std::uint64_t answers_fingerprint(std::string_view a, std::string_view b) {
  std::hash<std::string_view> h;
  return h(a) * 0x9e3779b97f4a7c15ULL ^ h(b);
}

caf::expected<resume_point> read_resume_point(std::istream& in) {
  resume_point p;
  reader add{p};
  std::string line;
  std::string hash{audit_genesis_hash};
  // Lines after the last committed one (an undecided pair's judge calls),
  // applied once its verdict follows.
  std::vector<std::string> tail;
  std::uint64_t offset = 0, n = 0;
  std::optional<audit_type> last_type;
  bool interrupted = false;
  auto apply = [&](const std::string& text,
                   std::optional<audit_type>& type) -> caf::error {
    rapidjson::Document doc;
    doc.Parse(text.data(), text.size());
    if (doc.HasParseError() || !doc.IsObject())
      return make_error(errc::bad_input,
                        "line " + std::to_string(n) + " is not a JSON object");
    type = audit_type_from_string(str(doc, "type"));
    if (type == audit_type::run_end)
      interrupted = flag(doc, "interrupted");
    return type ? add.add(*type, doc) : caf::error{};
  };
  while (std::getline(in, line)) {
    if (in.eof()) { // no newline: a torn last line
      p.torn = !line.empty();
      break;
    }
    ++n;
    offset += line.size() + 1;
    rapidjson::Document doc;
    doc.Parse(line.data(), line.size());
    auto type =
      doc.IsObject() ? audit_type_from_string(str(doc, "type")) : std::nullopt;
    if (!ends_pair_or_run(type)) {
      tail.push_back(line);
      continue;
    }
    for (auto& t : tail) {
      std::optional<audit_type> ignored;
      if (auto err = apply(t, ignored))
        return err;
    }
    tail.clear();
    if (auto err = apply(line, last_type))
      return err;
    p.seq = n;
    p.keep_bytes = offset;
    hash = sha256_hex(line);
  }
  if (p.seq == 0 || p.config_json.empty())
    return make_error(errc::bad_input, "the audit holds no run manifest: "
                                       "there is no run to resume");
  if (last_type == audit_type::run_end && !interrupted)
    return make_error(errc::bad_input,
                      "the run finished (its run_end record is not marked "
                      "interrupted): there is nothing to resume");
  p.after_run_end = last_type == audit_type::run_end;
  p.last_hash = hash;
  p.cut_lines = tail.size();
  std::string cut;
  for (auto& t : tail)
    cut += t + '\n';
  if (p.torn)
    cut += line;
  p.cut_bytes = cut.size();
  if (!cut.empty())
    p.cut_sha256 = sha256_hex(cut);
  return p;
}

std::string resumed_body(const resume_point& p, std::int64_t now_ms) {
  rapidjson::StringBuffer sb;
  rapidjson::Writer<rapidjson::StringBuffer> w(sb);
  w.StartObject();
  json::string(w, "run_id", p.run_id);
  json::string(w, "resumed_at", iso8601_utc(now_ms));
  json::uint(w, "after_seq", p.seq);
  json::string(w, "after",
               p.after_run_end ? "interrupted run_end"
                               : "the run stopped without an end");
  json::uint(w, "decided_pairs", p.pairs.size());
  json::uint(w, "cut_bytes", p.cut_bytes);
  json::uint(w, "cut_lines", p.cut_lines);
  json::boolean(w, "torn_line", p.torn);
  json::string_or_null(w, "cut_sha256", p.cut_sha256);
  json::uint(w, "resume", p.resumes + 1);
  w.EndObject();
  return {sb.GetString(), sb.GetSize()};
}

} // namespace ij
