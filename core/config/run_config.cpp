#include "core/config/run_config.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <optional>
#include <set>

#include <rapidjson/document.h>
#include <rapidjson/error/en.h>
#include <rapidjson/pointer.h>
#include <rapidjson/schema.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include "core/config/config_fields.hpp"
#include "core/config/judge_fields.hpp"
#include "core/config/schema_error.hpp"
#include "core/embedded_configs.hpp"

namespace ij {

namespace {

using rapidjson::Value;

const rapidjson::Document& schema_document() {
  static const rapidjson::Document doc = [] {
    rapidjson::Document d;
    d.Parse(embedded::config_schema.data(), embedded::config_schema.size());
    return d;
  }();
  return doc;
}

const rapidjson::SchemaDocument& compiled_schema() {
  static const rapidjson::SchemaDocument sd{schema_document()};
  return sd;
}

const Value* member(const Value& obj, const char* name) {
  auto it = obj.FindMember(name);
  return it == obj.MemberEnd() ? nullptr : &it->value;
}

using config::field;
using config::field_error;
using config::json_writer;

// A number written as null when not finite (core/json_fields.hpp), as the
// statistical parameters are everywhere.
template <class Get>
field<run_config> stat(std::string_view pointer, Get get) {
  auto f = config::real<run_config>(pointer, get);
  f.write = [get](json_writer& w, const run_config& c) {
    if (std::isfinite(get(c)))
      w.Double(get(c));
    else
      w.Null();
  };
  return f;
}

void read_strings(const Value& v, std::vector<std::string>& into) {
  into.clear();
  for (auto& s : v.GetArray())
    into.emplace_back(s.GetString());
}

void write_strings(json_writer& w, const std::vector<std::string>& xs) {
  w.StartArray();
  for (auto& s : xs)
    w.String(s);
  w.EndArray();
}

panel_config& panel_of(run_config& c) {
  if (!c.panel)
    c.panel.emplace();
  return *c.panel;
}

cascade_config& cascade_of(run_config& c) {
  if (!c.cascade)
    c.cascade.emplace();
  return *c.cascade;
}

bool has_cache(const run_config& c) {
  return !c.cache.path.empty();
}

bool has_calibration(const run_config& c) {
  return !c.calibration.empty();
}

bool has_panel(const run_config& c) {
  return c.panel.has_value();
}

bool has_cascade(const run_config& c) {
  return c.cascade.has_value();
}

template <class Get>
field<run_config> tls_file(std::string_view pointer, Get get) {
  return only_when(
    config::text<run_config>(
      pointer, [get](auto& c) -> auto& { return get(c.connection); }),
    [get](const run_config& c) { return !get(c.connection).empty(); });
}

// The judges and the vote rule.
config::table<run_config> top_fields() {
  using namespace config;
  using C = run_config;
  return {
    {"/source", {}, [](json_writer& w, const C& c) { w.String(c.source); }, {}},
    comment<C>("/_comment"),
    {"/judge",
     [](const Value& v, C& c, const std::string& at) {
       auto spec = parse_judge_name(v.GetString());
       if (!spec)
         return field_error(at, context_of(spec.error()));
       c.judges = {*spec};
       return caf::error{};
     },
     {},
     {}},
    {"/judges", read_judges, write_judges, {}},
    custom<C>(
      "/votes",
      [](const Value& v, C& c) {
        c.votes.votes = v.GetUint();
        c.votes.min_agreement = c.votes.votes / 2 + 1; // a strict majority
      },
      [](json_writer& w, const C& c) { w.Uint(c.votes.votes); }),
    count<C>(
      "/min_agreement", [](auto& c) -> auto& { return c.votes.min_agreement; }),
    flag<C>(
      "/abstain_as_neither",
      [](auto& c) -> auto& { return c.abstain_as_neither; }),
    flag<C>(
      "/order_balancing", [](auto& c) -> auto& { return c.order_balancing; }),
    duration<C>(
      "/vote_deadline_ms", [](auto& c) -> auto& { return c.vote_deadline; }),
    duration<C>(
      "/failover_wait_ms", [](auto& c) -> auto& { return c.failover_wait; }),
    real<C>(
      "/max_fault_rate", [](auto& c) -> auto& { return c.max_fault_rate; }),
    // Written only when not the default, so that other runs keep their
    // manifest as it was.
    only_when(
      custom<C>(
        "/on_planted",
        [](const Value& v, C& c) {
          c.on_planted = *planted_action_from_string(v.GetString());
        },
        [](json_writer& w, const C& c) {
          w.String(std::string{to_string(c.on_planted)});
        }),
      [](const C& c) { return c.on_planted != planted_action::abstain; }),
  };
}

// Statistics, canaries, the audit file and the cache.
config::table<run_config> statistics_fields() {
  using namespace config;
  using C = run_config;
  return {
    comment<C>("/statistics/_comment"),
    stat(
      "/statistics/tau", [](auto& c) -> auto& { return c.stats.tau; }),
    stat(
      "/statistics/alpha", [](auto& c) -> auto& { return c.stats.alpha; }),
    stat(
      "/statistics/max_absent_rate",
      [](auto& c) -> auto& { return c.stats.max_absent_rate; }),
    stat(
      "/statistics/max_fault_rate",
      [](auto& c) -> auto& { return c.stats.max_fault_rate; }),
    stat(
      "/statistics/max_undecided_rate",
      [](auto& c) -> auto& { return c.stats.max_undecided_rate; }),
    count<C>(
      "/statistics/min_decided",
      [](auto& c) -> auto& { return c.stats.min_decided; }),
    comment<C>("/canaries/_comment"),
    real<C>(
      "/canaries/rate", [](auto& c) -> auto& { return c.canaries.rate; }),
    {"/canaries/seed",
     [](const Value& v, C& c, const std::string& at) {
       if (!v.IsUint64())
         return field_error(at, "must fit in an unsigned 64-bit integer");
       c.canaries.seed = v.GetUint64();
       return caf::error{};
     },
     [](json_writer& w, const C& c) { w.Uint64(c.canaries.seed); },
     {}},
    custom<C>(
      "/canaries/on_alarm",
      [](const Value& v, C& c) {
        c.canaries.on_alarm = *alarm_action_from_string(v.GetString());
      },
      [](json_writer& w, const C& c) {
        w.String(std::string{to_string(c.canaries.on_alarm)});
      }),
    real<C>(
      "/canaries/tolerated_rate",
      [](auto& c) -> auto& { return c.canaries.alarm.tolerated_rate; }),
    real<C>(
      "/canaries/alarm_rate",
      [](auto& c) -> auto& { return c.canaries.alarm.alarm_rate; }),
    real<C>(
      "/canaries/alpha",
      [](auto& c) -> auto& { return c.canaries.alarm.alpha; }),
    real<C>(
      "/canaries/beta", [](auto& c) -> auto& { return c.canaries.alarm.beta; }),
    comment<C>("/audit/_comment"),
    text<C>(
      "/audit/path", [](auto& c) -> auto& { return c.audit_path; }),
    custom<C>(
      "/audit/flush",
      [](const Value& v, C& c) {
        c.flush = *flush_policy_from_string(v.GetString());
      },
      [](json_writer& w, const C& c) {
        w.String(std::string{to_string(c.flush)});
      }),
    // Only when configured: a run without a cache records no cache settings.
    comment<C>("/cache/_comment"),
    only_when(text<C>(
                "/cache/path", [](auto& c) -> auto& { return c.cache.path; }),
              has_cache),
    only_when(duration<C>(
                "/cache/ttl", [](auto& c) -> auto& { return c.cache.ttl; }),
              has_cache),
    only_when(
      count<C>(
        "/cache/max_bytes", [](auto& c) -> auto& { return c.cache.max_bytes; }),
      has_cache),
  };
}

// Judge hosts, the answer policy, calibration and stopping.
config::table<run_config> host_fields() {
  using namespace config;
  using C = run_config;
  return {
    custom<C>(
      "/hosts", [](const Value& v, C& c) { read_strings(v, c.hosts); },
      [](json_writer& w, const C& c) { write_strings(w, c.hosts); }),
    // The TLS files by path; empty ones left out, so that the text reads
    // back under the schema.
    tls_file(
      "/host_connection/tls_cert", [](auto& c) -> auto& { return c.tls_cert; }),
    tls_file(
      "/host_connection/tls_key", [](auto& c) -> auto& { return c.tls_key; }),
    tls_file(
      "/host_connection/tls_ca", [](auto& c) -> auto& { return c.tls_ca; }),
    flag<C>(
      "/host_connection/local_judges",
      [](auto& c) -> auto& { return c.connection.local_judges; }),
    duration<C>(
      "/host_connection/heartbeat_ms",
      [](auto& c) -> auto& { return c.connection.heartbeat; }),
    duration<C>(
      "/host_connection/lost_after_ms",
      [](auto& c) -> auto& { return c.connection.lost_after; }),
    duration<C>(
      "/host_connection/connection_timeout_ms",
      [](auto& c) -> auto& { return c.connection.connection_timeout; }),
    duration<C>(
      "/host_connection/connect_timeout_ms",
      [](auto& c) -> auto& { return c.connection.connect_timeout; }),
    duration<C>(
      "/host_connection/retry_max_ms",
      [](auto& c) -> auto& { return c.connection.retry_max; }),
    count<C>(
      "/host_connection/queue_max",
      [](auto& c) -> auto& { return c.connection.queue_max; }),
    {"/answer_policy",
     [](const Value& v, C& c, const std::string& at) {
       return read_answer_policy(v, c.policy, at);
     },
     [](json_writer& w, const C& c) { write_answer_policy(w, c.policy); },
     {}},
    // Only when configured: the map's path and SHA-256 (checked on resume).
    only_when(text<C>(
                "/calibration", [](auto& c) -> auto& { return c.calibration; }),
              has_calibration),
    only_when(
      custom<C>(
        "/calibration_sha256",
        [](const Value& v, C& c) { c.calibration_sha256 = v.GetString(); },
        [](json_writer& w, const C& c) {
          w.String(c.calibration_maps ? c.calibration_maps->sha256
                                      : c.calibration_sha256);
        }),
      has_calibration),
    only_when(
      custom<C>(
        "/stop/probability",
        [](const Value& v, C& c) { c.stop_probability = v.GetDouble(); },
        [](json_writer& w, const C& c) { w.Double(*c.stop_probability); }),
      [](const C& c) { return c.stop_probability.has_value(); }),
  };
}

// A panel or a cascade (written only when configured).
config::table<run_config> route_fields() {
  using namespace config;
  using C = run_config;
  return {
    comment<C>("/panels/_comment"),
    only_when(
      custom<C>(
        "/panels/judges",
        [](const Value& v, C& c) { read_strings(v, panel_of(c).judges); },
        [](json_writer& w, const C& c) { write_strings(w, c.panel->judges); }),
      has_panel),
    only_when(custom<C>(
                "/panels/rule",
                [](const Value& v, C& c) {
                  panel_of(c).rule = *panel_rule_from_string(v.GetString());
                },
                [](json_writer& w, const C& c) {
                  w.String(std::string{to_string(c.panel->rule)});
                }),
              has_panel),
    comment<C>("/cascade/_comment"),
    only_when(
      custom<C>(
        "/cascade/rules",
        [](const Value& v, C& c) { cascade_of(c).rules = v.GetString(); },
        [](json_writer& w, const C& c) { w.String(c.cascade->rules); }),
      has_cascade),
    only_when(custom<C>(
                "/cascade/llm",
                [](const Value& v, C& c) { cascade_of(c).llm = v.GetString(); },
                [](json_writer& w, const C& c) { w.String(c.cascade->llm); }),
              has_cascade),
    only_when(
      custom<C>(
        "/cascade/audit_rate",
        [](const Value& v, C& c) { cascade_of(c).audit_rate = v.GetDouble(); },
        [](json_writer& w, const C& c) { w.Double(c.cascade->audit_rate); }),
      has_cascade),
    only_when(
      custom<C>(
        "/cascade/seed",
        [](const Value& v, C& c) { cascade_of(c).seed = v.GetUint64(); },
        [](json_writer& w, const C& c) { w.Uint64(c.cascade->seed); }),
      has_cascade),
  };
}

// The fields of a run configuration (configs/schema.json), in the order the
// writer writes them; the reader reads them in this order too ("votes"
// before "min_agreement", which it may set).
const config::table<run_config>& run_fields() {
  static const config::table<run_config> fields = [] {
    config::table<run_config> all;
    for (auto part : {top_fields, statistics_fields, host_fields, route_fields})
      for (auto& f : part())
        all.push_back(f);
    return all;
  }();
  return fields;
}

// What a panel or a cascade says about its judges: each name is one of the
// run's judges or a short judge name (then added to the judges, unless a
// judge of that name exists).
caf::error resolve_judge(run_config& cfg, const std::string& name,
                         const std::string& pointer) {
  if (find_judge(cfg, name))
    return caf::error{};
  auto spec = parse_judge_name(name);
  if (!spec)
    return field_error(pointer, "\"" + name
                                  + "\" is neither the name of a configured "
                                    "judge nor a judge name ("
                                  + context_of(spec.error()) + ")");
  spec->name = name;
  cfg.judges.push_back(std::move(*spec));
  return caf::error{};
}

// The names must be different judges (judge ids): the same model at the same
// temperature and prompt twice would only agree with itself.
std::string same_judge(const run_config& cfg,
                       const std::vector<std::string>& names) {
  std::set<std::string> ids;
  for (auto& n : names)
    if (auto j = find_judge(cfg, n); j && !ids.insert(judge_id_of(*j)).second)
      return n;
  return {};
}

// The panel's judges as the file names them, or all the run's judges.
caf::error resolve_panel(
  run_config& cfg, bool judges_given, const std::vector<judge_spec>& defaults,
  const std::function<caf::error(const std::string&, const std::string&)>&
    resolve) {
  auto& pc = *cfg.panel;
  if (pc.judges.empty()) {
    if (!judges_given)
      cfg.judges = defaults;
    for (auto& j : cfg.judges)
      pc.judges.push_back(j.name);
    return caf::error{};
  }
  for (std::size_t i = 0; i < pc.judges.size(); ++i) {
    auto at = "/panels/judges/" + std::to_string(i);
    if (auto err = resolve(pc.judges[i], at))
      return err;
    if (std::find(pc.judges.begin(), pc.judges.begin() + i, pc.judges[i])
        != pc.judges.begin() + i)
      return field_error(at, "judge \"" + pc.judges[i] + "\" is named twice");
  }
  return caf::error{};
}

// "panels" and "cascade" as the file wrote them: names resolved to judges,
// then what only a file can get wrong (the same judge twice, a judge
// configured but not used).
caf::error resolve_routes(run_config& cfg, bool judges_given) {
  if (!cfg.panel && !cfg.cascade)
    return caf::error{};
  // Without judges of its own, a panel or cascade names all the run's
  // judges: the embedded default judge is not kept unless named.
  auto defaults = cfg.judges;
  if (!judges_given)
    cfg.judges.clear();
  auto resolve = [&](const std::string& name, const std::string& at) {
    if (!judges_given && !find_judge(cfg, name))
      for (auto& d : defaults)
        if (d.name == name) {
          cfg.judges.push_back(d);
          return caf::error{};
        }
    return resolve_judge(cfg, name, at);
  };
  std::vector<std::string> used;
  if (cfg.panel) {
    if (auto err = resolve_panel(cfg, judges_given, defaults, resolve))
      return err;
    if (cfg.panel->judges.size() < 2)
      return caf::error{}; // validate() says so
    if (auto twice = same_judge(cfg, cfg.panel->judges); !twice.empty())
      return field_error("/panels/judges",
                         "judge \"" + twice
                           + "\" is the same judge (model, temperature, "
                             "prompt) as another panel judge: a panel needs "
                             "different judges");
    used = cfg.panel->judges;
  } else {
    auto& cc = *cfg.cascade;
    if (auto err = resolve(cc.rules, "/cascade/rules"))
      return err;
    if (auto err = resolve(cc.llm, "/cascade/llm"))
      return err;
    if (!same_judge(cfg, {cc.rules, cc.llm}).empty())
      return field_error("/cascade/llm", "the LLM judge must be another judge "
                                         "than the rule judge");
    used = {cc.rules, cc.llm};
  }
  for (std::size_t i = 0; i < cfg.judges.size(); ++i)
    if (std::find(used.begin(), used.end(), cfg.judges[i].name) == used.end())
      return field_error("/judges/" + std::to_string(i),
                         "judge \"" + cfg.judges[i].name
                           + "\" is configured but the "
                           + (cfg.panel ? "panel" : "cascade")
                           + " does not use it (name it there, or remove it)");
  return caf::error{};
}

/// Lays a schema-valid document over `cfg` (the field table), resolves what
/// the file names, then validates the result.
caf::error apply(const Value& doc, run_config& cfg) {
  if (member(doc, "judge") && member(doc, "judges"))
    return field_error("/judge",
                       "give either \"judge\" or \"judges\", not both");
  if (member(doc, "panels") && member(doc, "cascade"))
    return field_error("/cascade",
                       "give either \"panels\" or \"cascade\", not both");
  // An empty "panels" object is a panel of all the run's judges.
  if (member(doc, "panels"))
    cfg.panel.emplace();
  if (auto err = config::read_fields(doc, cfg, run_fields()))
    return err;
  set_answer_policy(cfg.judges, cfg.policy);
  return resolve_routes(cfg, member(doc, "judge") || member(doc, "judges"));
}

caf::expected<run_config> parse_over(run_config base, std::string_view json,
                                     const std::string& source) {
  rapidjson::Document doc;
  doc.Parse<rapidjson::kParseValidateEncodingFlag>(json.data(), json.size());
  if (doc.HasParseError())
    return config_error(source, position_of(json, doc.GetErrorOffset()),
                        std::string{"not valid JSON: "}
                          + rapidjson::GetParseError_En(doc.GetParseError()));
  rapidjson::SchemaValidator validator{compiled_schema()};
  if (!doc.Accept(validator))
    return config_error(source, "",
                        schema_error(schema_document(), doc, validator));
  base.source = source;
  if (auto err = apply(doc, base))
    return config_error(source, "", context_of(err));
  if (auto err = validate_judge_kinds(base))
    return err;
  if (auto err = validate(base))
    return err;
  return base;
}

} // namespace

caf::error config_error(const std::string& source, const std::string& pointer,
                        const std::string& what) {
  return make_error(errc::bad_config,
                    (source.empty() ? "" : source + ": ")
                      + (pointer.empty() ? "" : pointer + ": ") + what);
}

std::string_view to_string(flush_policy p) {
  switch (p) {
    case flush_policy::fsync_verdicts: return "fsync-verdicts";
    case flush_policy::fsync_each: return "fsync-each";
    case flush_policy::flush_each: return "flush-each";
  }
  return "fsync-verdicts";
}

std::optional<flush_policy> flush_policy_from_string(std::string_view s) {
  for (auto p : {flush_policy::fsync_verdicts, flush_policy::fsync_each,
                 flush_policy::flush_each})
    if (to_string(p) == s)
      return p;
  return std::nullopt;
}

run_config default_config() {
  auto cfg = parse_over(run_config{}, embedded::default_config,
                        std::string{embedded_source});
  // The build embeds a file the tests validate; failing here is a build bug.
  if (!cfg) {
    std::fprintf(stderr, "invjudge: the embedded default is invalid: %s\n",
                 context_of(cfg.error()).c_str());
    std::abort();
  }
  return std::move(*cfg);
}

caf::expected<run_config> parse_config(std::string_view json,
                                       const std::string& source) {
  return parse_over(default_config(), json, source);
}

const judge_spec* find_judge(const run_config& cfg, const std::string& name) {
  for (auto& j : cfg.judges)
    if (j.name == name)
      return &j;
  return nullptr;
}

caf::error override_judge(run_config& cfg, const std::string& name) {
  if (cfg.panel || cfg.cascade)
    return make_error(errc::bad_config,
                      "--judge " + name + ": " + cfg.source + " configures a "
                        + (cfg.panel ? "panel" : "cascade")
                        + ", which names its judges; give the judges there "
                          "instead");
  auto spec = parse_judge_name(name);
  if (!spec)
    return make_error(errc::bad_config,
                      "--judge " + (name.empty() ? std::string{"''"} : name)
                        + ": " + context_of(spec.error()));
  cfg.judges = {*spec};
  set_answer_policy(cfg.judges, cfg.policy);
  return caf::error{};
}

void write_run_config(rapidjson::Writer<rapidjson::StringBuffer>& w,
                      const run_config& cfg) {
  config::write_fields(w, cfg, run_fields());
}

const config::table<run_config>& run_config_fields() {
  return run_fields();
}

const config::table<judge_spec>& judge_config_fields() {
  return judge_fields();
}

std::string to_json(const run_config& cfg) {
  rapidjson::StringBuffer sb;
  rapidjson::Writer<rapidjson::StringBuffer> w(sb);
  write_run_config(w, cfg);
  return {sb.GetString(), sb.GetSize()};
}

} // namespace ij
