// docs/openapi.yaml and the daemon agree: each route of the route table is
// described, each described route exists, and every error code the daemon's
// sources can return is in the description's ErrorCode list. The YAML is
// read in the regular shape the file keeps (see its header), no YAML
// library being in the stack.
#include <algorithm>
#include <regex>
#include <set>

#include <dirent.h>

#include <boost/beast/http/verb.hpp>
#include <catch2/catch.hpp>

#include "daemon/api_routes.hpp"
#include "tests/daemon/daemon_support.hpp"

using namespace ij;
using namespace ij::test;

namespace {

std::string lower(std::string s) {
  for (auto& c : s)
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// "METHOD PATH" for every operation under `paths:`.
std::set<std::string> described_routes(const std::string& yaml) {
  static const std::regex path_line{R"(^  (/[^ :]*):\s*$)"};
  static const std::regex method_line{
    R"(^    (get|put|post|delete|patch|head|options):\s*$)"};
  std::set<std::string> out;
  bool in_paths = false;
  std::string path;
  for (auto& line : lines_of(yaml)) {
    if (!line.empty() && line[0] != ' ' && line[0] != '#') {
      in_paths = line.rfind("paths:", 0) == 0;
      continue;
    }
    std::smatch m;
    if (!in_paths)
      continue;
    if (std::regex_match(line, m, path_line))
      path = m[1];
    else if (std::regex_match(line, m, method_line))
      out.insert(m[1].str() + " " + path);
  }
  return out;
}

std::set<std::string> error_codes_in_sources() {
  // {status, "code" or (status, "code": every error_reply and json_error.
  static const std::regex code{R"re([{(]\s*([45][0-9][0-9]),\s*"([a-z_]+)")re"};
  std::set<std::string> out;
  auto dir = source_dir() + "/daemon";
  auto* d = ::opendir(dir.c_str());
  REQUIRE(d != nullptr);
  while (auto* e = ::readdir(d)) {
    std::string name = e->d_name;
    if (name.size() < 4 || name.substr(name.size() - 4) != ".cpp")
      continue;
    auto text = read_file(dir + "/" + name);
    for (std::sregex_iterator it{text.begin(), text.end(), code}, end;
         it != end; ++it)
      out.insert((*it)[2]);
  }
  ::closedir(d);
  return out;
}

} // namespace

TEST_CASE("OpenAPI: every route of the route table is described and every "
          "described route "
          "exists") {
  auto yaml = read_file(source_dir() + "/docs/openapi.yaml");
  REQUIRE(yaml.find("\nopenapi: 3.1") != std::string::npos);
  auto described = described_routes(yaml);
  std::set<std::string> served;
  for (auto& r : api_routes().routes())
    served.insert(lower(std::string{boost::beast::http::to_string(r.method)})
                  + " " + r.pattern);
  REQUIRE(served.size() >= 10);
  for (auto& r : served) {
    INFO("served but not described: " << r);
    CHECK(described.count(r) == 1);
  }
  for (auto& r : described) {
    INFO("described but not served: " << r);
    CHECK(served.count(r) == 1);
  }
}

TEST_CASE(
  "OpenAPI: every error code the daemon returns is listed, with its status") {
  auto yaml = read_file(source_dir() + "/docs/openapi.yaml");
  auto at = yaml.find("    ErrorCode:");
  REQUIRE(at != std::string::npos);
  auto list = yaml.substr(at, yaml.find("    Error:", at) - at);
  auto codes = error_codes_in_sources();
  CHECK(codes.count("unknown_field") == 1); // the scan sees the sources
  CHECK(codes.count("request_timeout") == 1);
  for (auto& c : codes) {
    INFO("an error code not in docs/openapi.yaml: " << c);
    CHECK(std::regex_search(list, std::regex{"\n        - " + c + "\\b"}));
  }
}

TEST_CASE(
  "OpenAPI: /metrics describes every metric family the daemon serves, and no "
  "other") {
  temp_dir dir;
  started_daemon d{dir, dir.file("state")};
  api_client api{d.url(), ""};
  auto metrics = api.request("GET", "/metrics");
  REQUIRE(metrics.status == 200);
  // What is served: every "# TYPE NAME KIND" line.
  std::set<std::string> served;
  for (auto& line : lines_of(metrics.body))
    if (line.rfind("# TYPE ", 0) == 0)
      served.insert(line.substr(7, line.find(' ', 7) - 7));
  REQUIRE(served.size() >= 10);
  // What is described: the family names in the /metrics operation.
  auto yaml = read_file(source_dir() + "/docs/openapi.yaml");
  auto at = yaml.find("\n  /metrics:\n");
  REQUIRE(at != std::string::npos);
  auto described_text = yaml.substr(at, yaml.find("\n  /", at + 1) - at);
  static const std::regex family{R"(\binvjudge_[a-z_]+)"};
  std::set<std::string> described;
  for (std::sregex_iterator
         it{described_text.begin(), described_text.end(), family},
       end;
       it != end; ++it)
    described.insert((*it)[0]);
  for (auto& f : served) {
    INFO("served by /metrics but not in docs/openapi.yaml: " << f);
    CHECK(described.count(f) == 1);
  }
  for (auto& f : described) {
    INFO("in docs/openapi.yaml but not served by /metrics: " << f);
    CHECK(served.count(f) == 1);
  }
}
