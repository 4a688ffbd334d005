#include "tools/verdict_output.hpp"

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

namespace ij {

namespace {

using writer = rapidjson::Writer<rapidjson::StringBuffer>;

void key_string(writer& w, const char* key, std::string_view value) {
  w.Key(key);
  w.String(value.data(), static_cast<rapidjson::SizeType>(value.size()));
}

void key_uint(writer& w, const char* key, std::uint64_t value) {
  w.Key(key);
  w.Uint64(value);
}

void tri(writer& w, const std::optional<bool>& x) {
  if (x)
    w.Bool(*x);
  else
    w.Null();
}

} // namespace

std::string pair_verdict_line(const single_verdict& v) {
  const auto& label = v.label;
  rapidjson::StringBuffer sb;
  writer w(sb);
  w.StartObject();
  key_string(w, "kind", "pair");
  key_string(w, "id", v.pair_id);
  key_string(w, "item", v.item);
  key_string(w, "verdict", to_string(v.verdict));
  key_string(w, "rule", to_string(v.rule));
  w.Key("equivalent");
  tri(w, v.outcome.equivalent);
  w.Key("confidence");
  w.Double(v.outcome.confidence);
  key_string(w, "detail", v.outcome.detail);
  w.Key("votes");
  w.StartObject();
  key_uint(w, "n", v.counts.votes);
  key_uint(w, "k", v.counts.min_agreement);
  key_uint(w, "equivalent", v.counts.equivalent);
  key_uint(w, "different", v.counts.different);
  key_uint(w, "abstain", v.counts.abstain);
  key_uint(w, "parse_error", v.counts.parse_error);
  key_uint(w, "faults", v.counts.faults);
  key_uint(w, "not_cast", v.counts.not_cast);
  w.EndObject();
  if (label) {
    w.Key("label");
    w.Bool(*label);
  }
  w.EndObject();
  return sb.GetString();
}

std::string item_verdict_line(const statistical_verdict& v) {
  rapidjson::StringBuffer sb;
  writer w(sb);
  w.StartObject();
  key_string(w, "kind", "item");
  key_string(w, "item", v.item);
  key_string(w, "verdict", to_string(v.verdict));
  key_string(w, "rule", to_string(v.rule));
  w.Key("counts");
  w.StartObject();
  key_uint(w, "I1", v.c1);
  key_uint(w, "I2", v.c2);
  key_uint(w, "I3", v.c3);
  key_uint(w, "I4", v.c4);
  key_uint(w, "I5", v.c5);
  w.EndObject();
  key_uint(w, "n", v.n);
  key_uint(w, "decided", v.decided);
  w.Key("p");
  w.Double(v.p);
  w.Key("lo");
  w.Double(v.lo);
  w.Key("hi");
  w.Double(v.hi);
  w.EndObject();
  return sb.GetString();
}

} // namespace ij
