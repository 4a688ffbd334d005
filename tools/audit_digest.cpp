#include "tools/audit_digest.hpp"

#include <algorithm>
#include <map>
#include <string_view>
#include <unordered_map>

#include <rapidjson/document.h>

#include "core/agreement/agreement.hpp"
#include "core/agreement/cascade_tally.hpp"
#include "core/agreement/panel_rule.hpp"
#include "core/agreement/panel_tally.hpp"
#include "core/audit/audit_record.hpp"
#include "core/calibration/calibration.hpp"
#include "core/numbers/number_text.hpp"

namespace ij {

namespace {

using rapidjson::Value;

const Value* member(const Value& v, const char* name) {
  if (!v.IsObject())
    return nullptr;
  auto it = v.FindMember(name);
  return it == v.MemberEnd() ? nullptr : &it->value;
}

std::string str(const Value& v, const char* name) {
  auto m = member(v, name);
  return m && m->IsString() ? std::string{m->GetString(), m->GetStringLength()}
                            : std::string{};
}

std::uint64_t u64(const Value& v, const char* name) {
  auto m = member(v, name);
  return m && m->IsUint64() ? m->GetUint64() : 0;
}

double num(const Value& v, const char* name) {
  auto m = member(v, name);
  return m && m->IsNumber() ? m->GetDouble() : 0.0;
}

bool flag(const Value& v, const char* name) {
  auto m = member(v, name);
  return m && m->IsBool() && m->GetBool();
}

std::optional<bool> tri(const Value& v, const char* name) {
  auto m = member(v, name);
  if (!m || !m->IsBool())
    return std::nullopt;
  return m->GetBool();
}

int decision_index(std::string_view d) {
  if (d == "EQUIVALENT")
    return 0;
  if (d == "DIFFERENT")
    return 1;
  if (d == "ABSTAIN")
    return 2;
  return 3;
}

// Each couple of judges that answered the same pairs, one Cohen table per
// couple (core/agreement/agreement). Pooled runs: each judge's majority
// decision on a pair (EQUIVALENT, DIFFERENT, ABSTAIN) from its judge calls.
// Panel runs: each judge's outcome (EQUIVALENT, DIFFERENT, NEITHER) on the
// pairs every panel judge rated, the subjects of the panel's own statistics.
// Only pairs with a vote record count: a canary's calls never do.
class agreement_tally {
public:
  explicit agreement_tally(double alpha) : alpha_(alpha) {}

  void add(const std::vector<std::pair<std::string, std::size_t>>& said) {
    for (std::size_t i = 0; i < said.size(); ++i)
      for (std::size_t j = i + 1; j < said.size(); ++j) {
        auto key = std::make_pair(said[i].first, said[j].first);
        if (key.second < key.first)
          key = {said[j].first, said[i].first};
        auto a = key.first == said[i].first ? said[i].second : said[j].second;
        auto b = key.first == said[i].first ? said[j].second : said[i].second;
        tables_.try_emplace(key, 3).first->second.add(a, b);
      }
  }

  /// A pooled pair's judge calls: each judge's majority decision.
  void add_majorities(
    const std::map<std::string, std::array<std::uint64_t, 3>>& votes) {
    if (votes.size() < 2)
      return;
    std::vector<std::pair<std::string, std::size_t>> said;
    for (auto& [judge, v] : votes)
      if (v[0] + v[1] + v[2] > 0)
        said.emplace_back(judge,
                          static_cast<std::size_t>(
                            std::max_element(v.begin(), v.end()) - v.begin()));
    add(said);
  }

  std::vector<audit_digest::agreement> result() const {
    std::vector<audit_digest::agreement> out;
    for (auto& [names, t] : tables_) {
      audit_digest::agreement a;
      a.a = names.first;
      a.b = names.second;
      a.pairs = t.subjects();
      for (std::size_t i = 0; i < 3; ++i)
        a.agree += t.cell(i, i);
      // The same arithmetic as a panel's (core/agreement/agreement).
      a.raw = t.raw_agreement(alpha_);
      a.kappa = t.kappa(alpha_);
      out.push_back(std::move(a));
    }
    return out;
  }

private:
  double alpha_;
  std::map<std::pair<std::string, std::string>, cohen_table> tables_;
};

// The pair being read: its judge calls come first, then its vote record,
// then its verdict (which holds the label). A canary's calls are followed
// by a canary record instead, and are dropped.
struct pending_pair {
  std::string id;
  /// Judge calls: per judge, decisions EQUIVALENT, DIFFERENT, ABSTAIN.
  std::map<std::string, std::array<std::uint64_t, 3>> votes;
  /// Tokens per call, for the cascade's account.
  std::vector<judge_record> records;
  /// The vote record, with a panel's or cascade's parts.
  std::optional<vote_result> vote;

