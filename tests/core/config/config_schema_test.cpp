// The field tables the configuration reader and writer follow against the
// schemas that validate the files: every schema property has a row and every
// row a schema property, so that a field cannot be added to one alone.
#include <fstream>
#include <set>
#include <sstream>
#include <string>

#include <catch2/catch.hpp>
#include <rapidjson/document.h>

#include "core/config/backend_kinds.hpp"
#include "core/config/run_config.hpp"
#include "core/config/serve_settings.hpp"

using namespace ij;

namespace {

rapidjson::Document schema(const std::string& name) {
  std::ifstream in{std::string{IJ_SOURCE_DIR} + "/configs/" + name};
  std::ostringstream text;
  text << in.rdbuf();
  rapidjson::Document doc;
  doc.Parse(text.str().c_str());
  REQUIRE_FALSE(doc.HasParseError());
  return doc;
}

const rapidjson::Value& resolve(const rapidjson::Document& doc,
                                const rapidjson::Value& node) {
  auto ref = node.FindMember("$ref");
  if (ref == node.MemberEnd())
    return node;
  std::string name = ref->value.GetString(); // "#/definitions/NAME"
  return doc["definitions"][name.substr(name.rfind('/') + 1).c_str()];
}

// The pointers of the schema's properties under `node` that no row covers
// (a row covers its property's whole subtree).
void uncovered(const rapidjson::Document& doc, const rapidjson::Value& node,
               const std::string& prefix, const std::set<std::string>& rows,
               std::set<std::string>& missing) {
  auto props = node.FindMember("properties");
  if (props == node.MemberEnd())
    return;
  for (auto& p : props->value.GetObject()) {
    auto at = prefix + "/" + p.name.GetString();
    if (rows.count(at))
      continue;
    auto& sub = resolve(doc, p.value);
    if (sub.HasMember("properties"))
      uncovered(doc, sub, at, rows, missing);
    else
      missing.insert(at);
  }
}

// Whether the schema has a property at `pointer` under `node`.
bool in_schema(const rapidjson::Document& doc, const rapidjson::Value& node,
               const std::string& pointer) {
  if (pointer.empty())
    return true;
  auto end = pointer.find('/', 1);
  auto name = pointer.substr(1, end == std::string::npos ? end : end - 1);
  auto props = node.FindMember("properties");
  if (props == node.MemberEnd() || !props->value.HasMember(name.c_str()))
    return false;
  return in_schema(doc, resolve(doc, props->value[name.c_str()]),
                   end == std::string::npos ? "" : pointer.substr(end));
}

template <class T>
void check_table(const rapidjson::Document& doc, const rapidjson::Value& node,
                 const config::table<T>& fields) {
  std::set<std::string> rows;
  for (auto& f : fields) {
    rows.emplace(f.pointer);
    // Written-only rows ("source") are not configuration fields.
    if (f.read) {
      INFO("table row " << f.pointer);
      CHECK(in_schema(doc, node, std::string{f.pointer}));
    }
  }
  std::set<std::string> missing;
  uncovered(doc, node, "", rows, missing);
  for (auto& m : missing) {
    INFO("schema property without a table row: " << m);
    CHECK(false);
  }
}

} // namespace

TEST_CASE("configs/schema.json and the run configuration's field table list "
          "the same fields") {
  auto doc = schema("schema.json");
  check_table(doc, doc, run_config_fields());
  check_table(doc, doc["definitions"]["judge"], judge_config_fields());
}

// The backend table (core/config/backend_kinds) is the one list of judge kinds:
// the schema leaves "type" a string (a kind a test adds at run time must
// pass), and its description names every kind of the table, in its order.
TEST_CASE("configs/schema.json leaves a judge's type to the backend table") {
  auto doc = schema("schema.json");
  auto& type = doc["definitions"]["judge"]["properties"]["type"];
  CHECK_FALSE(type.HasMember("enum"));
  REQUIRE(type.HasMember("type"));
  CHECK(std::string{type["type"].GetString()} == "string");
  REQUIRE(type.HasMember("description"));
  std::string description = type["description"].GetString();
  CHECK(description.find(backend_kinds_text()) != std::string::npos);
  auto names = backend_kind_names();
  CHECK(names
        == std::vector<std::string>{"stub", "rules", "ollama", "anthropic",
                                    "openai"});
}

TEST_CASE(
  "a judge of a kind not in the backend table: its field, named kinds") {
  auto cfg =
    parse_config(R"({"judges":[{"type":"grpc","model":"m","temperature":0,)"
                 R"("timeout_ms":1000,"max_in_flight":1}]})",
                 "k.json");
  REQUIRE_FALSE(cfg);
  CHECK(context_of(cfg.error())
        == "k.json: /judges/0/type: unknown judge type 'grpc' (expected stub, "
           "rules, "
           "ollama, anthropic or openai)");
}

TEST_CASE("configs/serve.schema.json and SERVE.json's field table list the "
          "same fields") {
  auto doc = schema("serve.schema.json");
  check_table(doc, doc, serve_settings_fields());
}

TEST_CASE("SERVE.json: read over the defaults, errors name the file, the field "
          "and the reason") {
  serve_file_settings base;
  base.threads = 4;
  auto s = parse_serve_settings(
    R"({"cache":{"path":"c.db","ttl":60},"threads":8,"grace_ms":500})",
    "SERVE.json", base);
  REQUIRE(s);
  CHECK(s->cache.path == "c.db");
  CHECK(s->cache.ttl == std::chrono::seconds(60));
  CHECK(s->threads == 8);
  CHECK(s->grace == std::chrono::milliseconds(500));
  auto bad = parse_serve_settings(R"({"threads":0})", "SERVE.json", base);
  REQUIRE_FALSE(bad);
  CHECK(context_of(bad.error()) == "SERVE.json: /threads: must be >= 1");
  auto unknown = parse_serve_settings(R"({"thread":2})", "SERVE.json", base);
  REQUIRE_FALSE(unknown);
  CHECK(
    context_of(unknown.error()).rfind("SERVE.json: /thread: unknown field", 0)
    == 0);
}
