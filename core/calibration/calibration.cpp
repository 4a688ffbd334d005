#include "core/calibration/calibration.hpp"

#include <algorithm>
#include <cmath>
#include <random>

#include <rapidjson/document.h>
#include <rapidjson/error/en.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include "core/config/backend_kinds.hpp"
#include "core/json_fields.hpp"
#include "core/sha256.hpp"

namespace ij {

namespace {

using json_writer = rapidjson::Writer<rapidjson::StringBuffer>;

double clamp01(double x) {
  return std::isfinite(x) ? std::min(1.0, std::max(0.0, x)) : 0.5;
}

} // namespace

double calibration_map::apply(double x) const {
  if (raw.empty())
    return 0.5;
  if (x <= raw.front())
    return calibrated.front();
  if (x >= raw.back())
    return calibrated.back();
  auto i = static_cast<std::size_t>(std::upper_bound(raw.begin(), raw.end(), x)
                                    - raw.begin());
  double x0 = raw[i - 1], x1 = raw[i];
  double y0 = calibrated[i - 1], y1 = calibrated[i];
  if (x1 <= x0)
    return y1;
  return y0 + (y1 - y0) * (x - x0) / (x1 - x0);
}

const calibration_map* calibration_set::find(const std::string& id) const {
  auto i = judges.find(id);
  return i == judges.end() ? nullptr : &i->second.map;
}

// --- Isotonic regression
// ------------------------------------------------------

calibration_map fit_isotonic(const std::vector<labelled_vote>& votes) {
  struct block {
    double sum;
    double weight;
    double lo;
    double hi;
  };
  std::vector<std::pair<double, bool>> pts;
  pts.reserve(votes.size());
  for (auto& v : votes)
    pts.emplace_back(clamp01(v.confidence), v.right);
  std::sort(pts.begin(), pts.end());
  std::vector<block> stack;
  for (std::size_t i = 0; i < pts.size();) {
    // Equal confidences are one point: a map cannot tell them apart.
    block b{0.0, 0.0, pts[i].first, pts[i].first};
    for (; i < pts.size() && pts[i].first == b.lo; ++i) {
      b.sum += pts[i].second ? 1.0 : 0.0;
      b.weight += 1.0;
    }
    stack.push_back(b);
    // Pool adjacent violators: a block above whose mean is lower merges.
    while (stack.size() >= 2) {
      auto& prev = stack[stack.size() - 2];
      auto& last = stack.back();
      if (prev.sum * last.weight <= last.sum * prev.weight)
        break;
      prev.sum += last.sum;
      prev.weight += last.weight;
      prev.hi = last.hi;
      stack.pop_back();
    }
  }
  calibration_map m;
  const double n = static_cast<double>(std::max<std::size_t>(pts.size(), 1));
  const double floor = 1.0 / (2.0 * n);
  for (auto& b : stack) {
    double y = std::min(1.0 - floor, std::max(floor, b.sum / b.weight));
    m.raw.push_back(b.lo);
    m.calibrated.push_back(y);
    if (b.hi > b.lo) {
      m.raw.push_back(b.hi);
      m.calibrated.push_back(y);
    }
  }
  return m;
}

// --- Quality
// ------------------------------------------------------------------

double expected_calibration_error(const std::vector<double>& p,
                                  const std::vector<bool>& right,
                                  unsigned bins) {
  if (p.empty() || bins == 0)
    return 0.0;
  std::vector<double> conf(bins, 0.0), acc(bins, 0.0), count(bins, 0.0);
  for (std::size_t i = 0; i < p.size(); ++i) {
    auto x = clamp01(p[i]);
    auto b =
      std::min<std::size_t>(bins - 1, static_cast<std::size_t>(x * bins));
    conf[b] += x;
    acc[b] += right[i] ? 1.0 : 0.0;
    count[b] += 1.0;
  }
  double ece = 0.0;
  for (unsigned b = 0; b < bins; ++b)
    if (count[b] > 0)
      ece += std::fabs(conf[b] - acc[b]) / static_cast<double>(p.size());
  return ece;
}

double brier_score(const std::vector<double>& p,
                   const std::vector<bool>& right) {
  if (p.empty())
    return 0.0;
  double s = 0.0;
  for (std::size_t i = 0; i < p.size(); ++i) {
    double d = clamp01(p[i]) - (right[i] ? 1.0 : 0.0);
    s += d * d;
  }
  return s / static_cast<double>(p.size());
}

double log_loss(const std::vector<double>& p, const std::vector<bool>& right) {
  if (p.empty())
    return 0.0;
  constexpr double eps = 1e-6;
  double s = 0.0;
  for (std::size_t i = 0; i < p.size(); ++i) {
    double x = std::min(1.0 - eps, std::max(eps, clamp01(p[i])));
    s -= right[i] ? std::log(x) : std::log(1.0 - x);
  }
  return s / static_cast<double>(p.size());
}

namespace {

struct metric_set {
  double ece, brier, loss;
};

metric_set measure(const std::vector<double>& p, const std::vector<bool>& r) {
  return {expected_calibration_error(p, r), brier_score(p, r), log_loss(p, r)};
}

double percentile(std::vector<double> xs, double q) {
  if (xs.empty())
    return 0.0;
  std::sort(xs.begin(), xs.end());
  auto i =
    static_cast<std::size_t>(q * static_cast<double>(xs.size() - 1) + 0.5);
  return xs[std::min(i, xs.size() - 1)];
}

// Seeded and the same on every platform: mt19937_64 is specified bit for
// bit, and indices are drawn by modulo (distributions are not portable).
std::size_t draw(std::mt19937_64& rng, std::size_t n) {
  return static_cast<std::size_t>(rng() % n);
}

// Raw and calibrated metrics with bootstrap intervals over whole groups.
void bootstrap(const std::vector<std::vector<std::size_t>>& groups,
               const std::vector<double>& raw, const std::vector<double>& cal,
               const std::vector<bool>& right, const fit_options& opts,
               calibration_fit& fit) {
  std::mt19937_64 rng(opts.seed ^ 0x9e3779b97f4a7c15ull);
  std::vector<std::vector<double>> r(3), c(3);
  std::vector<double> pr, pc;
  std::vector<bool> ok;
  for (unsigned b = 0; b < opts.bootstrap; ++b) {
    pr.clear();
    pc.clear();
    ok.clear();
    for (std::size_t g = 0; g < groups.size(); ++g)
      for (auto i : groups[draw(rng, groups.size())]) {
        pr.push_back(raw[i]);
        pc.push_back(cal[i]);
        ok.push_back(right[i]);
      }
    auto mr = measure(pr, ok);
    auto mc = measure(pc, ok);
    r[0].push_back(mr.ece), r[1].push_back(mr.brier), r[2].push_back(mr.loss);
    c[0].push_back(mc.ece), c[1].push_back(mc.brier), c[2].push_back(mc.loss);
  }
  auto mr = measure(raw, right);
  auto mc = measure(cal, right);
  auto set = [&](estimate& e, double v, const std::vector<double>& xs) {
    e.value = v;
    e.lo = xs.empty() ? v : percentile(xs, 0.025);
    e.hi = xs.empty() ? v : percentile(xs, 0.975);
  };
  set(fit.raw.ece, mr.ece, r[0]);
  set(fit.raw.brier, mr.brier, r[1]);
  set(fit.raw.log_loss, mr.loss, r[2]);
  set(fit.calibrated.ece, mc.ece, c[0]);
  set(fit.calibrated.brier, mc.brier, c[1]);
  set(fit.calibrated.log_loss, mc.loss, c[2]);
}

} // namespace

namespace {

std::vector<std::vector<std::size_t>>
groups_of(const std::vector<labelled_vote>& votes) {
  std::map<std::uint64_t, std::size_t> index;
  std::vector<std::vector<std::size_t>> groups;
  for (std::size_t i = 0; i < votes.size(); ++i) {
    auto [it, fresh] = index.emplace(votes[i].group, groups.size());
    if (fresh)
      groups.emplace_back();
    groups[it->second].push_back(i);
  }
  return groups;
}

} // namespace

std::vector<double> cross_validated(const std::vector<labelled_vote>& votes,
                                    unsigned requested, std::uint64_t seed) {
  auto groups = groups_of(votes);
  std::vector<double> cal(votes.size(), 0.5);
  if (groups.size() < 2)
    return cal;
  const unsigned folds = std::max(
    2u, std::min<unsigned>(requested, static_cast<unsigned>(groups.size())));
  // Seeded shuffle of the groups, then fold = position mod folds.
  std::vector<std::size_t> order(groups.size());
  for (std::size_t i = 0; i < order.size(); ++i)
    order[i] = i;
  std::mt19937_64 rng(seed);
  for (std::size_t i = order.size(); i > 1; --i)
    std::swap(order[i - 1], order[draw(rng, i)]);
  std::vector<unsigned> fold_of(votes.size());
  for (std::size_t pos = 0; pos < order.size(); ++pos)
    for (auto i : groups[order[pos]])
      fold_of[i] = static_cast<unsigned>(pos % folds);
  std::vector<labelled_vote> train;
  for (unsigned f = 0; f < folds; ++f) {
    train.clear();
    for (std::size_t i = 0; i < votes.size(); ++i)
      if (fold_of[i] != f)
        train.push_back(votes[i]);
    auto m = fit_isotonic(train);
    for (std::size_t i = 0; i < votes.size(); ++i)
      if (fold_of[i] == f)
        cal[i] = m.apply(clamp01(votes[i].confidence));
  }
  return cal;
}

caf::expected<calibration_fit>
fit_calibration(const std::string& judge_id, const std::string& source,
                const std::vector<labelled_vote>& votes,
                const fit_options& opts) {
  auto groups = groups_of(votes);
  const auto need = std::max<std::uint64_t>(opts.min_pairs, 2);
  if (groups.size() < need)
    return make_error(errc::bad_input,
                      "judge " + judge_id + ": " + std::to_string(groups.size())
                        + " labelled pair(s) with an EQUIVALENT or DIFFERENT "
                          "vote ("
                        + std::to_string(votes.size())
                        + " vote(s)); a calibration map needs at least "
                        + std::to_string(need));
  auto cal = cross_validated(votes, opts.folds, opts.seed);
  std::vector<double> raw(votes.size());
  std::vector<bool> right(votes.size());
  for (std::size_t i = 0; i < votes.size(); ++i) {
    raw[i] = clamp01(votes[i].confidence);
    right[i] = votes[i].right;
  }
  calibration_fit fit;
  fit.map = fit_isotonic(votes);
  fit.map.judge_id = judge_id;
  fit.map.source = source;
  fit.pairs = groups.size();
  fit.votes = votes.size();
  bootstrap(groups, raw, cal, right, opts, fit);
  return fit;
}

// --- A pair's probability
// -----------------------------------------------------

double raw_confidence(judge_decision decision, const std::vector<double>& probs,
                      std::uint32_t equivalent, std::uint32_t different) {
  const bool eq = decision == judge_decision::equivalent;
  if (probs.size() == 3)
    return clamp01(probs[eq ? 0 : 1]);
  const auto counted = equivalent + different;
  if (counted == 0)
    return 0.5;
  return static_cast<double>(eq ? equivalent : different) / counted;
}

std::optional<double>
equivalence_probability(const std::vector<vote_evidence>& votes) {
  std::uint32_t eq = 0, diff = 0;
  for (auto& v : votes) {
    eq += v.decision == judge_decision::equivalent;
    diff += v.decision == judge_decision::different;
  }
  double log_odds = 0.0;
  bool any = false;
  for (auto& v : votes) {
    if (!v.map
        || (v.decision != judge_decision::equivalent
            && v.decision != judge_decision::different))
      continue;
    double p =
      v.map->apply(raw_confidence(v.decision, v.decision_probs, eq, diff));
    p = std::min(1.0 - 1e-12, std::max(1e-12, p));
    double l = std::log(p / (1.0 - p));
    log_odds += v.decision == judge_decision::equivalent ? l : -l;
    any = true;
  }
  if (!any)
    return std::nullopt;
  return 1.0 / (1.0 + std::exp(-log_odds));
}

pair_score score_pair(double p, bool label) {
  return {p >= 0.5 ? p : 1.0 - p, (p >= 0.5) == label};
}

// --- Which confidence a judge gives
// -------------------------------------------

std::string_view confidence_source(const judge_spec& spec) {
  auto kind = find_backend_kind(spec.type);
  if (kind && kind->model_gives_probs && kind->model_gives_probs(spec.model))
    return "decision_probs";
  if (kind && kind->http && spec.logprobs)
    return "decision_probs";
  return "vote_share";
}

bool source_fits(std::string_view map_source, std::string_view judge_source) {
  return map_source == judge_source
         || (map_source == "mixed" && judge_source == "decision_probs");
}

std::string source_words(std::string_view source) {
  if (source == "decision_probs")
    return "decision log-probabilities";
  if (source == "vote_share")
    return "vote shares";
  if (source == "mixed")
    return "decision log-probabilities and vote shares (mixed)";
  return "\"" + std::string{source} + "\"";
}

// --- The map file
// ---------------------------------------------------------------

namespace {

void write_estimate(json_writer& w, const char* name, const estimate& e) {
  w.Key(name);
  w.StartObject();
  json::number(w, "value", e.value);
  json::number(w, "lo", e.lo);
  json::number(w, "hi", e.hi);
  w.EndObject();
}

void write_quality(json_writer& w, const char* name,
                   const calibration_quality& q) {
  w.Key(name);
  w.StartObject();
  write_estimate(w, "ece", q.ece);
  write_estimate(w, "brier", q.brier);
  write_estimate(w, "log_loss", q.log_loss);
  w.EndObject();
}

void write_numbers(json_writer& w, const char* name,
                   const std::vector<double>& xs) {
  w.Key(name);
  w.StartArray();
  for (auto x : xs)
    w.Double(x);
  w.EndArray();
}

std::string judges_json(const std::vector<calibration_fit>& fits) {
  rapidjson::StringBuffer sb;
  json_writer w(sb);
  w.StartArray();
  for (auto& f : fits) {
    w.StartObject();
    json::string(w, "judge_id", f.map.judge_id);
    json::string(w, "source", f.map.source);
    json::uint(w, "pairs", f.pairs);
    json::uint(w, "votes", f.votes);
    write_numbers(w, "raw", f.map.raw);
    write_numbers(w, "calibrated", f.map.calibrated);
    write_quality(w, "before", f.raw);
    write_quality(w, "after", f.calibrated);
    w.EndObject();
  }
  w.EndArray();
  return {sb.GetString(), sb.GetSize()};
}

} // namespace

std::string calibration_file_json(const std::vector<calibration_fit>& fits,
                                  const fit_options& opts) {
  auto judges = judges_json(fits);
  std::string out = "{\"format\":\"";
  out += calibration_format;
  out += "\",\"folds\":" + std::to_string(opts.folds)
         + ",\"bootstrap\":" + std::to_string(opts.bootstrap)
         + ",\"seed\":" + std::to_string(opts.seed) + ",\"judges\":" + judges
         + ",\"checksum\":\"" + sha256_hex(judges) + "\"}\n";
  return out;
}

namespace {

using rapidjson::Value;

constexpr const char* refit_command =
  "invjudge calibrate AUDIT.jsonl... --out MAP.json";

bool read_numbers(const Value& j, const char* name, std::vector<double>& out) {
  auto m = j.FindMember(name);
  if (m == j.MemberEnd() || !m->value.IsArray())
    return false;
  for (auto& x : m->value.GetArray()) {
    if (!x.IsNumber() || !std::isfinite(x.GetDouble()))
      return false;
    out.push_back(x.GetDouble());
  }
  return true;
}

estimate read_estimate(const Value& q, const char* name) {
  estimate e;
  auto m = q.FindMember(name);
  if (m == q.MemberEnd() || !m->value.IsObject())
    return e;
  auto num = [&](const char* k) {
    auto f = m->value.FindMember(k);
    return f != m->value.MemberEnd() && f->value.IsNumber()
             ? f->value.GetDouble()
             : 0.0;
  };
  e.value = num("value");
  e.lo = num("lo");
  e.hi = num("hi");
  return e;
}

calibration_quality read_quality(const Value& j, const char* name) {
  calibration_quality q;
  auto m = j.FindMember(name);
  if (m == j.MemberEnd() || !m->value.IsObject())
    return q;
  q.ece = read_estimate(m->value, "ece");
  q.brier = read_estimate(m->value, "brier");
  q.log_loss = read_estimate(m->value, "log_loss");
  return q;
}

// One judge's entry; errc::bad_config saying why when it is not well formed.
caf::error read_judge(const Value& j, calibration_fit& f) {
  auto bad = [](std::string why) {
    return make_error(errc::bad_config, std::move(why));
  };
  if (!j.IsObject())
    return bad("is not an object");
  auto id = j.FindMember("judge_id");
  if (id == j.MemberEnd() || !id->value.IsString()
      || id->value.GetStringLength() == 0)
    return bad("has no \"judge_id\"");
  f.map.judge_id = id->value.GetString();
  if (auto s = j.FindMember("source");
      s != j.MemberEnd() && s->value.IsString())
    f.map.source = s->value.GetString();
  for (auto k : {"pairs", "votes"})
    if (auto m = j.FindMember(k); m != j.MemberEnd() && m->value.IsUint64())
      (k[0] == 'p' ? f.pairs : f.votes) = m->value.GetUint64();
  if (!read_numbers(j, "raw", f.map.raw)
      || !read_numbers(j, "calibrated", f.map.calibrated))
    return bad("needs \"raw\" and \"calibrated\" arrays of finite numbers");
  auto& x = f.map.raw;
  auto& y = f.map.calibrated;
  if (x.empty() || x.size() != y.size())
    return bad("has " + std::to_string(x.size()) + " raw and "
               + std::to_string(y.size())
               + " calibrated values (need equal, at least 1)");
  for (std::size_t i = 0; i < x.size(); ++i) {
    if (x[i] < 0 || x[i] > 1 || y[i] < 0 || y[i] > 1)
      return bad("has a value outside [0, 1] at knot " + std::to_string(i));
    if (i > 0 && x[i] <= x[i - 1])
      return bad("raw values are not increasing at knot " + std::to_string(i));
    if (i > 0 && y[i] < y[i - 1])
      return bad("is not monotone: calibrated value falls at knot "
                 + std::to_string(i));
  }
  // What the map was fitted on is checked against the run: a map that does
  // not say cannot be (`invjudge calibrate` has always written both).
  if (f.map.source != "decision_probs" && f.map.source != "vote_share"
      && f.map.source != "mixed")
    return bad("has no \"source\" (decision_probs, vote_share or mixed): "
               "what its confidences were cannot be checked against the run; "
               "fit the map again with `"
               + std::string{refit_command} + "`");
  if (f.votes == 0)
    return bad("rests on no \"votes\": a map fitted on no evidence; fit the "
               "map again with `"
               + std::string{refit_command} + "`");
  // As fit_isotonic clamps them: no finite sample yields certainty.
  const double floor = 1.0 / (2.0 * static_cast<double>(f.votes));
  for (auto& v : y)
    v = std::min(1.0 - floor, std::max(floor, v));
  f.raw = read_quality(j, "before");
  f.calibrated = read_quality(j, "after");
  return caf::error{};
}

} // namespace

caf::expected<calibration_set> parse_calibration_file(const std::string& text,
                                                      const std::string& name) {
  if (text.find_first_not_of(" \t\r\n") == std::string::npos)
    return make_error(errc::bad_config,
                      name
                        + ": the file is empty, not a calibration map; write "
                          "one with `"
                        + refit_command + "`");
  rapidjson::Document doc;
  doc.Parse<rapidjson::kParseFullPrecisionFlag>(text.data(), text.size());
  if (doc.HasParseError() || !doc.IsObject())
    return make_error(
      errc::bad_config,
      name + ": not a calibration map (not a JSON object"
        + (doc.HasParseError()
             ? std::string{": "}
                 + rapidjson::GetParseError_En(doc.GetParseError())
                 + " at byte " + std::to_string(doc.GetErrorOffset())
             : std::string{})
        + "); write one with `" + refit_command + "`");
  auto fmt = doc.FindMember("format");
  if (fmt == doc.MemberEnd() || !fmt->value.IsString()
      || std::string{fmt->value.GetString()} != calibration_format)
    return make_error(errc::bad_config, name + ": /format: expected \""
                                          + calibration_format + "\"");
  auto judges = doc.FindMember("judges");
  auto sum = doc.FindMember("checksum");
  if (judges == doc.MemberEnd() || !judges->value.IsArray())
    return make_error(errc::bad_config, name + ": /judges: expected an array");
  if (sum == doc.MemberEnd() || !sum->value.IsString())
    return make_error(errc::bad_config, name + ": /checksum: missing");
  // The canonical text of the array, as calibration_file_json wrote it.
  rapidjson::StringBuffer sb;
  json_writer w(sb);
  judges->value.Accept(w);
  if (sha256_hex({sb.GetString(), sb.GetSize()}) != sum->value.GetString())
    return make_error(
      errc::bad_config,
      name
        + ": /checksum: does not match the judges' maps (the map "
          "was edited after `invjudge calibrate` wrote it)");
  calibration_set set;
  rapidjson::SizeType i = 0;
  for (auto& j : judges->value.GetArray()) {
    calibration_fit f;
    auto where = name + ": /judges/" + std::to_string(i++);
    if (auto err = read_judge(j, f))
      return make_error(errc::bad_config, where + ": " + context_of(err));
    auto id = f.map.judge_id;
    if (!set.judges.emplace(id, std::move(f)).second)
      return make_error(errc::bad_config,
                        where + ": judge " + id + " has a map already");
  }
  set.sha256 = sha256_hex(text);
  return set;
}

} // namespace ij
