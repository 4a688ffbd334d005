#include "core/verdicts/judge_response.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iterator>

#include <rapidjson/document.h>

#include "core/numbers/exact_number.hpp"
#include "core/text.hpp"

namespace ij {

namespace {

// Plain string_view scanning: a reply is parsed for every judge call, so no
// regex and as few allocations as the result itself needs.

using text::iequals;
using text::is_digit;
using text::trim;
using text::upper;

bool is_emphasis(char c) {
  return c == '*' || c == '`' || c == '_';
}

/// Trims, then strips markdown markup around the value and a trailing period:
/// "** EQUIVALENT**" -> "EQUIVALENT", "`42`." -> "42", "DIFFERENT ##" ->
/// "DIFFERENT" (a closed heading).
std::string_view clean_value(std::string_view v) {
  for (;;) {
    auto before = v.size();
    v = trim(v);
    while (!v.empty() && is_emphasis(v.front()))
      v.remove_prefix(1);
    while (!v.empty()
           && (is_emphasis(v.back()) || v.back() == '.' || v.back() == '#'))
      v.remove_suffix(1);
    if (v.size() == before)
      return v;
  }
}

enum class field_key { decision, reason, numeric_a, numeric_b };

struct field_line {
  field_key key;
  std::string_view value;
};

/// `KEY: value` at line start after optional spaces and `*`/`#` markup (also
/// `_` emphasis and a `-` list bullet); markup may also close the key before
/// the colon ("**DECISION**: ...", "__DECISION__: ...").
std::optional<field_line> read_field(std::string_view line) {
  std::size_t i = 0;
  const std::size_t n = line.size();
  while (i < n
         && (line[i] == ' ' || line[i] == '\t' || line[i] == '*'
             || line[i] == '#' || line[i] == '_' || line[i] == '-'))
    ++i;
  const std::size_t key_start = i;
  while (
    i < n
    && ((upper(line[i]) >= 'A' && upper(line[i]) <= 'Z') || line[i] == '_'))
    ++i;
  auto key = line.substr(key_start, i - key_start);
  while (!key.empty() && key.back() == '_')
    key.remove_suffix(1); // closing "__" emphasis read as part of the key
  field_key k;
  if (iequals(key, "decision"))
    k = field_key::decision;
  else if (iequals(key, "reason"))
    k = field_key::reason;
  else if (iequals(key, "numeric_a"))
    k = field_key::numeric_a;
  else if (iequals(key, "numeric_b"))
    k = field_key::numeric_b;
  else
    return std::nullopt;
  while (i < n && (line[i] == ' ' || line[i] == '\t' || line[i] == '*'))
    ++i;
  if (i == n || line[i] != ':')
    return std::nullopt;
  return field_line{k, clean_value(line.substr(i + 1))};
}

std::optional<judge_decision> decision_word(std::string_view v) {
  if (iequals(v, "equivalent"))
    return judge_decision::equivalent;
  if (iequals(v, "different"))
    return judge_decision::different;
  if (iequals(v, "abstain"))
    return judge_decision::abstain;
  return std::nullopt;
}

parsed_numeric numeric_of(std::string_view v) {
  parsed_numeric out;
  if (v.empty() || iequals(v, "null"))
    return out;
  out.text = std::string{v};
  if (auto n = parse_exact_number(v)) {
    out.value = n->value;
    out.number = std::move(*n);
  }
  return out;
}

/// A JSON value as a field's text: a string as it is, a number as written,
/// null as "NULL" (the lines' spelling), anything else unusable ("").
std::string json_field_text(const rapidjson::Value& v) {
  if (v.IsString())
    return {v.GetString(), v.GetStringLength()};
  if (v.IsNull())
    return "NULL";
  if (v.IsInt64())
    return std::to_string(v.GetInt64());
  if (v.IsUint64())
    return std::to_string(v.GetUint64());
  if (v.IsDouble()) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.17g", v.GetDouble());
    return buf;
  }
  return {};
}

/// A constrained reply of the four fields as a JSON object ({"decision":
/// ..., "reason": ..., "numeric_a": ..., "numeric_b": ...}) rewritten as
/// the four lines, so that one parser reads both; nullopt when `raw` is not
/// such an object. Line breaks inside a value become spaces (a line is a
/// field); members other than the four make extra_text.
std::optional<std::string> json_reply_as_lines(std::string_view raw,
                                               bool& extra) {
  auto body = trim(raw);
  if (body.size() < 2 || body.front() != '{' || body.back() != '}')
    return std::nullopt;
  rapidjson::Document doc;
  doc.Parse(body.data(), body.size());
  if (doc.HasParseError() || !doc.IsObject() || !doc.HasMember("decision"))
    return std::nullopt;
  static constexpr const char* keys[][2] = {{"decision", "DECISION"},
                                            {"reason", "REASON"},
                                            {"numeric_a", "NUMERIC_A"},
                                            {"numeric_b", "NUMERIC_B"}};
  // Every member, a repeated one too: an object with two "decision"
  // members becomes two DECISION lines, a PARSE_ERROR (fails closed, as
  // the lines do; FindMember would read only the first).
  std::string lines;
  std::size_t known = 0;
  for (auto& [key, label] : keys)
    for (auto it = doc.MemberBegin(); it != doc.MemberEnd(); ++it) {
      if (std::string_view{it->name.GetString(), it->name.GetStringLength()}
          != key)
        continue;
      ++known;
      auto value = json_field_text(it->value);
      std::replace(value.begin(), value.end(), '\n', ' ');
      std::replace(value.begin(), value.end(), '\r', ' ');
      lines += std::string{label} + ": " + value + "\n";
    }
  extra = doc.MemberCount() > known;
  return lines;
}

judge_response parse_lines(std::string_view raw);

} // namespace