  void reset(const std::string& pair) {
    id = pair;
    votes.clear();
    records.clear();
    vote.reset();
  }
};

equivalence_outcome outcome_of(const Value& r) {
  equivalence_outcome o;
  if (auto m = member(r, "outcome")) {
    o.equivalent = tri(*m, "equivalent");
    o.fault = flag(*m, "fault");
    o.detail = str(*m, "detail");
  }
  return o;
}

vote_counts counts_of(const Value& r) {
  vote_counts c;
  if (auto m = member(r, "counts")) {
    auto u32 = [&](const char* k) {
      return static_cast<std::uint32_t>(u64(*m, k));
    };
    c.votes = u32("votes");
    c.min_agreement = u32("min_agreement");
    c.equivalent = u32("equivalent");
    c.different = u32("different");
    c.abstain = u32("abstain");
    c.parse_error = u32("parse_error");
    c.faults = u32("faults");
    c.not_cast = u32("not_cast");
  }
  return c;
}

struct reader {
  audit_digest d;
  std::unordered_map<std::string, std::string> judge_of_worker;
  std::unordered_map<std::string, std::string> judge_of_adapter;
  agreement_tally agreement{0.05};
  std::optional<panel_config> panel_cfg;
  std::optional<cascade_config> cascade_cfg;
  // The summary's own tallies, made once the manifest is read.
  std::optional<panel_tally> panel;
  std::optional<cascade_tally> cascade;
  pending_pair pending;
  batch_digest batches;

  audit_digest::judge& judge(const std::string& name) {
    auto it = std::find_if(d.judges.begin(), d.judges.end(),
                           [&](auto& j) { return j.name == name; });
    if (it != d.judges.end())
      return *it;
    d.judges.push_back(audit_digest::judge{});
    d.judges.back().name = name;
    return d.judges.back();
  }

  void manifest(const Value& r) {
    d.run_id = str(r, "run_id");
    d.started_at = str(r, "started_at");
    d.version = str(r, "version");
    d.prompt_id = str(r, "prompt_id");
    d.prompt_sha256 = str(r, "prompt_sha256");
    if (auto js = member(r, "judges"); js && js->IsArray())
      for (auto& j : js->GetArray()) {
        auto name = str(j, "name");
        judge_of_worker[str(j, "worker_id")] = name;
        judge_of_adapter[str(j, "adapter_id")] = name;
        judge(name);
      }
    if (auto c = member(r, "config")) {
      d.votes = u64(*c, "votes");
      d.min_agreement = u64(*c, "min_agreement");
      d.order_balancing = flag(*c, "order_balancing");
      // Prices per judge, by name, where the configuration declares them.
      if (auto js = member(*c, "judges"); js && js->IsArray())
        for (auto& j : js->GetArray())
          if (auto p = member(j, "prices")) {
            auto& jd = judge(str(j, "name"));
            if (auto v = member(*p, "input"); v && v->IsNumber())
              jd.price_input = v->GetDouble();
            if (auto v = member(*p, "output"); v && v->IsNumber())
              jd.price_output = v->GetDouble();
            if (auto v = member(*p, "batch_discount"); v && v->IsNumber())
              jd.batch_discount = v->GetDouble();
          }
      if (auto ap = member(*c, "answer_policy"); ap && ap->IsObject())
        for (auto& m : ap->GetObject())
          d.answer_policy +=
            (d.answer_policy.empty() ? "" : ", ")
            + std::string{m.name.GetString()} + " "
            + (m.value.IsString()   ? std::string{m.value.GetString()}
               : m.value.IsNumber() ? number_text(m.value.GetDouble())
                                    : std::string{"?"});
      if (auto ca = member(*c, "canaries")) {
        d.canary_rate = num(*ca, "rate");
        d.canary_seed = u64(*ca, "seed");
        d.on_alarm = str(*ca, "on_alarm");
      }
      if (auto st = member(*c, "statistics"); st && member(*st, "alpha"))
        d.alpha = num(*st, "alpha");
      d.calibration_map = str(*c, "calibration");
      d.calibration_sha256 = str(*c, "calibration_sha256");
      if (auto st = member(*c, "stop"); st && member(*st, "probability"))
        d.stop_probability = num(*st, "probability");
      routes(*c);
    }
    agreement = agreement_tally{d.alpha};
    if (panel_cfg)
      panel.emplace(*panel_cfg, d.alpha);
    if (cascade_cfg)
      cascade.emplace(*cascade_cfg);
  }

