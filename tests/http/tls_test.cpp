// HTTPS against a fake server whose certificate is made at test time:
// verification passes with the test CA given as ca_file, and fails without
// it (the system store does not know the CA) or for a wrong host name.
#include <catch2/catch.hpp>

#include "adapters/http_judge.hpp"
#include "tests/http/fake_apis.hpp"
#include "tests/http/test_support.hpp"
#include "tests/http/test_tls.hpp"

using namespace ij;
using namespace ij::test;

namespace {

bool contains(const std::string& s, const std::string& part) {
  return s.find(part) != std::string::npos;
}

const test_pki& local_pki() {
  static const test_pki pki = make_test_pki({"localhost"}, {"127.0.0.1"});
  return pki;
}

} // namespace

TEST_CASE("https: verified against the CA named by ca_file", "[http][tls]") {
  fake_api_options o;
  o.kind = api_kind::anthropic;
  o.api_key = "sk-ant-tls-key";
  o.tls = server_tls_context(local_pki());
  fake_api fake(o);
  temp_file ca(local_pki().ca_cert_pem);
  scoped_env key("IJ_TEST_TLS_KEY", "sk-ant-tls-key");
  auto spec = spec_for("anthropic", fake.base_url());
  REQUIRE(contains(spec.base_url, "https://127.0.0.1:"));
  spec.api_key_env = "IJ_TEST_TLS_KEY";
  spec.ca_file = ca.path();
  spec.max_in_flight = 1;
  auto a = adapter_or_null(make_http_adapter(spec, fast_tuning()));
  REQUIRE(a);
  auto replies = call_many(*a, tricky_prompt(), options_for(spec), 5);
  for (auto& r : replies) {
    CHECK(r.ok);
    CHECK(r.text == "EQUIVALENT");
  }
  CHECK(fake.prompts().at(0) == tricky_prompt());
  CHECK(fake.violations().empty());
  // Keep-alive holds over TLS too.
  CHECK(fake.server().connections() == 1);

  // By DNS name (SNI and host name checked against the certificate).
  auto by_name = spec_for(
    "anthropic", "https://localhost:" + std::to_string(fake.server().port()));
  by_name.api_key_env = "IJ_TEST_TLS_KEY";
  by_name.ca_file = ca.path();
  auto b = adapter_or_null(make_http_adapter(by_name, fast_tuning()));
  REQUIRE(b);
  CHECK(call_and_wait(*b, "p", options_for(by_name)).ok);
}

TEST_CASE("https: verification fails without the test CA", "[http][tls]") {
  fake_api_options o;
  o.tls = server_tls_context(local_pki());
  fake_api fake(o);
  auto spec = spec_for("openai", fake.base_url() + "/v1");
  auto a =
    adapter_or_null(make_http_adapter(spec, fast_tuning())); // system CA store
  REQUIRE(a);
  auto reply = call_and_wait(*a, "p", options_for(spec));
  CHECK_FALSE(reply.ok);
  CHECK(reply.attempts == 1); // a bad certificate does not heal on retry
  CHECK(contains(reply.error, "TLS handshake"));
  CHECK(contains(reply.error, "certificate verify failed"));
  CHECK(fake.server().requests() == 0);
}

TEST_CASE(
  "https: a certificate for another host is refused even from a trusted CA",
  "[http][tls]") {
  auto other = make_test_pki({"judge.example.org"}, {});
  fake_api_options o;
  o.tls = server_tls_context(other);
  fake_api fake(o);
  temp_file ca(other.ca_cert_pem);
  auto spec = spec_for("openai", fake.base_url() + "/v1");
  spec.ca_file = ca.path();
  auto a = adapter_or_null(make_http_adapter(spec, fast_tuning()));
  REQUIRE(a);
  auto reply = call_and_wait(*a, "p", options_for(spec));
  CHECK_FALSE(reply.ok);
  CHECK(contains(reply.error, "certificate verify failed"));
  CHECK(fake.server().requests() == 0);
}
