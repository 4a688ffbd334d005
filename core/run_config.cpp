#include "core/run_config.hpp"

#include "core/host_address.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <algorithm>
#include <functional>
#include <optional>
#include <set>

#include <rapidjson/document.h>
#include <rapidjson/error/en.h>
#include <rapidjson/pointer.h>
#include <rapidjson/schema.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include "core/schema_error.hpp"
#include "core/statistical_params_json.hpp"
#include "core/verdict_table.hpp"
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

judge_spec judge_from(const Value& j) {
  judge_spec s;
  s.type = j["type"].GetString();
  s.model = j["model"].GetString();
  if (auto v = member(j, "name"))
    s.name = v->GetString();
  else
    s.name = s.type + ":" + s.model;
  if (auto v = member(j, "base_url"))
    s.base_url = v->GetString();
  s.temperature = j["temperature"].GetDouble();
  if (auto v = member(j, "seed"))
    s.seed = v->GetInt64();
  if (auto v = member(j, "max_tokens"))
    s.max_tokens = v->GetUint();
  s.timeout = std::chrono::milliseconds{j["timeout_ms"].GetUint()};
  s.max_in_flight = j["max_in_flight"].GetUint();
  if (auto v = member(j, "api_key_env"))
    s.api_key_env = v->GetString();
  if (auto v = member(j, "ca_file"))
    s.ca_file = v->GetString();
  if (auto v = member(j, "max_attempts"))
    s.max_attempts = v->GetUint();
  if (auto b = member(j, "budget")) {
    if (auto v = member(*b, "max_calls"))
      s.budget.max_calls = v->GetUint64();
    if (auto v = member(*b, "max_input_tokens"))
      s.budget.max_input_tokens = v->GetUint64();
    if (auto v = member(*b, "max_output_tokens"))
      s.budget.max_output_tokens = v->GetUint64();
    if (auto v = member(*b, "max_cost"))
      s.budget.max_cost = v->GetDouble();
  }
  if (auto p = member(j, "prices"))
    s.prices = token_prices{(*p)["input"].GetDouble(),
                            (*p)["output"].GetDouble()};
  if (auto b = member(j, "breaker")) {
    if (auto v = member(*b, "enabled"))
      s.breaker.enabled = v->GetBool();
    if (auto v = member(*b, "failures"))
      s.breaker.failures = v->GetUint();
    if (auto v = member(*b, "cooldown_ms"))
      s.breaker.cooldown = std::chrono::milliseconds{v->GetUint()};
  }
  if (auto v = member(j, "logprobs"))
    s.logprobs = v->GetBool();
  if (auto v = member(j, "constrain"))
    s.constrain = reply_constraint_of(v->GetString()).value_or(reply_constraint::none);
  return s;
}

/// A field that is wrong: "<source>: <pointer>: <what>" (the pointer and
/// its colon left out when empty).
using fail_fn = std::function<caf::error(const std::string& pointer,
                                         const std::string& what)>;

/// "hosts" and "host_connection".
caf::error read_hosts(const Value& doc, run_config& cfg, const fail_fn& fail) {
  if (auto hosts = member(doc, "hosts")) {
    cfg.hosts.clear();
    for (rapidjson::SizeType i = 0; i < hosts->Size(); ++i) {
      std::string text = (*hosts)[i].GetString();
      if (auto a = parse_host_address(text, false); !a)
        return fail("/hosts/" + std::to_string(i), context_of(a.error()));
      cfg.hosts.push_back(text);
    }
  }
  auto hc = member(doc, "host_connection");
  if (!hc)
    return caf::error{};
  auto& c = cfg.connection;
  auto text = [&](const char* name, std::string& into) {
    if (auto v = member(*hc, name))
      into = v->GetString();
  };
  auto ms = [&](const char* name, std::chrono::milliseconds& into) {
    if (auto v = member(*hc, name))
      into = std::chrono::milliseconds{v->GetUint()};
  };
  text("tls_cert", c.tls_cert);
  text("tls_key", c.tls_key);
  text("tls_ca", c.tls_ca);
  if (auto v = member(*hc, "local_judges"))
    c.local_judges = v->GetBool();
  ms("heartbeat_ms", c.heartbeat);
  ms("lost_after_ms", c.lost_after);
  ms("connection_timeout_ms", c.connection_timeout);
  ms("connect_timeout_ms", c.connect_timeout);
  ms("retry_max_ms", c.retry_max);
  auto given = !c.tls_cert.empty() + !c.tls_key.empty() + !c.tls_ca.empty();
  if (given != 0 && given != 3)
    return fail("/host_connection",
                "mutual TLS needs all three of tls_cert, tls_key and tls_ca");
  if (c.lost_after < c.heartbeat)
    return fail("/host_connection/lost_after_ms",
                "must be at least heartbeat_ms (a host is lost after missed "
                "pings)");
  return caf::error{};
}