  // A panel or a cascade, as the configuration the manifest recorded
  // declares it (core/config/run_config writes it).
  void routes(const Value& c) {
    if (auto p = member(c, "panels")) {
      panel_config pc;
      if (auto js = member(*p, "judges"); js && js->IsArray())
        for (auto& j : js->GetArray())
          if (j.IsString())
            pc.judges.emplace_back(j.GetString(), j.GetStringLength());
      pc.rule =
        panel_rule_from_string(str(*p, "rule")).value_or(panel_rule::unanimous);
      if (pc.judges.size() >= 2)
        panel_cfg = std::move(pc);
    }
    if (auto k = member(c, "cascade")) {
      cascade_config cc;
      cc.rules = str(*k, "rules");
      cc.llm = str(*k, "llm");
      cc.audit_rate = num(*k, "audit_rate");
      cc.seed = u64(*k, "seed");
      cascade_cfg = std::move(cc);
    }
  }

  void judge_call(const Value& r) {
    auto worker = str(r, "worker");
    auto it = judge_of_worker.find(worker);
    std::string name;
    if (it != judge_of_worker.end())
      name = it->second;
    else if (auto a = judge_of_adapter.find(str(r, "adapter_id"));
             a != judge_of_adapter.end())
      name = a->second;
    else
      name = worker.empty() ? str(r, "adapter_id") : worker;
    auto& j = judge(name);
    ++j.calls;
    auto pair = str(r, "pair_id");
    if (pair != pending.id)
      pending.reset(pair);
    judge_record rec;
    rec.input_tokens = u64(r, "input_tokens");
    rec.output_tokens = u64(r, "output_tokens");
    pending.records.push_back(rec);
    j.input_tokens += rec.input_tokens;
    j.output_tokens += rec.output_tokens;
    if (flag(r, "batched")) {
      batches.add_call(pair, static_cast<std::uint32_t>(u64(r, "vote_index")),
                       rec.input_tokens, rec.output_tokens);
      ++j.batched_calls;
      j.batched_input_tokens += rec.input_tokens;
      j.batched_output_tokens += rec.output_tokens;
    }
    if (flag(r, "transport_failed")) {
      ++j.faults;
      return;
    }
    auto di = decision_index(str(r, "decision"));
    ++j.decisions[static_cast<std::size_t>(di)];
    double ms = num(r, "latency_ms");
    std::size_t bin = 0;
    while (bin < std::size(latency_edges_ms) && ms >= latency_edges_ms[bin])
      ++bin;
    ++j.latency[bin];
    if (di < 3)
      ++pending.votes[name][static_cast<std::size_t>(di)];
  }

  void stopped(const std::string& why) {
    if (why.empty())
      return;
    auto it = std::find_if(d.stops.begin(), d.stops.end(),
                           [&](auto& x) { return x.first == why; });
    if (it == d.stops.end())
      d.stops.emplace_back(why, 1);
    else
      ++it->second;
  }

  // A pair's vote record: its judge calls were a pair's, not a canary's.
  void vote(const Value& r) {
    stopped(str(r, "stop"));
    auto pair = str(r, "pair_id");
    if (pair != pending.id)
      pending.reset(pair); // a pair without judge calls (absent, cached)
    auto parts = member(r, "parts");
    if (!parts || !parts->IsArray()) {
      agreement.add_majorities(pending.votes);
      pending.reset({});
      return;
    }
    vote_result vr;
    vr.pair_id = pair;
    vr.absent = flag(r, "absent");
    vr.outcome = outcome_of(r);
    vr.counts = counts_of(r);
    vr.route = str(r, "route");
    vr.records = std::move(pending.records);
    for (auto& p : parts->GetArray())
      vr.parts.push_back(judge_part{str(p, "judge"), str(p, "role"),
                                    outcome_of(p), counts_of(p)});
    pending.vote = std::move(vr);
  }

  // A panel's or a cascade's pair, with its label: into the summary's own
  // tallies, and the panel's couples into the agreement table.
  void routed(const vote_result& vr, std::optional<bool> label) {
    if (panel) {
      panel->add(vr, label);
      std::vector<std::pair<std::string, std::size_t>> said;
      for (auto& p : vr.parts)
        if (auto rating = rating_of(p.outcome))
          said.emplace_back(p.judge, *rating);
      if (!vr.absent && said.size() == panel_cfg->judges.size()
          && said.size() == vr.parts.size())
        agreement.add(said);
    }
    if (cascade)
      cascade->add(vr);
  }

