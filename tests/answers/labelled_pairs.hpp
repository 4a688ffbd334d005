#pragma once
// Labelled answer pairs (one JSON object per line: a, b, equivalent
// true/false/null, and a kind, source, id or lang field) and the tally of a
// judge's decisions on them: what the accuracy, public-evaluation and
// metamorphic tests share.
#include <fstream>
#include <iomanip>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <catch2/catch.hpp>
#include <rapidjson/document.h>

#include "answers/math_rule_judge.hpp"
#include "core/verdicts/judge_response.hpp"
#include "tests/answers/test_budget.hpp"

namespace ij::test {

struct labelled_pair {
  std::string a, b;
  std::optional<bool> equivalent;
  std::string kind; // the field named by load_pairs' kind_field
  std::string note;
  std::string lang;
  std::string id;
};

/// One JSON object per line; throws on a malformed line so that a broken
/// file fails the test rather than shrinking it.
inline std::vector<labelled_pair> load_pairs(const std::string& path,
                                             const char* kind_field) {
  std::ifstream in(path);
  std::vector<labelled_pair> out;
  std::string line;
  int n = 0;
  auto text = [](const rapidjson::Document& d, const char* field) {
    return d.HasMember(field) && d[field].IsString()
             ? std::string{d[field].GetString(), d[field].GetStringLength()}
             : std::string{};
  };
  while (std::getline(in, line)) {
    ++n;
    if (line.empty())
      continue;
    rapidjson::Document d;
    d.Parse(line.c_str(), line.size());
    if (d.HasParseError() || !d.IsObject() || !d.HasMember("a")
        || !d.HasMember("b") || !d["a"].IsString() || !d["b"].IsString()
        || !d.HasMember("equivalent"))
      throw std::runtime_error(path + ":" + std::to_string(n)
                               + ": not a labelled pair");
    labelled_pair p;
    p.a = text(d, "a");
    p.b = text(d, "b");
    const auto& e = d["equivalent"];
    if (e.IsBool())
      p.equivalent = e.GetBool();
    else if (!e.IsNull())
      throw std::runtime_error(path + ":" + std::to_string(n)
                               + ": equivalent is not true/false/null");
    p.kind = text(d, kind_field);
    p.note = text(d, "note");
    p.lang = text(d, "lang");
    p.id = text(d, "id");
    out.push_back(std::move(p));
  }
  return out;
}

inline bool file_exists(const std::string& path) {
  std::ifstream f(path);
  return f.good();
}

/// A reply's decision as a tri-state: EQUIVALENT true, DIFFERENT false,
/// anything else null.
inline std::optional<bool> decision_of(const judge_response& r) {
  if (r.decision == judge_decision::equivalent)
    return true;
  if (r.decision == judge_decision::different)
    return false;
  return std::nullopt;
}

/// rules:math's decision on (a, b), its reply checked to parse cleanly
/// and consistently.
inline std::optional<bool> math_says(std::string_view a, std::string_view b) {
  auto r = parse_judge_response(math_rule_reply(a, b, test_pair_budget));
  INFO(a << " | " << b << "\n" << r.raw);
  REQUIRE(r.parse_error.empty());
  CHECK_FALSE(r.inconsistent);
  return decision_of(r);
}

inline std::string pct(double x) {
  std::ostringstream s;
  s << std::fixed << std::setprecision(1) << 100.0 * x << "%";
  return s.str();
}

/// Coverage is over the pairs a judge should decide (labelled true or
/// false); precision over every decided pair, where a decision on a pair
/// labelled null (the right reply is ABSTAIN) counts as wrong.
struct tally {
  int n = 0, decidable = 0, decided = 0, decided_decidable = 0, right = 0;
  /// Wrong decisions by direction: EQUIVALENT where the label is not true,
  /// DIFFERENT where it is not false.
  int false_equivalent = 0, false_different = 0;
  /// Pairs labelled true / false, and those the judge got right.
  int labelled_true = 0, labelled_false = 0, right_true = 0, right_false = 0;
  void add(std::optional<bool> said, std::optional<bool> truth) {
    ++n;
    decidable += truth.has_value();
    if (truth)
      ++(*truth ? labelled_true : labelled_false);
    if (said) {
      ++decided;
      decided_decidable += truth.has_value();
      if (said == truth)
        ++right, ++(*said ? right_true : right_false);
      else
        (*said ? false_equivalent : false_different) += 1;
    }
  }
  int wrong() const { return decided - right; }
  double coverage() const {
    return decidable ? double(decided_decidable) / decidable : 0;
  }
  double precision() const { return decided ? double(right) / decided : 0; }
  double abstention() const { return decidable ? 1 - coverage() : 0; }
  /// Recall of each label: the share of the pairs labelled true found
  /// EQUIVALENT, of those labelled false found DIFFERENT.
  double recall_equivalent() const {
    return labelled_true ? double(right_true) / labelled_true : 0;
  }
  double recall_different() const {
    return labelled_false ? double(right_false) / labelled_false : 0;
  }
};

} // namespace ij::test