// What a panel or a cascade says about its judges: each name is one of the
// run's judges or a short judge name (then added to the judges, unless a
// judge of that name exists).
caf::error resolve_judge(run_config& cfg, const std::string& name,
                         const std::string& pointer, const fail_fn& fail) {
  if (find_judge(cfg, name))
    return caf::error{};
  auto spec = parse_judge_name(name);
  if (!spec)
    return fail(pointer, "\"" + name
                           + "\" is neither the name of a configured judge nor "
                             "a judge name ("
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
    if (!ids.insert(judge_id_of(*find_judge(cfg, n))).second)
      return n;
  return {};
}

// "panels" and "cascade": read, resolved to judges, and checked.
caf::error apply_routes(const Value& doc, run_config& cfg, bool judges_given,
                        const fail_fn& fail) {
  auto panels = member(doc, "panels");
  auto cascade = member(doc, "cascade");
  if (panels && cascade)
    return fail("/cascade", "give either \"panels\" or \"cascade\", not both");
  if (!panels && !cascade)
    return caf::error{};
  // Without judges of its own, a panel or cascade names all the run's
  // judges: the embedded default judge is not kept unless named.
  auto defaults = cfg.judges;
  if (!judges_given)
    cfg.judges.clear();
  auto resolve = [&](const std::string& name, const std::string& at) {
    if (judges_given || find_judge(cfg, name))
      return resolve_judge(cfg, name, at, fail);
    for (auto& d : defaults)
      if (d.name == name) {
        cfg.judges.push_back(d);
        return caf::error{};
      }
    return resolve_judge(cfg, name, at, fail);
  };
  std::vector<std::string> used;
  if (panels) {
    panel_config pc;
    if (auto r = member(*panels, "rule"))
      pc.rule = *panel_rule_from_string(r->GetString());
    if (auto js = member(*panels, "judges")) {
      for (rapidjson::SizeType i = 0; i < js->Size(); ++i) {
        std::string name = (*js)[i].GetString();
        if (auto err = resolve(name, "/panels/judges/" + std::to_string(i)))
          return err;
        if (std::find(pc.judges.begin(), pc.judges.end(), name)
            != pc.judges.end())
          return fail("/panels/judges/" + std::to_string(i),
                      "judge \"" + name + "\" is named twice");
        pc.judges.push_back(name);
      }
    } else {
      if (!judges_given)
        cfg.judges = defaults;
      for (auto& j : cfg.judges)
        pc.judges.push_back(j.name);
    }
    if (pc.judges.size() < 2)
      return fail("/panels", "a panel needs at least two judges ("
                               + std::to_string(pc.judges.size())
                               + " configured)");
    if (auto twice = same_judge(cfg, pc.judges); !twice.empty())
      return fail("/panels/judges",
                  "judge \"" + twice
                    + "\" is the same judge (model, temperature, prompt) as "
                      "another panel judge: a panel needs different judges");
    used = pc.judges;
    cfg.panel = std::move(pc);
  } else {
    cascade_config cc;
    cc.rules = cascade->FindMember("rules")->value.GetString();
    if (auto err = resolve(cc.rules, "/cascade/rules"))
      return err;
    cc.llm = cascade->FindMember("llm")->value.GetString();
    if (auto err = resolve(cc.llm, "/cascade/llm"))
      return err;
    if (!same_judge(cfg, {cc.rules, cc.llm}).empty())
      return fail("/cascade/llm", "the LLM judge must be another judge than "
                                  "the rule judge");
    if (auto v = member(*cascade, "audit_rate"))
      cc.audit_rate = v->GetDouble();
    if (auto v = member(*cascade, "seed"))
      cc.seed = v->GetUint64();
    used = {cc.rules, cc.llm};
    cfg.cascade = std::move(cc);
  }
  for (std::size_t i = 0; i < cfg.judges.size(); ++i)
    if (std::find(used.begin(), used.end(), cfg.judges[i].name) == used.end())
      return fail("/judges/" + std::to_string(i),
                  "judge \"" + cfg.judges[i].name + "\" is configured but the "
                    + (panels ? "panel" : "cascade")
                    + " does not use it (name it there, or remove it)");
  return caf::error{};
}

// Budgets: a cost limit needs prices; judges sharing a judge id (one model on
// several endpoints) are one judge and cannot have two budgets.
caf::error check_budgets(const run_config& cfg, const fail_fn& fail) {
  std::set<std::string> budgeted;
  for (std::size_t i = 0; i < cfg.judges.size(); ++i) {
    auto& j = cfg.judges[i];
    auto at = "/judges/" + std::to_string(i);
    if (j.budget.max_cost && !j.prices)
      return fail(at + "/budget/max_cost",
                  "a cost limit needs the judge's \"prices\" (per million "
                  "input and output tokens)");
    if (j.budget.any() && !budgeted.insert(judge_id_of(j)).second)
      return fail(at + "/budget",
                  "judge \"" + j.name + "\" serves the same judge as another "
                    "budgeted judge: give the budget once");
  }
  return caf::error{};
}

/// Lays a schema-valid document over `cfg`, then checks what a schema cannot.
caf::error apply(const Value& doc, run_config& cfg, const std::string& source) {
  fail_fn fail = [&](const std::string& pointer, const std::string& what) {
    return make_error(errc::bad_config,
                      source + ": " + (pointer.empty() ? "" : pointer + ": ")
                        + what);
  };
  auto judge = member(doc, "judge");
  auto judges = member(doc, "judges");
  if (judge && judges)
    return fail("/judge", "give either \"judge\" or \"judges\", not both");
  if (judge) {
    auto spec = parse_judge_name(judge->GetString());
    if (!spec)
      return fail("/judge", context_of(spec.error()));
    cfg.judges = {*spec};
  }
  if (judges) {
    cfg.judges.clear();
    std::set<std::string> names;
    for (rapidjson::SizeType i = 0; i < judges->Size(); ++i) {
      std::string at = "/judges/" + std::to_string(i);
      if (auto seed = member((*judges)[i], "seed"); seed && !seed->IsInt64())
        return fail(at + "/seed", "must fit in a signed 64-bit integer");
      auto spec = judge_from((*judges)[i]);
      for (bool constrain : {false, true})
        if (auto err = judge_setting_problem(spec, constrain))
          return fail(at + (constrain ? "/constrain" : "/logprobs"),
                      context_of(err));
      if (!names.insert(spec.name).second)
        return fail(at + (member((*judges)[i], "name") ? "/name" : ""),
                    "duplicate judge name \"" + spec.name
                      + "\" (give each judge its own \"name\")");
      cfg.judges.push_back(std::move(spec));
    }
  }
  auto votes = member(doc, "votes");
  auto k = member(doc, "min_agreement");
  if (votes)
    cfg.votes.votes = votes->GetUint();
  if (k)
    cfg.votes.min_agreement = k->GetUint();
  else if (votes)
    cfg.votes.min_agreement = cfg.votes.votes / 2 + 1; // a strict majority
  if (auto err = validate(cfg.votes))
    return fail(k ? "/min_agreement" : "/votes", context_of(err));
  if (auto v = member(doc, "abstain_as_neither"))
    cfg.abstain_as_neither = v->GetBool();
  if (auto v = member(doc, "order_balancing"))
    cfg.order_balancing = v->GetBool();
  if (auto v = member(doc, "vote_deadline_ms"))
    cfg.vote_deadline = std::chrono::milliseconds{v->GetUint()};
  if (auto v = member(doc, "failover_wait_ms"))
    cfg.failover_wait = std::chrono::milliseconds{v->GetUint()};
  if (auto err = read_hosts(doc, cfg, fail))
    return err;
  if (auto v = member(doc, "max_fault_rate"))
    cfg.max_fault_rate = v->GetDouble();
  if (auto st = member(doc, "statistics")) {
    auto num = [&](const char* name, double& into) {
      if (auto v = member(*st, name))
        into = v->GetDouble();
    };
    num("tau", cfg.stats.tau);
    num("alpha", cfg.stats.alpha);
    num("max_absent_rate", cfg.stats.max_absent_rate);
    num("max_fault_rate", cfg.stats.max_fault_rate);
    num("max_undecided_rate", cfg.stats.max_undecided_rate);
    if (auto v = member(*st, "min_decided"))
      cfg.stats.min_decided = v->GetUint();
  }
  if (auto err = validate(cfg.stats))
    return fail("/statistics", context_of(err));
  if (auto ca = member(doc, "canaries")) {
    auto& c = cfg.canaries;
    c.rate = (*ca)["rate"].GetDouble();
    if (auto v = member(*ca, "seed")) {
      if (!v->IsUint64())
        return fail("/canaries/seed", "must fit in an unsigned 64-bit integer");
      c.seed = v->GetUint64();
    }
    if (auto v = member(*ca, "on_alarm"))
      c.on_alarm = *alarm_action_from_string(v->GetString());
    auto num = [&](const char* name, double& into) {
      if (auto v = member(*ca, name))
        into = v->GetDouble();
    };
    num("tolerated_rate", c.alarm.tolerated_rate);
    num("alarm_rate", c.alarm.alarm_rate);
    num("alpha", c.alarm.alpha);
    num("beta", c.alarm.beta);
    if (auto err = validate(c.alarm))
      return fail("/canaries", context_of(err));
  }
  if (auto au = member(doc, "audit")) {
    if (auto v = member(*au, "path"))
      cfg.audit_path = v->GetString();
    if (auto v = member(*au, "flush"))
      cfg.flush = *flush_policy_from_string(v->GetString());
  }
  if (auto v = member(doc, "calibration"))
    cfg.calibration = v->GetString();
  if (auto v = member(doc, "calibration_sha256"))
    cfg.calibration_sha256 = v->GetString();
  if (auto st = member(doc, "stop"))
    if (auto v = member(*st, "probability"))
      cfg.stop_probability = v->GetDouble();
  if (cfg.stop_probability && cfg.calibration.empty())
    return fail("/stop/probability",
                "stopping on probability needs a calibration map "
                "(\"calibration\": \"MAP.json\", made by invjudge calibrate)");
  if (auto c = member(doc, "cache")) {
    if (auto v = member(*c, "path"))
      cfg.cache.path = v->GetString();
    if (auto v = member(*c, "ttl"))
      cfg.cache.ttl = std::chrono::seconds(v->GetUint64());
    if (auto v = member(*c, "max_bytes"))
      cfg.cache.max_bytes = v->GetUint64();
  }
  if (auto bad = apply_answer_policy(member(doc, "answer_policy"), cfg.policy,
                                     cfg.judges))
    return fail("/answer_policy/" + bad->field, bad->what);
  if (auto err = apply_routes(doc, cfg, judge || judges, fail))
    return err;
  if (!cfg.calibration.empty() && (cfg.panel || cfg.cascade))
    return fail("/calibration",
                   std::string{"a calibration map applies to pooled votes, "
                               "not to a "}
                     + (cfg.panel ? "panel" : "cascade"));
  return check_budgets(cfg, fail);
}

caf::expected<run_config> parse_over(run_config base, std::string_view json,
                                     const std::string& source) {
  rapidjson::Document doc;
  doc.Parse<rapidjson::kParseValidateEncodingFlag>(json.data(), json.size());
  if (doc.HasParseError())
    return make_error(errc::bad_config,
                      source + ": " + position_of(json, doc.GetErrorOffset())
                        + ": not valid JSON: "
                        + rapidjson::GetParseError_En(doc.GetParseError()));
  rapidjson::SchemaValidator validator{compiled_schema()};
  if (!doc.Accept(validator))
    return make_error(errc::bad_config,
                      source + ": "
                        + schema_error(schema_document(), doc, validator));
  base.source = source;
  if (auto err = apply(doc, base, source))
    return err;
  return base;
}

} // namespace

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