  void verdict(const Value& r) {
    ++d.pairs;
    auto rule = str(r, "rule");
    if (rule.size() == 2 && rule[0] == 'I' && rule[1] >= '1' && rule[1] <= '5')
      ++d.by_rule[static_cast<std::size_t>(rule[1] - '1')];
    auto label = tri(r, "label");
    if (pending.vote && pending.id == str(r, "pair_id"))
      routed(*pending.vote, label);
    pending.reset({});
    if (!label)
      return;
    std::optional<bool> eq;
    if (auto o = member(r, "outcome"))
      eq = tri(*o, "equivalent");
    ++d.labelled;
    ++d.confusion[!eq ? 2 : (*eq ? 0 : 1)][*label ? 0 : 1];
    if (auto p = member(r, "probability");
        p && p->IsNumber() && p->GetDouble() >= 0) {
      auto score = score_pair(p->GetDouble(), *label); // as the run summary
      d.pair_probability.push_back(score.leading);
      d.pair_right.push_back(score.right);
    }
  }

  void canary(const Value& r) {
    audit_digest::canary c;
    c.kind = str(r, "kind");
    c.passed = tri(r, "passed");
    if (auto js = member(r, "judges"); js && js->IsArray())
      for (auto& j : js->GetArray()) {
        c.judges.push_back(str(j, "judge"));
        if (tri(j, "failed") == true)
          c.failed_judges.push_back(str(j, "judge"));
      }
    d.canaries.push_back(std::move(c));
  }

  void alarm(const Value& r) {
    d.alarms.push_back(audit_digest::alarm{
      str(r, "judge"), str(r, "mode"), str(r, "action"), u64(r, "at_canary"),
      u64(r, "failures"), u64(r, "observations"), num(r, "llr"),
      num(r, "threshold")});
  }

  void run_end(const Value& r) {
    d.has_run_end = true;
    d.interrupted = flag(r, "interrupted");
    d.stopped_by_alarm = flag(r, "stopped_by_alarm");
    if (auto pb = member(r, "position_bias"); pb && pb->IsArray())
      for (auto& p : pb->GetArray())
        d.position_bias.push_back(position_bias_rate{
          str(p, "judge"), u64(p, "comparisons"), u64(p, "changed"),
          num(p, "rate"), num(p, "lo"), num(p, "hi")});
  }

  void other(const std::string& type) {
    auto it = std::find_if(d.other_records.begin(), d.other_records.end(),
                           [&](auto& x) { return x.first == type; });
    if (it == d.other_records.end())
      d.other_records.emplace_back(type, 1);
    else
      ++it->second;
  }

  void line(const std::string& text) {
    rapidjson::Document doc;
    doc.Parse<rapidjson::kParseFullPrecisionFlag>(text.c_str(), text.size());
    if (doc.HasParseError() || !doc.IsObject())
      return;
    ++d.records;
    auto type = str(doc, "type");
    auto kind = audit_type_from_string(type);
    if (!kind) {
      other(type); // a type no writer has: counted by its text
      return;
    }
    switch (*kind) {
      case audit_type::manifest: manifest(doc); break;
      case audit_type::judge_call: judge_call(doc); break;
      case audit_type::verdict: verdict(doc); break;
      case audit_type::item_verdict: {
        auto v = str(doc, "verdict");
        ++d.items[v == "INVARIANT" ? 0 : v == "VIOLATED" ? 1 : 2];
        break;
      }
      case audit_type::canary:
        canary(doc);
        pending.reset({}); // its calls were a canary's, not a pair's
        break;
      case audit_type::bias_alarm: alarm(doc); break;
      case audit_type::run_end: run_end(doc); break;
      case audit_type::rejected: ++d.rejected; break;
      case audit_type::vote: vote(doc); break;
      case audit_type::batch: batches.add_batch(doc); break;
      default: other(type); break; // resumed, the run's notes, ...
    }
  }
};

} // namespace

audit_digest digest_audit(std::istream& in) {
  reader r;
  std::string text;
  while (std::getline(in, text))
    r.line(text);
  r.d.agreements = r.agreement.result();
  if (r.panel)
    r.d.panel = r.panel->summary();
  if (r.cascade)
    r.d.cascade = r.cascade->summary();
  r.d.batches = r.batches.rows();
  for (auto& b : r.d.batches) // named as the rest of the page names judges
    if (auto it = r.judge_of_adapter.find(b.judge);
        it != r.judge_of_adapter.end())
      b.judge = it->second;
  return std::move(r.d);
}

} // namespace ij
