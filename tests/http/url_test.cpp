#include <catch2/catch.hpp>

#include "adapters/url.hpp"
#include "tests/error_text.hpp"

using namespace ij;

TEST_CASE("parse_url reads scheme host port and path", "[http][url]") {
  auto u = parse_url("http://127.0.0.1:8000/v1/");
  REQUIRE(u);
  CHECK_FALSE(u->tls);
  CHECK(u->host == "127.0.0.1");
  CHECK(u->port == 8000);
  CHECK(u->path == "/v1");
  CHECK(u->to_string() == "http://127.0.0.1:8000/v1");
  CHECK(u->host_header() == "127.0.0.1:8000");

  auto s = parse_url("https://api.anthropic.com");
  REQUIRE(s);
  CHECK(s->tls);
  CHECK(s->port == 443);
  CHECK(s->path.empty());
  CHECK(s->host_header() == "api.anthropic.com");

  auto v6 = parse_url("http://[::1]:11434");
  REQUIRE(v6);
  CHECK(v6->host == "::1");
  CHECK(v6->to_string() == "http://[::1]:11434");
  CHECK(v6->host_header() == "[::1]:11434");
}

TEST_CASE(
  "parse_url takes OLLAMA_HOST forms without a scheme only when allowed",
  "[http][url]") {
  auto hp = parse_url("0.0.0.0:11435", 11434);
  REQUIRE(hp);
  CHECK(hp->host == "0.0.0.0");
  CHECK(hp->port == 11435);
  CHECK_FALSE(hp->tls);
  auto h = parse_url("gpu-host", 11434);
  REQUIRE(h);
  CHECK(h->port == 11434);
  auto http_default = parse_url("http://gpu-host", 11434);
  REQUIRE(http_default);
  CHECK(http_default->port == 80);

  auto schemeless = parse_url("gpu-host:8000");
  CHECK_FALSE(schemeless);
  CHECK(test::why(schemeless).find("scheme") != std::string::npos);
}

TEST_CASE("parse_url rejects malformed URLs with a reason", "[http][url]") {
  CHECK_FALSE(parse_url(""));
  auto ftp = parse_url("ftp://host");
  CHECK_FALSE(ftp);
  CHECK(test::why(ftp).find("ftp") != std::string::npos);
  CHECK(ftp.error() == errc::bad_config);
  CHECK_FALSE(parse_url("http://host:99999"));
  CHECK_FALSE(parse_url("http://host:0"));
  CHECK_FALSE(parse_url("http://host:abc"));
  CHECK_FALSE(parse_url("http://:80"));
  CHECK_FALSE(parse_url("http://[::1"));
  CHECK_FALSE(parse_url("http://host/v1?x=1"));
  auto with_key = parse_url("https://user:sk-secret@host");
  CHECK_FALSE(with_key);
  CHECK(test::why(with_key).find("credentials") != std::string::npos);
  CHECK(render_error(with_key.error()).find("sk-secret") == std::string::npos);
}