// "hosts" and "host_connection" (the TLS files by path; empty ones left out,
// so that the text reads back under the schema).
static void write_hosts(rapidjson::Writer<rapidjson::StringBuffer>& w,
                        const run_config& cfg) {
  w.Key("hosts");
  w.StartArray();
  for (auto& h : cfg.hosts)
    w.String(h);
  w.EndArray();
  const auto& c = cfg.connection;
  w.Key("host_connection");
  w.StartObject();
  for (auto [name, value] : {std::pair{"tls_cert", &c.tls_cert},
                             std::pair{"tls_key", &c.tls_key},
                             std::pair{"tls_ca", &c.tls_ca}})
    if (!value->empty()) {
      w.Key(name);
      w.String(*value);
    }
  w.Key("local_judges");
  w.Bool(c.local_judges);
  for (auto [name, value] :
       {std::pair{"heartbeat_ms", c.heartbeat},
        std::pair{"lost_after_ms", c.lost_after},
        std::pair{"connection_timeout_ms", c.connection_timeout},
        std::pair{"connect_timeout_ms", c.connect_timeout},
        std::pair{"retry_max_ms", c.retry_max}}) {
    w.Key(name);
    w.Int64(value.count());
  }
  w.EndObject();
}

void write_run_config(rapidjson::Writer<rapidjson::StringBuffer>& w,
                      const run_config& cfg) {
  w.StartObject();
  w.Key("source");
  w.String(cfg.source);
  w.Key("judges");
  w.StartArray();
  for (auto& j : cfg.judges) {
    w.StartObject();
    w.Key("name");
    w.String(j.name);
    w.Key("type");
    w.String(j.type);
    w.Key("model");
    w.String(j.model);
    w.Key("base_url");
    w.String(j.base_url);
    w.Key("temperature");
    w.Double(j.temperature);
    w.Key("seed");
    if (j.seed)
      w.Int64(*j.seed);
    else
      w.Null();
    w.Key("max_tokens");
    w.Uint(j.max_tokens);
    w.Key("timeout_ms");
    w.Int64(j.timeout.count());
    w.Key("max_in_flight");
    w.Uint(j.max_in_flight);
    w.Key("api_key_env");
    w.String(j.api_key_env);
    w.Key("ca_file");
    w.String(j.ca_file);
    w.Key("max_attempts");
    w.Uint(j.max_attempts);
    // Written only when declared, so that runs without them keep their
    // manifest as it was.
    if (j.budget.any()) {
      w.Key("budget");
      w.StartObject();
      auto limit = [&](const char* key, const std::optional<std::uint64_t>& v) {
        if (v) {
          w.Key(key);
          w.Uint64(*v);
        }
      };
      limit("max_calls", j.budget.max_calls);
      limit("max_input_tokens", j.budget.max_input_tokens);
      limit("max_output_tokens", j.budget.max_output_tokens);
      if (j.budget.max_cost) {
        w.Key("max_cost");
        w.Double(*j.budget.max_cost);
      }
      w.EndObject();
    }
    if (j.prices) {
      w.Key("prices");
      w.StartObject();
      w.Key("input");
      w.Double(j.prices->input);
      w.Key("output");
      w.Double(j.prices->output);
      w.EndObject();
    }
    w.Key("breaker");
    w.StartObject();
    w.Key("enabled");
    w.Bool(j.breaker.enabled);
    w.Key("failures");
    w.Uint(j.breaker.failures);
    w.Key("cooldown_ms");
    w.Int64(j.breaker.cooldown.count());
    w.EndObject();
    // Written only when set, so that runs without them keep their manifest
    // as it was.
    if (j.logprobs) {
      w.Key("logprobs");
      w.Bool(true);
    }
    if (j.constrain != reply_constraint::none) {
      auto c = to_string(j.constrain);
      w.Key("constrain");
      w.String(c.data(), static_cast<rapidjson::SizeType>(c.size()));
    }
    w.EndObject();
  }
  w.EndArray();
  w.Key("votes");
  w.Uint(cfg.votes.votes);
  w.Key("min_agreement");
  w.Uint(cfg.votes.min_agreement);
  w.Key("abstain_as_neither");
  w.Bool(cfg.abstain_as_neither);
  w.Key("order_balancing");
  w.Bool(cfg.order_balancing);
  w.Key("vote_deadline_ms");
  w.Int64(cfg.vote_deadline.count());
  w.Key("failover_wait_ms");
  w.Int64(cfg.failover_wait.count());
  w.Key("max_fault_rate");
  w.Double(cfg.max_fault_rate);
  w.Key("statistics");
  write_statistical_params(w, cfg.stats);
  w.Key("canaries");
  w.StartObject();
  w.Key("rate");
  w.Double(cfg.canaries.rate);
  w.Key("seed");
  w.Uint64(cfg.canaries.seed);
  w.Key("on_alarm");
  w.String(std::string{to_string(cfg.canaries.on_alarm)});
  w.Key("tolerated_rate");
  w.Double(cfg.canaries.alarm.tolerated_rate);
  w.Key("alarm_rate");
  w.Double(cfg.canaries.alarm.alarm_rate);
  w.Key("alpha");
  w.Double(cfg.canaries.alarm.alpha);
  w.Key("beta");
  w.Double(cfg.canaries.alarm.beta);
  w.EndObject();
  w.Key("audit");
  w.StartObject();
  w.Key("path");
  w.String(cfg.audit_path);
  w.Key("flush");
  w.String(std::string{to_string(cfg.flush)});
  w.EndObject();
  // Only when configured: a run without a cache records no cache settings.
  if (!cfg.cache.path.empty()) {
    w.Key("cache");
    w.StartObject();
    w.Key("path");
    w.String(cfg.cache.path);
    w.Key("ttl");
    w.Uint64(static_cast<std::uint64_t>(cfg.cache.ttl.count()));
    w.Key("max_bytes");
    w.Uint64(cfg.cache.max_bytes);
    w.EndObject();
  }
  write_hosts(w, cfg);
  write_answer_policy(w, cfg.policy);
  // Only when configured: the map's path and SHA-256 (checked on resume).
  if (!cfg.calibration.empty()) {
    w.Key("calibration");
    w.String(cfg.calibration);
    w.Key("calibration_sha256");
    w.String(cfg.calibration_maps ? cfg.calibration_maps->sha256
                                  : cfg.calibration_sha256);
  }
  if (cfg.stop_probability) {
    w.Key("stop");
    w.StartObject();
    w.Key("probability");
    w.Double(*cfg.stop_probability);
    w.EndObject();
  }
  if (cfg.panel) {
    w.Key("panels");
    w.StartObject();
    w.Key("judges");
    w.StartArray();
    for (auto& n : cfg.panel->judges)
      w.String(n);
    w.EndArray();
    w.Key("rule");
    w.String(std::string{to_string(cfg.panel->rule)});
    w.EndObject();
  }
  if (cfg.cascade) {
    w.Key("cascade");
    w.StartObject();
    w.Key("rules");
    w.String(cfg.cascade->rules);
    w.Key("llm");
    w.String(cfg.cascade->llm);
    w.Key("audit_rate");
    w.Double(cfg.cascade->audit_rate);
    w.Key("seed");
    w.Uint64(cfg.cascade->seed);
    w.EndObject();
  }
  w.EndObject();
}

std::string to_json(const run_config& cfg) {
  rapidjson::StringBuffer sb;
  rapidjson::Writer<rapidjson::StringBuffer> w(sb);
  write_run_config(w, cfg);
  return {sb.GetString(), sb.GetSize()};
}

} // namespace ij
