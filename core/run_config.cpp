#include "core/run_config.hpp"

#include "core/host_address.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <set>

#include <rapidjson/document.h>
#include <rapidjson/error/en.h>
#include <rapidjson/pointer.h>
#include <rapidjson/schema.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include "core/statistical_params_json.hpp"
#include "core/verdict_table.hpp"
#include "core/embedded_configs.hpp"

namespace ij {

namespace {

using rapidjson::Value;

std::string escape_token(std::string_view name) {
  std::string out;
  for (char c : name) {
    if (c == '~')
      out += "~0";
    else if (c == '/')
      out += "~1";
    else
      out += c;
  }
  return out;
}

std::string pointer_text(const rapidjson::Pointer& p) {
  rapidjson::StringBuffer sb;
  p.Stringify(sb);
  return sb.GetString();
}

/// "/" for the root, so that every message shows a pointer.
std::string shown(const std::string& pointer) {
  return pointer.empty() ? "/" : pointer;
}

std::string number_text(const Value& v) {
  if (v.IsInt64())
    return std::to_string(v.GetInt64());
  if (v.IsUint64())
    return std::to_string(v.GetUint64());
  char buf[64];
  std::snprintf(buf, sizeof buf, "%g", v.GetDouble());
  return buf;
}

std::string json_text(const Value& v) {
  rapidjson::StringBuffer sb;
  rapidjson::Writer<rapidjson::StringBuffer> w(sb);
  v.Accept(w);
  return sb.GetString();
}

std::string type_phrase(const Value& type) {
  auto one = [](std::string_view t) -> std::string {
    if (t == "integer")
      return "an integer";
    if (t == "object" || t == "array")
      return "an " + std::string{t};
    return "a " + std::string{t};
  };
  if (type.IsString())
    return one(type.GetString());
  std::string out;
  if (type.IsArray())
    for (auto& t : type.GetArray())
      if (t.IsString())
        out += (out.empty() ? "" : " or ") + one(t.GetString());
  return out.empty() ? "of another type" : out;
}

/// Turns RapidJSON's (keyword, schema pointer, document pointer) into
/// "<pointer>: <plain words>", looking into the schema and the document for
/// what 1.1.0 does not say (which field is missing or unknown).
std::string schema_error(const rapidjson::Document& schema,
                         const rapidjson::Document& doc,
                         const rapidjson::SchemaValidator& v) {
  std::string keyword = v.GetInvalidSchemaKeyword();
  std::string where = pointer_text(v.GetInvalidDocumentPointer());
  const Value* sub = v.GetInvalidSchemaPointer().Get(schema);
  const Value* node = v.GetInvalidDocumentPointer().Get(doc);
  auto kw = [&](const char* name) -> const Value* {
    if (!sub || !sub->IsObject())
      return nullptr;
    auto it = sub->FindMember(name);
    return it == sub->MemberEnd() ? nullptr : &it->value;
  };
  if (keyword == "type") {
    if (auto t = kw("type"))
      return shown(where) + ": must be " + type_phrase(*t);
  } else if (keyword == "minimum" || keyword == "maximum") {
    bool lower = keyword == "minimum";
    auto ex = kw(lower ? "exclusiveMinimum" : "exclusiveMaximum");
    bool exclusive = ex && ex->IsBool() && ex->GetBool();
    if (auto b = kw(keyword.c_str()))
      return shown(where) + ": must be " + (lower ? ">" : "<")
             + (exclusive ? " " : "= ") + number_text(*b);
  } else if (keyword == "enum") {
    if (auto e = kw("enum"); e && e->IsArray()) {
      std::string list;
      for (auto& x : e->GetArray())
        list += (list.empty() ? "" : ", ") + json_text(x);
      return shown(where) + ": must be one of " + list;
    }
  } else if (keyword == "minLength") {
    if (auto n = kw("minLength"); n && n->IsUint() && n->GetUint() == 1)
      return shown(where) + ": must not be empty";
    if (auto n = kw("minLength"))
      return shown(where) + ": must have at least " + number_text(*n)
             + " characters";
  } else if (keyword == "minItems") {
    if (auto n = kw("minItems"))
      return shown(where) + ": must have at least " + number_text(*n)
             + " item(s)";
  } else if (keyword == "required") {
    if (auto r = kw("required"); r && r->IsArray() && node && node->IsObject())
      for (auto& name : r->GetArray())
        if (name.IsString() && !node->HasMember(name))
          return where + "/" + escape_token(name.GetString())
                 + ": is required";
  } else if (keyword == "additionalProperties") {
    auto props = kw("properties");
    // RapidJSON may point at the object or at the offending key.
    const Value* obj = node;
    std::string base = where;
    if (obj && !obj->IsObject()) {
      auto slash = where.rfind('/');
      base = where.substr(0, slash == std::string::npos ? 0 : slash);
      obj = rapidjson::Pointer(base.c_str()).Get(doc);
    }
    if (props && props->IsObject() && obj && obj->IsObject()) {
      std::string allowed;
      for (auto& p : props->GetObject())
        allowed += (allowed.empty() ? "" : ", ") + std::string{p.name.GetString()};
      for (auto& m : obj->GetObject())
        if (!props->HasMember(m.name))
          return base + "/" + escape_token(m.name.GetString())
                 + ": unknown field (known: " + allowed + ")";
    }
  }
  return shown(where) + ": fails the schema rule \"" + keyword + "\"";
}

/// "line L, column C" of a byte offset, for JSON syntax errors.
std::string position_of(std::string_view text, std::size_t offset) {
  std::size_t line = 1, col = 1;
  for (std::size_t i = 0; i < offset && i < text.size(); ++i) {
    if (text[i] == '\n') {
      ++line;
      col = 1;
    } else {
      ++col;
    }
  }
  return "line " + std::to_string(line) + ", column " + std::to_string(col);
}

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
  return s;
}

/// "hosts" and "host_connection"; an error is "<pointer> <what>".
std::string read_hosts(const Value& doc, run_config& cfg) {
  if (auto hosts = member(doc, "hosts")) {
    cfg.hosts.clear();
    for (rapidjson::SizeType i = 0; i < hosts->Size(); ++i) {
      std::string text = (*hosts)[i].GetString(), why;
      if (!parse_host_address(text, false, why))
        return "/hosts/" + std::to_string(i) + " " + why;
      cfg.hosts.push_back(text);
    }
  }
  auto hc = member(doc, "host_connection");
  if (!hc)
    return {};
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
    return std::string{"/host_connection "}
           + "mutual TLS needs all three of tls_cert, tls_key and tls_ca";
  if (c.lost_after < c.heartbeat)
    return std::string{"/host_connection/lost_after_ms "}
           + "must be at least heartbeat_ms (a host is lost after missed "
             "pings)";
  return {};
}

/// Lays a schema-valid document over `cfg`, then checks what a schema cannot.
bool apply(const Value& doc, run_config& cfg, const std::string& source,
           std::string& error) {
  auto fail = [&](const std::string& pointer, const std::string& what) {
    error = source + ": " + pointer + ": " + what;
    return false;
  };
  auto judge = member(doc, "judge");
  auto judges = member(doc, "judges");
  if (judge && judges)
    return fail("/judge", "give either \"judge\" or \"judges\", not both");
  if (judge) {
    std::string why;
    auto spec = parse_judge_name(judge->GetString(), why);
    if (!spec)
      return fail("/judge", why);
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
  if (auto why = validate(cfg.votes))
    return fail(k ? "/min_agreement" : "/votes", *why);
  if (auto v = member(doc, "abstain_as_neither"))
    cfg.abstain_as_neither = v->GetBool();
  if (auto v = member(doc, "order_balancing"))
    cfg.order_balancing = v->GetBool();
  if (auto v = member(doc, "vote_deadline_ms"))
    cfg.vote_deadline = std::chrono::milliseconds{v->GetUint()};
  if (auto v = member(doc, "failover_wait_ms"))
    cfg.failover_wait = std::chrono::milliseconds{v->GetUint()};
  if (auto why = read_hosts(doc, cfg); !why.empty())
    return fail(why.substr(0, why.find(' ')), why.substr(why.find(' ') + 1));
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
  if (auto why = validate(cfg.stats))
    return fail("/statistics", *why);
  if (auto au = member(doc, "audit")) {
    if (auto v = member(*au, "path"))
      cfg.audit_path = v->GetString();
    if (auto v = member(*au, "flush"))
      cfg.flush = *flush_policy_from_string(v->GetString());
  }
  return true;
}

std::optional<run_config> parse_over(run_config base,
                                        std::string_view json,
                                        const std::string& source,
                                        std::string& error) {
  rapidjson::Document doc;
  doc.Parse<rapidjson::kParseValidateEncodingFlag>(json.data(), json.size());
  if (doc.HasParseError()) {
    error = source + ": " + position_of(json, doc.GetErrorOffset())
            + ": not valid JSON: " + rapidjson::GetParseError_En(doc.GetParseError());
    return std::nullopt;
  }
  rapidjson::SchemaValidator validator{compiled_schema()};
  if (!doc.Accept(validator)) {
    error = source + ": " + schema_error(schema_document(), doc, validator);
    return std::nullopt;
  }
  base.source = source;
  if (!apply(doc, base, source, error))
    return std::nullopt;
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
  std::string error;
  auto cfg = parse_over(run_config{}, embedded::default_config,
                        std::string{embedded_source}, error);
  // The build embeds a file the tests validate; failing here is a build bug.
  if (!cfg) {
    std::fprintf(stderr, "invjudge: the embedded default is invalid: %s\n",
                 error.c_str());
    std::abort();
  }
  return std::move(*cfg);
}

std::optional<run_config> parse_config(std::string_view json,
                                          const std::string& source,
                                          std::string& error) {
  return parse_over(default_config(), json, source, error);
}

bool override_judge(run_config& cfg, const std::string& name,
                    std::string& error) {
  auto spec = parse_judge_name(name, error);
  if (!spec) {
    error = "--judge " + (name.empty() ? std::string{"''"} : name) + ": " + error;
    return false;
  }
  cfg.judges = {*spec};
  return true;
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
  w.Key("audit");
  w.StartObject();
  w.Key("path");
  w.String(cfg.audit_path);
  w.Key("flush");
  w.String(std::string{to_string(cfg.flush)});
  w.EndObject();
  write_hosts(w, cfg);
  w.EndObject();
}

std::string to_json(const run_config& cfg) {
  rapidjson::StringBuffer sb;
  rapidjson::Writer<rapidjson::StringBuffer> w(sb);
  write_run_config(w, cfg);
  return {sb.GetString(), sb.GetSize()};
}

} // namespace ij
