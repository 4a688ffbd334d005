#include "tools/audit_digest.hpp"

#include "core/agreement.hpp"

#include <algorithm>
#include <map>
#include <string_view>
#include <unordered_map>

#include <rapidjson/document.h>

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

// Pairs whose judge calls came from two or more judges: each judge's
// majority decision on the pair (EQUIVALENT, DIFFERENT, ABSTAIN), compared
// pairwise in a 3x3 table per couple of judges.
class agreement_tally {
public:
  void call(const std::string& pair, const std::string& judge, int decision) {
    if (pair != pair_)
      flush();
    pair_ = pair;
    if (decision < 3)
      ++votes_[judge][static_cast<std::size_t>(decision)];
  }

  void flush() {
    if (votes_.size() >= 2) {
      std::vector<std::pair<std::string, int>> said;
      for (auto& [judge, v] : votes_) {
        auto best = std::max_element(v.begin(), v.end()) - v.begin();
        said.emplace_back(judge, static_cast<int>(best));
      }
      for (std::size_t i = 0; i < said.size(); ++i)
        for (std::size_t j = i + 1; j < said.size(); ++j)
          tables_.try_emplace({said[i].first, said[j].first}, 3)
            .first->second.add(static_cast<std::size_t>(said[i].second),
                               static_cast<std::size_t>(said[j].second));
    }
    votes_.clear();
    pair_.clear();
  }

  std::vector<audit_digest::agreement> result() {
    flush();
    std::vector<audit_digest::agreement> out;
    for (auto& [names, t] : tables_) {
      audit_digest::agreement a;
      a.a = names.first;
      a.b = names.second;
      a.pairs = t.subjects();
      for (std::size_t i = 0; i < 3; ++i)
        a.agree += t.cell(i, i);
      // The same kappa as a panel's (core/agreement); undefined when both
      // judges put every pair in one class.
      if (auto k = t.kappa(0.05); k.defined)
        a.kappa = k.value;
      out.push_back(std::move(a));
    }
    return out;
  }

private:
  std::string pair_;
  std::map<std::string, std::array<std::uint64_t, 3>> votes_;
  std::map<std::pair<std::string, std::string>, cohen_table> tables_;
};

struct reader {
  audit_digest d;
  std::unordered_map<std::string, std::string> judge_of_worker;
  std::unordered_map<std::string, std::string> judge_of_adapter;
  agreement_tally agreement;

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
          }
      if (auto ca = member(*c, "canaries")) {
        d.canary_rate = num(*ca, "rate");
        d.canary_seed = u64(*ca, "seed");
        d.on_alarm = str(*ca, "on_alarm");
      }
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
    j.input_tokens += u64(r, "input_tokens");
    j.output_tokens += u64(r, "output_tokens");
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
    agreement.call(str(r, "pair_id"), name, di);
  }

  void verdict(const Value& r) {
    ++d.pairs;
    auto rule = str(r, "rule");
    if (rule.size() == 2 && rule[0] == 'I' && rule[1] >= '1' && rule[1] <= '5')
      ++d.by_rule[static_cast<std::size_t>(rule[1] - '1')];
    auto label = tri(r, "label");
    if (!label)
      return;
    std::optional<bool> eq;
    if (auto o = member(r, "outcome"))
      eq = tri(*o, "equivalent");
    ++d.labelled;
    ++d.confusion[!eq ? 2 : (*eq ? 0 : 1)][*label ? 0 : 1];
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
    doc.Parse(text.c_str(), text.size());
    if (doc.HasParseError() || !doc.IsObject())
      return;
    ++d.records;
    auto type = str(doc, "type");
    if (type == "manifest")
      manifest(doc);
    else if (type == "judge_call")
      judge_call(doc);
    else if (type == "verdict")
      verdict(doc);
    else if (type == "item_verdict") {
      auto v = str(doc, "verdict");
      ++d.items[v == "INVARIANT" ? 0 : v == "VIOLATED" ? 1 : 2];
    } else if (type == "canary")
      canary(doc);
    else if (type == "bias_alarm")
      alarm(doc);
    else if (type == "run_end")
      run_end(doc);
    else if (type == "rejected")
      ++d.rejected;
    else if (type != "vote")
      other(type);
  }
};

} // namespace

audit_digest digest_audit(std::istream& in) {
  reader r;
  std::string text;
  while (std::getline(in, text))
    r.line(text);
  r.d.agreements = r.agreement.result();
  return std::move(r.d);
}

} // namespace ij
