#include "tools/labelled_votes.hpp"

#include <string_view>
#include <unordered_map>

#include <rapidjson/document.h>

#include "messages/audit_type.hpp"

namespace ij {

std::string judge_votes::source() const {
  if (without_probs == 0)
    return "decision_probs";
  return with_probs == 0 ? "vote_share" : "mixed";
}

namespace {

using rapidjson::Value;

std::string str(const Value& v, const char* name) {
  auto m = v.FindMember(name);
  return m != v.MemberEnd() && m->value.IsString() ? m->value.GetString() : "";
}

struct call {
  std::string judge;
  judge_decision decision;
  std::vector<double> probs;
};

std::vector<double> probs_of(const Value& r) {
  auto m = r.FindMember("decision_probs");
  if (m == r.MemberEnd() || !m->value.IsObject())
    return {};
  std::vector<double> p;
  for (auto k : {"EQUIVALENT", "DIFFERENT", "ABSTAIN"}) {
    auto f = m->value.FindMember(k);
    if (f == m->value.MemberEnd() || !f->value.IsNumber())
      return {};
    p.push_back(f->value.GetDouble());
  }
  return p;
}

} // namespace

audit_reading read_labelled_votes(std::istream& in, const std::string& name,
                                  labelled_votes& out) {
  audit_reading reading;
  std::unordered_map<std::string, std::string> judge_of_worker;
  std::unordered_map<std::string, std::vector<call>> calls;
  std::vector<std::pair<std::string, bool>> labels;
  std::string line;
  while (std::getline(in, line)) {
    rapidjson::Document r;
    r.Parse<rapidjson::kParseFullPrecisionFlag>(line.data(), line.size());
    if (r.HasParseError() || !r.IsObject())
      continue;
    auto type = audit_type_from_string(str(r, "type"));
    if (type == audit_type::manifest) {
      reading.run_id = str(r, "run_id");
      if (auto js = r.FindMember("judges");
          js != r.MemberEnd() && js->value.IsArray())
        for (auto& j : js->value.GetArray())
          if (j.IsObject())
            judge_of_worker[str(j, "worker_id")] = str(j, "judge_id");
    } else if (type == audit_type::judge_call) {
      auto t = r.FindMember("transport_failed");
      if (t != r.MemberEnd() && t->value.IsBool() && t->value.GetBool())
        continue;
      auto d = str(r, "decision");
      if (d != "EQUIVALENT" && d != "DIFFERENT")
        continue;
      auto w = judge_of_worker.find(str(r, "worker"));
      auto judge =
        w != judge_of_worker.end() ? w->second : str(r, "adapter_id");
      calls[str(r, "pair_id")].push_back({judge,
                                          d == "EQUIVALENT"
                                            ? judge_decision::equivalent
                                            : judge_decision::different,
                                          probs_of(r)});
    } else if (type == audit_type::verdict) {
      ++reading.pairs;
      // An audit without a run id (not this tool's) is a run of its own.
      auto run = reading.run_id.empty() ? "(" + name + ")" : reading.run_id;
      if (!out.counted.emplace(run, str(r, "pair_id")).second) {
        ++reading.repeated;
        continue;
      }
      ++out.pairs;
      auto l = r.FindMember("label");
      if (l != r.MemberEnd() && l->value.IsBool())
        labels.emplace_back(str(r, "pair_id"), l->value.GetBool());
    }
  }
  for (auto& [pair, label] : labels) {
    auto c = calls.find(pair);
    if (c == calls.end())
      continue;
    const auto group = out.labelled_pairs++; // unique across audits
    std::uint32_t eq = 0, diff = 0;
    for (auto& v : c->second)
      (v.decision == judge_decision::equivalent ? eq : diff)++;
    for (auto& v : c->second) {
      auto& jv = out.judges[v.judge];
      (v.probs.empty() ? jv.without_probs : jv.with_probs)++;
      jv.votes.push_back({raw_confidence(v.decision, v.probs, eq, diff),
                          (v.decision == judge_decision::equivalent) == label,
                          group});
    }
  }
  if (!reading.run_id.empty()) {
    auto [first, fresh] = out.first_read_in.emplace(reading.run_id, name);
    if (!fresh)
      reading.read_before_in = first->second;
  }
  return reading;
}

} // namespace ij