judge_response parse_judge_response(std::string_view raw) {
  bool extra = false;
  if (auto lines = json_reply_as_lines(raw, extra)) {
    auto r = parse_lines(*lines);
    r.raw = std::string{raw};
    r.extra_text = r.extra_text || extra;
    return r;
  }
  auto r = parse_lines(raw);
  r.raw = std::string{raw};
  return r;
}

namespace {

judge_response parse_lines(std::string_view raw) {
  judge_response r;

  std::optional<judge_decision> decision;
  std::string_view first_decision_value;
  bool seen_decision = false;
  bool seen_reason = false, seen_a = false, seen_b = false;

  std::size_t pos = 0;
  while (pos <= raw.size()) {
    auto eol = raw.find('\n', pos);
    if (eol == std::string_view::npos)
      eol = raw.size();
    auto line = raw.substr(pos, eol - pos);
    pos = eol + 1;
    auto f = read_field(line);
    if (!f) {
      if (!trim(line).empty())
        r.extra_text = true;
      continue;
    }
    switch (f->key) {
      case field_key::decision: {
        if (!r.parse_error.empty())
          break; // the first reason for the error stands
        auto word = decision_word(f->value);
        if (!word) {
          r.parse_error = "DECISION value \"" + std::string{f->value}
                          + "\" is not one of EQUIVALENT, DIFFERENT, ABSTAIN";
          if (f->value.find('|') != std::string_view::npos)
            r.parse_error += " (the template's choice line was echoed)";
        } else if (seen_decision && *word != *decision) {
          r.parse_error = "conflicting DECISION values \""
                          + std::string{first_decision_value} + "\" and \""
                          + std::string{f->value} + "\"";
        } else if (seen_decision) {
          // Fails closed (issue 29): a second DECISION line, even one that
          // agrees, may be an answer's planted line the judge echoed.
          r.parse_error = "more than one DECISION line (\""
                          + std::string{first_decision_value} + "\" twice)";
        } else {
          decision = word;
          first_decision_value = f->value;
        }
        seen_decision = true;
        break;
      }
      case field_key::reason:
        // The first occurrence of a field wins; repeats are ignored.
        if (!seen_reason)
          r.reason = std::string{f->value};
        seen_reason = true;
        break;
      case field_key::numeric_a:
        if (!seen_a)
          r.numeric_a = numeric_of(f->value);
        seen_a = true;
        break;
      case field_key::numeric_b:
        if (!seen_b)
          r.numeric_b = numeric_of(f->value);
        seen_b = true;
        break;
    }
  }

  if (!seen_decision)
    r.parse_error =
      trim(raw).empty() ? "empty reply" : "no DECISION line in the reply";
  if (!r.parse_error.empty()) {
    r.decision = judge_decision::parse_error;
    return r;
  }
  r.decision = *decision;
  // The rule judges' own comparison: exact where both numbers are.
  const auto& x = r.numeric_a.number;
  const auto& y = r.numeric_b.number;
  if (x && y) {
    bool same = same_value(*x, *y);
    r.inconsistent = (r.decision == judge_decision::equivalent && !same)
                     || (r.decision == judge_decision::different && same);
  }
  return r;
}

} // namespace

} // namespace ij
