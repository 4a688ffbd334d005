#include "core/numbers/answer_policy.hpp"

#include "core/config/judge_spec.hpp"
#include "core/numbers/number_text.hpp"
#include "messages/error.hpp"

namespace ij {

namespace {

template <class E, std::size_t N>
std::optional<E> from_string(std::string_view s, const E (&all)[N]) {
  for (E e : all)
    if (to_string(e) == s)
      return e;
  return std::nullopt;
}

constexpr rounding_policy all_rounding[] = {rounding_policy::abstain,
                                            rounding_policy::strict,
                                            rounding_policy::consistent};
constexpr percent_policy all_percent[] = {
  percent_policy::either, percent_policy::fraction, percent_policy::number};
constexpr unit_policy all_units[] = {unit_policy::lenient, unit_policy::strict};
constexpr fraction_policy all_fractions[] = {fraction_policy::any,
                                             fraction_policy::reduced};

} // namespace

bool answer_policy::is_default() const {
  return *this == answer_policy{};
}

bool answer_policy::declares_tolerance() const {
  return relative_tolerance > answer_policy{}.relative_tolerance
         || absolute_tolerance > 0.0;
}

bool operator==(const answer_policy& x, const answer_policy& y) {
  return x.rounding == y.rounding && x.percent == y.percent
         && x.relative_tolerance == y.relative_tolerance
         && x.absolute_tolerance == y.absolute_tolerance && x.units == y.units
         && x.fractions == y.fractions;
}

std::string_view to_string(rounding_policy p) {
  switch (p) {
    case rounding_policy::abstain: return "abstain";
    case rounding_policy::strict: return "strict";
    case rounding_policy::consistent: return "consistent";
  }
  return "abstain";
}

std::string_view to_string(percent_policy p) {
  switch (p) {
    case percent_policy::either: return "either";
    case percent_policy::fraction: return "fraction";
    case percent_policy::number: return "number";
  }
  return "either";
}

std::string_view to_string(unit_policy p) {
  return p == unit_policy::strict ? "strict" : "lenient";
}

std::string_view to_string(fraction_policy p) {
  return p == fraction_policy::reduced ? "reduced" : "any";
}

std::string policy_text(const answer_policy& p) {
  std::string out = "rounding=";
  out.append(to_string(p.rounding)).append(",percent=");
  out.append(to_string(p.percent)).append(",rel=");
  out.append(number_text(p.relative_tolerance)).append(",abs=");
  out.append(number_text(p.absolute_tolerance)).append(",units=");
  out.append(to_string(p.units)).append(",fractions=");
  out.append(to_string(p.fractions));
  return out;
}

caf::error read_answer_policy(const rapidjson::Value& v, answer_policy& into,
                              const std::string& at) {
  auto bad = [&](std::string_view name, const std::string& what) {
    return make_error(errc::bad_config,
                      (name.empty() ? at : at + "/" + std::string{name}) + ": "
                        + what);
  };
  if (!v.IsObject())
    return bad("", "must be an object");
  auto text = [&](const char* name) -> std::optional<std::string_view> {
    auto it = v.FindMember(name);
    if (it == v.MemberEnd() || !it->value.IsString())
      return std::nullopt;
    return std::string_view{it->value.GetString(), it->value.GetStringLength()};
  };
  // The schema names the allowed words; a word it let through that is not
  // one of ours would be a schema bug, reported like a bad value all the same.
  auto pick = [&](const char* name, auto& field,
                  const auto& all) -> caf::error {
    auto s = text(name);
    if (!s)
      return {};
    auto e = from_string(*s, all);
    if (!e)
      return bad(name, "unknown value \"" + std::string{*s} + "\"");
    field = *e;
    return {};
  };
  if (auto e = pick("rounding", into.rounding, all_rounding))
    return e;
  if (auto e = pick("percent", into.percent, all_percent))
    return e;
  if (auto e = pick("units", into.units, all_units))
    return e;
  if (auto e = pick("fractions", into.fractions, all_fractions))
    return e;
  for (auto [name, field] :
       {std::pair{"relative_tolerance", &into.relative_tolerance},
        std::pair{"absolute_tolerance", &into.absolute_tolerance}}) {
    auto it = v.FindMember(name);
    if (it == v.MemberEnd())
      continue;
    if (!it->value.IsNumber())
      return bad(name, "must be a number");
    const double x = it->value.GetDouble();
    if (!(x >= 0.0)
        || (name == std::string_view{"relative_tolerance"} && x >= 1.0))
      return bad(name, name == std::string_view{"relative_tolerance"}
                         ? "must be at least 0 and below 1"
                         : "must be at least 0");
    *field = x;
  }
  return {};
}

void write_answer_policy(rapidjson::Writer<rapidjson::StringBuffer>& w,
                         const answer_policy& p) {
  w.StartObject();
  w.Key("rounding");
  w.String(std::string{to_string(p.rounding)});
  w.Key("percent");
  w.String(std::string{to_string(p.percent)});
  w.Key("relative_tolerance");
  w.Double(p.relative_tolerance);
  w.Key("absolute_tolerance");
  w.Double(p.absolute_tolerance);
  w.Key("units");
  w.String(std::string{to_string(p.units)});
  w.Key("fractions");
  w.String(std::string{to_string(p.fractions)});
  w.EndObject();
}

} // namespace ij
